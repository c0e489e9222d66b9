// SWDE page-level scoring, span decoding and ground-truth reading (torch-free).
#include "inference/webformer/webformereval.h"

#include "inference/errors.h"
#include "common/regularfile.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <numeric>

namespace folio::inference {

namespace {

void appendUtf8(std::string &out, unsigned cp)
{
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x110000) {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

std::string decodeEntities(const std::string &s)
{
    static const std::pair<const char *, unsigned> named[] = {
        {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}, {"nbsp", 0xA0}};
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '&') {
            out += s[i];
            continue;
        }
        const std::size_t semi = s.find(';', i + 1);
        if (semi == std::string::npos || semi - i > 10) {
            out += s[i];
            continue;
        }
        const std::string name = s.substr(i + 1, semi - i - 1);
        bool done = false;
        if (!name.empty() && name[0] == '#') {
            try {
                const bool hex = name.size() > 1 && (name[1] == 'x' || name[1] == 'X');
                const unsigned long cp = std::stoul(name.substr(hex ? 2 : 1), nullptr, hex ? 16 : 10);
                appendUtf8(out, unsigned(cp));
                done = true;
            } catch (const std::exception &) {
            }
        } else {
            for (const auto &[n, cp] : named)
                if (name == n) {
                    appendUtf8(out, cp);
                    done = true;
                }
        }
        if (done)
            i = semi;
        else
            out += s[i];
    }
    return out;
}

bool isEdgePunct(char c)
{
    static const std::string p = ".,;:!?\"'()[]-";
    return p.find(c) != std::string::npos;
}

} // namespace

std::string normaliseFieldValue(const std::string &value)
{
    const std::string s = decodeEntities(value);
    std::string out;
    bool pendingSpace = false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const bool nbsp = c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xA0;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || nbsp) {
            pendingSpace = true;
            if (nbsp)
                ++i;
            continue;
        }
        if (pendingSpace && !out.empty())
            out += ' ';
        pendingSpace = false;
        out += (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : char(c);
    }
    std::size_t b = 0, e = out.size();
    while (b < e && (isEdgePunct(out[b]) || out[b] == ' '))
        ++b;
    while (e > b && (isEdgePunct(out[e - 1]) || out[e - 1] == ' '))
        --e;
    return out.substr(b, e - b);
}

PageLevelScore scorePageLevel(const std::map<std::string, std::map<std::string, std::string>> &predicted,
                              const PageFieldValues &gold)
{
    std::map<std::string, FieldScore> byField;
    for (const auto &[page, fields] : gold) {
        const auto pit = predicted.find(page);
        for (const auto &[field, values] : fields) {
            FieldScore &fs = byField[field];
            fs.field = field;
            ++fs.pages;
            std::vector<std::string> goldNorm;
            for (const auto &v : values) {
                const std::string n = normaliseFieldValue(v);
                if (!n.empty())
                    goldNorm.push_back(n);
            }
            std::string pred;
            if (pit != predicted.end()) {
                const auto fit = pit->second.find(field);
                if (fit != pit->second.end())
                    pred = normaliseFieldValue(fit->second);
            }
            const bool correct = !pred.empty() && std::find(goldNorm.begin(), goldNorm.end(), pred) != goldNorm.end();
            if (correct)
                ++fs.tp;
            if (!pred.empty() && !correct)
                ++fs.fp;
            if (!goldNorm.empty() && !correct)
                ++fs.fn;
        }
    }
    PageLevelScore score;
    for (auto &[name, fs] : byField) {
        fs.precision = fs.tp + fs.fp > 0 ? double(fs.tp) / (fs.tp + fs.fp) : 0.0;
        fs.recall = fs.tp + fs.fn > 0 ? double(fs.tp) / (fs.tp + fs.fn) : 0.0;
        fs.f1 = fs.precision + fs.recall > 0 ? 2 * fs.precision * fs.recall / (fs.precision + fs.recall) : 0.0;
        score.precision += fs.precision;
        score.recall += fs.recall;
        score.f1 += fs.f1;
        score.fields.push_back(fs);
    }
    if (!score.fields.empty()) {
        const double n = double(score.fields.size());
        score.precision /= n;
        score.recall /= n;
        score.f1 /= n;
    }
    return score;
}

DecodedSpan decodeBestSpan(const std::vector<float> &startLogProb,
                           const std::function<std::vector<float>(int)> &endLogProb, int maxLen, int topK)
{
    DecodedSpan best;
    if (startLogProb.empty())
        return best;
    const int T = int(startLogProb.size()) - 1;
    best.logProb = startLogProb[0]; // null answer
    std::vector<int> order(T);
    std::iota(order.begin(), order.end(), 0);
    const int k = std::min(T, std::max(1, topK));
    std::partial_sort(order.begin(), order.begin() + k, order.end(),
                      [&](int a, int b) { return startLogProb[a + 1] > startLogProb[b + 1]; });
    double bestSpan = -std::numeric_limits<double>::infinity();
    int bs = -1, be = -1;
    for (int i = 0; i < k; ++i) {
        const int s = order[i];
        const std::vector<float> ends = endLogProb(s);
        const int last = std::min<int>(std::min<int>(T, int(ends.size())) - 1, s + std::max(1, maxLen) - 1);
        for (int e = s; e <= last; ++e) {
            const double lp = double(startLogProb[s + 1]) + double(ends[e]);
            if (lp > bestSpan) {
                bestSpan = lp;
                bs = s;
                be = e;
            }
        }
    }
    if (bs >= 0 && bestSpan > best.logProb) {
        best.found = true;
        best.start = bs;
        best.end = be;
        best.logProb = bestSpan;
    }
    return best;
}

std::map<std::string, std::vector<std::string>> readSwdeGroundTruth(const std::string &path, std::string *field)
{
    std::string notAFile; // a FIFO, a device: refused before the open (issue 51)
    if (regularFileSize(path, FileLimits::vocabulary, "the ground-truth file", &notAFile) < 0)
        throw InferenceError(notAFile);
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InferenceError(path + ": cannot open the ground-truth file");
    std::map<std::string, std::vector<std::string>> out;
    std::string line;
    int lineNo = 0;
    auto split = [](const std::string &l) {
        std::vector<std::string> parts;
        std::size_t b = 0;
        while (true) {
            const std::size_t t = l.find('\t', b);
            parts.push_back(l.substr(b, t == std::string::npos ? std::string::npos : t - b));
            if (t == std::string::npos)
                break;
            b = t + 1;
        }
        return parts;
    };
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (lineNo == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0)
            line = line.substr(3);
        if (line.empty())
            continue;
        const std::vector<std::string> parts = split(line);
        if (lineNo == 1) {
            if (parts.size() != 3)
                throw InferenceError(path + ": line 1 should be vertical<TAB>site<TAB>attribute");
            if (field)
                *field = parts[2];
            continue;
        }
        if (lineNo == 2)
            continue; // counts
        if (parts.size() < 2)
            throw InferenceError(path + ": line " + std::to_string(lineNo) + " has no value count");
        int count = 0;
        try {
            count = std::stoi(parts[1]);
        } catch (const std::exception &) {
            throw InferenceError(path + ": line " + std::to_string(lineNo) + ": bad value count '" + parts[1] + "'");
        }
        std::vector<std::string> values;
        for (std::size_t i = 2; i < parts.size() && int(values.size()) < std::max(count, 0); ++i)
            if (parts[i] != "<NULL>")
                values.push_back(parts[i]);
        out[parts[0]] = values;
    }
    if (lineNo < 2)
        throw InferenceError(path + ": not an SWDE ground-truth file (fewer than 2 lines)");
    return out;
}

} // namespace folio::inference
