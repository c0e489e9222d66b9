// QS-hierarchy linearisation both ways (inference/qs/qslinearize.h).
#include "inference/qs/qslinearize.h"

#include "inference/errors.h"


namespace folio::inference {

namespace {

bool blank(const std::string &s)
{
    return s.find_first_not_of(" \t\r\n") == std::string::npos;
}

std::string trimmed(const std::string &s)
{
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos)
        return {};
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// Action characters inside a text would be read back as structure: replaced by spaces.
std::string clean(const std::string &s)
{
    std::string o = s;
    for (char &c : o)
        if (c == '{' || c == '}' || c == '|')
            c = ' ';
    return trimmed(o);
}

std::string replaceAll(std::string s, const std::string &from, const std::string &to)
{
    for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
        s.replace(p, from.size(), to);
    return s;
}

} // namespace

std::int64_t HibridsMarkers::marker(int d) const
{
    // DEPTH_SPECIAL_TOKENS.get(depth, <the >= 5 marker>)
    if (d >= -1 && d <= 4 && static_cast<std::size_t>(d + 1) < depth.size())
        return depth[static_cast<std::size_t>(d + 1)];
    return depth.back();
}

HibridsSource linearizeHibridsSource(const std::vector<HibridsSectionText> &sections,
                                     const std::vector<std::int64_t> &prefix, int maxSourcePositions,
                                     const HibridsMarkers &markers)
{
    if (markers.depth.size() != 7)
        throw InferenceError("HIBRIDS markers: 7 depth markers expected (depth -1 .. >= 5)");
    for (std::size_t i = 0; i < sections.size(); ++i)
        if (sections[i].parent < -1 || sections[i].parent >= static_cast<std::int64_t>(i))
            throw InferenceError("section " + std::to_string(i) + ": parent " + std::to_string(sections[i].parent)
                                        + " is not an earlier section");
    HibridsSource out;
    const std::int64_t limit = static_cast<std::int64_t>(maxSourcePositions) - 2;
    std::int64_t length = prefix.empty() ? 0 : 1 + static_cast<std::int64_t>(prefix.size());
    std::vector<std::vector<std::int64_t>> chunks;
    for (const HibridsSectionText &s : sections) {
        // The reference keeps a section only when all of it fits (marker, title, separators).
        length += 1 + static_cast<std::int64_t>(s.title.size());
        bool fits = length <= limit;
        for (std::size_t p = 0; fits && p < s.paragraphs.size(); ++p) {
            length += static_cast<std::int64_t>(s.paragraphs[p].size()) + 1;
            fits = length <= limit;
        }
        if (!fits) {
            out.truncated = true;
            break;
        }
        std::vector<std::int64_t> chunk = {markers.marker(s.depth)};
        chunk.insert(chunk.end(), s.title.begin(), s.title.end());
        for (const auto &p : s.paragraphs) {
            chunk.push_back(markers.paragraphSeparator);
            chunk.insert(chunk.end(), p.begin(), p.end());
        }
        chunks.push_back(std::move(chunk));
    }
    out.sectionsKept = static_cast<int>(chunks.size());
    const std::int64_t shift = prefix.empty() ? 1 : 2;
    out.ids.push_back(markers.bos);
    if (!prefix.empty()) {
        out.ids.insert(out.ids.end(), prefix.begin(), prefix.end());
        out.chunkSizes.push_back(1 + static_cast<std::int64_t>(prefix.size()));
        out.ids.push_back(markers.bos);
        out.sectionParent.push_back(-1);
    }
    out.chunkSizes.push_back(1);
    out.sectionParent.push_back(-1);
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        out.ids.insert(out.ids.end(), chunks[i].begin(), chunks[i].end());
        out.chunkSizes.push_back(static_cast<std::int64_t>(chunks[i].size()));
        const std::int64_t parent = sections[i].parent;
        out.sectionParent.push_back(parent < 0 ? -1 : parent + shift);
    }
    out.ids.push_back(markers.eos);
    out.chunkSizes.push_back(1);
    out.sectionParent.push_back(-1);
    for (std::size_t s = 0; s < out.chunkSizes.size(); ++s)
        out.tokenToSection.insert(out.tokenToSection.end(), static_cast<std::size_t>(out.chunkSizes[s]),
                                  static_cast<std::int64_t>(s));
    return out;
}

std::vector<int> QsHierarchy::parents() const
{
    std::vector<int> p(items.size(), -1);
    for (std::size_t i = 0; i < items.size(); ++i)
        for (int j = static_cast<int>(i) - 1; j >= 0 && items[i].depth > 1; --j)
            if (items[static_cast<std::size_t>(j)].depth == items[i].depth - 1) {
                p[i] = j;
                break;
            }
    return p;
}

std::string linearizeQsTarget(const QsHierarchy &tree, QsDepthConvention convention)
{
    std::string out = clean(tree.rootSummary);
    int current = 0;
    for (std::size_t i = 0; i < tree.items.size(); ++i) {
        const QsItem &it = tree.items[i];
        if (it.depth < 1 || it.depth > current + 1)
            throw InferenceError("QS item " + std::to_string(i) + ": depth " + std::to_string(it.depth)
                                        + " after depth " + std::to_string(current)
                                        + " (items are in pre-order, depth 1 = child of the root)");
        std::string marks;
        if (convention == QsDepthConvention::Released)
            marks = std::string(static_cast<std::size_t>(it.depth), '{'); // current_depth stays 0
        else if (it.depth > current)
            marks = "{";
        else if (it.depth == current)
            marks = "|";
        else
            marks = std::string(static_cast<std::size_t>(current - it.depth), '}');
        current = it.depth;
        std::string question = clean(it.question);
        if (question.empty() || question.back() != '?')
            question += '?';
        out += " " + marks + " " + question + " " + clean(it.summary);
    }
    return out;
}

std::string normaliseQsActions(const std::string &decoded)
{
    return replaceAll(replaceAll(replaceAll(decoded, "||||", "|"), "{{", "{"), "}}}", "}");
}

QsParse parseQsTarget(const std::string &text)
{
    QsParse r;
    bool rootSeen = false;
    std::vector<int> stack;  // open parents: item indices, -1 = the root
    std::string current;
    int lastItem = -1;
    bool lastHadText = false;
    auto flush = [&] {
        lastHadText = false;
        if (!rootSeen) {
            rootSeen = true;
            r.tree.rootSummary = trimmed(current);
            if (blank(current))
                r.repairs.push_back("no root summary before the first action mark");
        } else if (!blank(current)) {
            QsItem it;
            const auto q = current.find('?');
            if (q == std::string::npos) {
                it.question = trimmed(current);
                r.repairs.push_back("item " + std::to_string(r.tree.items.size()) + " has no '?': read as a question without summary");
            } else {
                it.question = trimmed(current.substr(0, q + 1));
                it.summary = trimmed(current.substr(q + 1));
            }
            const int p = stack.empty() ? -1 : stack.back();
            it.depth = p < 0 ? 1 : r.tree.items[static_cast<std::size_t>(p)].depth + 1;
            r.tree.items.push_back(std::move(it));
            lastItem = static_cast<int>(r.tree.items.size()) - 1;
            lastHadText = true;
        }
        current.clear();
    };
    bool sawRootPush = false;
    for (char c : text) {
        if (c != '{' && c != '|' && c != '}') {
            current += c;
            continue;
        }
        const bool first = !rootSeen;
        flush();
        if (c == '{') {
            if (first) {
                stack.push_back(-1);
                sawRootPush = true;
            } else if (lastHadText) {
                stack.push_back(lastItem); // a run of '{' is one push
            }
        } else if (c == '}') {
            if (stack.empty())
                r.repairs.push_back("unmatched '}' ignored");
            else
                stack.pop_back();
        }
    }
    if (!blank(current) || !rootSeen)
        flush();
    if (!sawRootPush && !r.tree.items.empty())
        r.repairs.push_back("the first item did not open with '{': items attached to the root");
    return r;
}

} // namespace folio::inference
