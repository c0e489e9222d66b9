#include "document/formats/qsdocument.h"

#include "document/formats/datasetlimits.h"
#include "document/formats/jsonvalidate.h"
#include "document/qstree.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace folio::formats {

namespace {

const QString kSpeaker = QStringLiteral("speaker");

QStringList tokens(const QString &text)
{
    static const QRegularExpression space(QStringLiteral("\\s+"));
    return text.split(space, Qt::SkipEmptyParts);
}

QString speakerOf(const Node &n)
{
    for (const auto &a : n.attributes)
        if (a.first == kSpeaker)
            return a.second;
    return QString();
}

bool isBlockTag(const QString &tag)
{
    static const QSet<QString> blocks{
        QStringLiteral("p"), QStringLiteral("div"), QStringLiteral("li"), QStringLiteral("td"), QStringLiteral("th"),
        QStringLiteral("h1"), QStringLiteral("h2"), QStringLiteral("h3"), QStringLiteral("h4"), QStringLiteral("h5"),
        QStringLiteral("h6"), QStringLiteral("pre"), QStringLiteral("blockquote"), QStringLiteral("dd"), QStringLiteral("dt"),
        QStringLiteral("caption"), QStringLiteral("figcaption"), QStringLiteral("section"), QStringLiteral("article"),
        QStringLiteral("header"), QStringLiteral("footer"), QStringLiteral("main"), QStringLiteral("nav"),
        QStringLiteral("aside"), QStringLiteral("body"), QStringLiteral("address"), QStringLiteral("legend")};
    return blocks.contains(tag);
}

// The paragraph node of a word: its nearest Paragraph ancestor (OCR, transcripts, imported
// text), the nearest block-level element (web pages: inline markup stays in its paragraph),
// else its node's parent.
int paragraphNode(const Document &doc, int node)
{
    const int count = int(doc.nodes.size());
    if (node < 0 || node >= count)
        return -1;
    for (int n = node, steps = 0; n >= 0 && n < count && steps < 64; n = doc.nodes[size_t(n)].parent, ++steps) {
        const Node &nd = doc.nodes[size_t(n)];
        if (nd.kind == NodeKind::Paragraph || (nd.kind == NodeKind::Element && isBlockTag(nd.tag)))
            return n;
    }
    return doc.nodes[size_t(node)].parent;
}

QString wordsText(const Document &doc, int first, int end)
{
    QStringList out;
    for (int w = first; w < end; ++w)
        out << doc.words[size_t(w)].text;
    return out.join(QLatin1Char(' '));
}

} // namespace

std::vector<QsParagraph> documentParagraphs(const Document &doc)
{
    std::vector<QsParagraph> out;
    const int n = int(doc.words.size());
    std::vector<int> groupOf(size_t(n), -1);
    QHash<int, int> wordsPerNode;
    for (int w = 0; w < n; ++w) {
        groupOf[size_t(w)] = paragraphNode(doc, doc.words[size_t(w)].node);
        ++wordsPerNode[groupOf[size_t(w)]];
    }
    size_t nextSection = 0;
    int section = -1;
    for (int w = 0; w < n;) {
        while (nextSection < doc.sections.size() && doc.sections[nextSection].firstWord <= w)
            section = int(nextSection++);
        const int limit = nextSection < doc.sections.size() ? std::max(w + 1, doc.sections[nextSection].firstWord) : n;
        int end = w + 1;
        while (end < n && end < limit && groupOf[size_t(end)] == groupOf[size_t(w)])
            ++end;
        QsParagraph p;
        p.firstWord = w;
        p.endWord = end;
        p.section = section;
        p.text = wordsText(doc, w, end);
        const int node = groupOf[size_t(w)];
        if (node >= 0 && doc.nodes[size_t(node)].kind == NodeKind::Paragraph && wordsPerNode.value(node) == end - w) {
            const Node &pn = doc.nodes[size_t(node)];
            p.speaker = speakerOf(pn);
            const QString prefix = p.speaker.isEmpty() ? QString() : p.speaker + QStringLiteral(": ");
            if (tokens(prefix + pn.text).join(QLatin1Char(' ')) == p.text)
                p.text = pn.text; // the imported text, byte for byte
            else
                p.speaker.clear();
        }
        out.push_back(std::move(p));
        w = end;
    }
    return out;
}

QString paragraphPlainText(const QsParagraph &p)
{
    return p.speaker.isEmpty() ? p.text : p.speaker + QStringLiteral(": ") + p.text;
}

Document documentFromParagraphs(const QString &name, const QString &title, const std::vector<QsParagraph> &preamble,
                                const std::vector<QsTextSection> &sections)
{
    Document doc;
    doc.sourcePath = name;
    doc.kind = SourceKind::Unknown;
    doc.title = title;
    doc.pages.push_back(Page{QSizeF(1000, 1000), QString(), 0});
    Node root;
    root.id = QStringLiteral("root");
    doc.addNode(root, -1);
    int paragraphNo = 0;
    auto add = [&](const QsParagraph &p) {
        QStringList words = tokens(p.text);
        QStringList who = tokens(p.speaker); // a blank speaker is no speaker
        if (!who.isEmpty()) {
            who.last() += QLatin1Char(':');
            words = who + words;
        }
        if (words.isEmpty())
            return;
        Node pn;
        pn.id = QStringLiteral("p%1").arg(paragraphNo++);
        pn.kind = NodeKind::Paragraph;
        pn.text = p.text;
        pn.page = 0;
        if (!who.isEmpty())
            pn.attributes.push_back({kSpeaker, p.speaker});
        const int node = doc.addNode(pn, 0);
        for (int k = 0; k < words.size(); ++k) {
            Word w;
            w.id = QStringLiteral("%1/w%2").arg(pn.id).arg(k);
            w.text = words.at(k);
            w.node = node;
            doc.words.push_back(std::move(w));
        }
    };
    for (const QsParagraph &p : preamble)
        add(p);
    std::vector<int> stack;
    for (const QsTextSection &s : sections) {
        Section sec;
        sec.title = s.title;
        sec.level = std::max(1, s.level);
        while (!stack.empty() && doc.sections[size_t(stack.back())].level >= sec.level)
            stack.pop_back();
        sec.parent = stack.empty() ? -1 : stack.back();
        sec.firstWord = int(doc.words.size());
        for (const QsParagraph &p : s.paragraphs)
            add(p);
        sec.endWord = int(doc.words.size());
        const int index = int(doc.sections.size());
        if (sec.parent >= 0)
            doc.sections[size_t(sec.parent)].children.push_back(index);
        doc.sections.push_back(std::move(sec));
        stack.push_back(index);
    }
    return doc;
}

void documentTextSections(const Document &doc, std::vector<QsParagraph> *preamble, std::vector<QsTextSection> *sections)
{
    preamble->clear();
    sections->assign(doc.sections.size(), QsTextSection());
    for (size_t i = 0; i < doc.sections.size(); ++i) {
        (*sections)[i].title = doc.sections[i].title;
        (*sections)[i].level = doc.sections[i].level;
    }
    for (QsParagraph &p : documentParagraphs(doc)) {
        if (p.section < 0)
            preamble->push_back(std::move(p));
        else
            (*sections)[size_t(p.section)].paragraphs.push_back(std::move(p));
    }
}

std::vector<int> evidenceParagraphs(const Document &doc, const std::vector<QsParagraph> &paragraphs,
                                    const QHash<QString, int> &wordIndex, const QsNode &node)
{
    std::vector<int> out;
    auto paragraphOf = [&](int word) {
        auto it = std::upper_bound(paragraphs.begin(), paragraphs.end(), word,
                                   [](int w, const QsParagraph &p) { return w < p.firstWord; });
        return int(it - paragraphs.begin()) - 1;
    };
    for (const QsEvidenceSpan &span : node.evidenceSpans) {
        int first = -1, last = -1;
        if (!qsResolveSpan(wordIndex, span, &first, &last))
            continue;
        for (int p = std::max(0, paragraphOf(first)); p <= paragraphOf(last); ++p)
            out.push_back(p);
    }
    for (const QString &key : node.evidenceSections) {
        const int s = qsResolveSection(doc, key);
        if (s < 0)
            continue;
        int end = s + 1;
        while (end < int(doc.sections.size()) && doc.sections[size_t(end)].level > doc.sections[size_t(s)].level)
            ++end;
        for (int p = 0; p < int(paragraphs.size()); ++p)
            if (paragraphs[size_t(p)].section >= s && paragraphs[size_t(p)].section < end)
                out.push_back(p);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<QsEvidenceSpan> paragraphSpans(const Document &doc, const std::vector<QsParagraph> &paragraphs,
                                           const std::vector<int> &indices)
{
    std::vector<QsEvidenceSpan> out;
    int lastIndex = -2;
    for (int i : indices) {
        if (i < 0 || i >= int(paragraphs.size()))
            continue;
        const QsParagraph &p = paragraphs[size_t(i)];
        if (p.endWord <= p.firstWord)
            continue;
        const QString last = doc.words[size_t(p.endWord) - 1].id;
        if (i == lastIndex + 1 && !out.empty())
            out.back().lastWord = last; // consecutive paragraphs: one span
        else
            out.push_back({doc.words[size_t(p.firstWord)].id, last, QString()});
        lastIndex = i;
    }
    return out;
}

std::vector<QsNode> exportedQsRoots(const std::vector<QsNode> &roots, bool includeSuggestions)
{
    std::vector<QsNode> out;
    for (const QsNode &n : roots) {
        if (n.state == ReviewState::Rejected || (n.state == ReviewState::Suggested && !includeSuggestions))
            continue;
        QsNode copy = n;
        copy.children = exportedQsRoots(n.children, includeSuggestions); // depth <= maxQsDepth (checked)
        out.push_back(std::move(copy));
    }
    return out;
}

std::vector<QsFlatItem> flattenQs(const std::vector<QsNode> &roots)
{
    std::vector<QsFlatItem> out;
    // (siblings, next index, parent flat index, depth)
    struct Frame { const std::vector<QsNode> *nodes; size_t next; int parent; int depth; };
    std::vector<Frame> stack{{&roots, 0, -1, 1}};
    while (!stack.empty()) {
        Frame &f = stack.back();
        if (f.next >= f.nodes->size()) {
            stack.pop_back();
            continue;
        }
        const QsNode &n = (*f.nodes)[f.next++];
        out.push_back({&n, f.parent, f.depth});
        if (!n.children.empty())
            stack.push_back({&n.children, 0, int(out.size()) - 1, f.depth + 1});
    }
    return out;
}

std::vector<QsNode> treeFromParents(std::vector<QsNode> items, const std::vector<int> &parents)
{
    // Children before parents (reverse pre-order), so every subtree is complete when it moves.
    std::vector<std::vector<int>> children(items.size());
    std::vector<int> roots;
    for (int i = 0; i < int(items.size()); ++i)
        (parents[size_t(i)] < 0 ? roots : children[size_t(parents[size_t(i)])]).push_back(i);
    for (int i = int(items.size()) - 1; i >= 0; --i)
        for (int c : children[size_t(i)])
            items[size_t(i)].children.push_back(std::move(items[size_t(c)]));
    std::vector<QsNode> out;
    for (int r : roots)
        out.push_back(std::move(items[size_t(r)]));
    return out;
}

void countKeptParagraph(const QsParagraph &p, std::vector<int> *kept, int *keptCount)
{
    const bool blank = countWords(p.text, 0) == 0 && countWords(p.speaker, 0) == 0; // no token list of a huge turn
    kept->push_back(blank ? -1 : (*keptCount)++);
}

bool countParagraphWords(const QsParagraph &p, qint64 *words)
{
    const qint64 left = qint64(DatasetLimits::maxWords) - *words;
    *words += countWords(p.speaker, left);
    *words += countWords(p.text, qint64(DatasetLimits::maxWords) - *words);
    return *words <= DatasetLimits::maxWords;
}

bool readAlignment(JsonValidator &jv, const QJsonArray &array, const QString &path, const std::vector<int> &kept,
                   const Document &doc, const std::vector<QsParagraph> &paragraphs, std::vector<QsEvidenceSpan> *spans)
{
    std::vector<int> indices;
    for (int i = 0; i < array.size(); ++i) {
        int v = 0;
        if (!jv.integer(array[i], jsonIndex(path, i), &v))
            return false;
        if (v < 0 || v >= int(kept.size()))
            return jv.fail(jsonIndex(path, i), QStringLiteral("paragraph %1 does not exist (%2 paragraphs)").arg(v).arg(kept.size()));
        if (kept[size_t(v)] >= 0)
            indices.push_back(kept[size_t(v)]);
    }
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    *spans = paragraphSpans(doc, paragraphs, indices);
    return true;
}

QString sectionLevelProblem(int level, int previous)
{
    if (level < 1 || level > DatasetLimits::maxQsDepth)
        return QStringLiteral("level %1 is outside 1..%2").arg(level).arg(DatasetLimits::maxQsDepth);
    if (previous == 0 && level > 1)
        return QStringLiteral("the first section must be at level 1, not %1").arg(level);
    if (level > previous + 1)
        return QStringLiteral("level %1 is more than one below the section before it (level %2)").arg(level).arg(previous);
    return QString();
}

} // namespace folio::formats
