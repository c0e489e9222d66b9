#include "document/structured/fieldrankers.h"

#include "document/structured/benchmarkscore.h"
#include "document/structured/identifiercandidates.h"
#include "document/structured/normalise.h"
#include "document/structured/pricecandidates.h"
#include "document/structured/textnodecandidates.h"

#include <algorithm>

namespace folio::structured {

const std::vector<std::string> &rankedFields()
{
    static const std::vector<std::string> fields{"price", "sku"};
    return fields;
}

bool isRankedField(const std::string &field)
{
    const auto &f = rankedFields();
    return std::find(f.begin(), f.end(), field) != f.end();
}

const std::vector<std::string> &candidateFeatureNames(const std::string &field)
{
    static const std::vector<std::string> none;
    if (field == "price")
        return priceFeatureNames();
    if (field == "sku")
        return identifierFeatureNames();
    return field.empty() ? none : textNodeFeatureNames();
}

std::vector<TextCandidate> findCandidates(const std::string &field, const Document &doc, const StructuredData &sd,
                                          const SiteTexts *site)
{
    if (field == "price")
        return findPriceCandidates(doc, sd);
    if (field == "sku")
        return findIdentifierCandidates(doc, sd);
    return field.empty() ? std::vector<TextCandidate>() : findTextNodeCandidates(doc, field, site);
}

namespace {

// Text fields compare as written on the page, up to case, runs of white space and the punctuation
// a selection often takes along at its ends.
QString textKey(const std::string &text)
{
    QString s = QString::fromStdString(text).simplified().toCaseFolded();
    static const QString edge = QStringLiteral(".,;:!?\"'()[]-");
    while (!s.isEmpty() && (edge.contains(s.front()) || s.front().isSpace()))
        s.remove(0, 1);
    while (!s.isEmpty() && (edge.contains(s.back()) || s.back().isSpace()))
        s.chop(1);
    return s;
}

} // namespace

bool candidateMatches(const std::string &field, const std::string &candidateValue, const std::string &goldValue)
{
    if (field == "price") {
        const auto a = canonicalDecimal(candidateValue), b = canonicalDecimal(goldValue);
        return a && b && *a == *b;
    }
    if (field == "sku")
        return candidateValue == goldValue;
    const QString a = textKey(candidateValue);
    return !a.isEmpty() && a == textKey(goldValue);
}

std::optional<std::string> rankedValue(const std::string &field, const std::string &text)
{
    if (field == "price") {
        const auto price = parsePrice(text);
        return price ? std::optional<std::string>(price->amount) : std::nullopt;
    }
    if (field == "sku")
        return normaliseIdentifier(text);
    const QString simplified = QString::fromStdString(text).simplified();
    return simplified.isEmpty() ? std::nullopt : std::optional<std::string>(simplified.toStdString());
}

RankerPage rankerPage(const std::string &field, const std::vector<TextCandidate> &candidates, const StructuredData &sd,
                      const std::vector<std::string> &gold, const std::string &group)
{
    const auto right = [&](const std::string &value) {
        return std::any_of(gold.begin(), gold.end(), [&](const std::string &g) { return candidateMatches(field, value, g); });
    };
    RankerPage page;
    page.features.reserve(candidates.size());
    page.gold.reserve(candidates.size());
    for (const TextCandidate &c : candidates) {
        page.features.push_back(c.features);
        page.gold.push_back(right(c.value) ? 1 : 0);
    }
    page.group = group;
    page.hasGold = !gold.empty();
    const ProductFields fromData = productFields(sd);
    const auto data = fromData.find(field);
    page.structured = data == fromData.end() ? -1 : right(data->second.value) ? 1 : 0;
    return page;
}

std::vector<int> wordsInRange(const Document &doc, int node, int start, int end)
{
    std::vector<int> out;
    if (node < 0 || node >= int(doc.nodes.size()))
        return out;
    const QString &text = doc.nodes[std::size_t(node)].text;
    int from = 0;
    for (int w = 0; w < int(doc.words.size()); ++w) {
        const Word &word = doc.words[std::size_t(w)];
        if (word.node != node)
            continue;
        const int at = text.indexOf(word.text, from);
        if (at < 0)
            break;
        from = at + int(word.text.size());
        if (at < end && from > start)
            out.push_back(w);
    }
    return out;
}

std::string rankerKey(const std::string &fieldName) { return QString::fromStdString(fieldName).toLower().toStdString(); }

std::string rankerFile(const std::string &dir, const std::string &field) { return dir + "/" + field + "-ranker.json"; }

} // namespace folio::structured
