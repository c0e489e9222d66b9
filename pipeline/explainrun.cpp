#include "pipeline/explainrun.h"

#include "attention/attributions.h"

namespace folio::pipeline {

namespace inf = folio::inference;

WordLabels taggerWordLabels(const inf::TaggerExplainer &explainer, const Document &document,
                            const std::function<bool()> &cancelled)
{
    WordLabels r;
    if (!explainer.isLoaded()) {
        r.error = QStringLiteral("no layout tagger loaded");
        return r;
    }
    r.pages = taggerPagesOfDocument(document, nullptr, explainer.wordOrder() == "layout");
    for (std::size_t i = 0; i < document.words.size(); ++i)
        r.labels << QString();
    if (r.pages.empty()) {
        r.error = QStringLiteral("the document has no words the tagger can read");
        return r;
    }
    for (const DocumentTaggerPage &p : r.pages) {
        if (cancelled && cancelled()) {
            r.error = QStringLiteral("cancelled");
            return r;
        }
        std::vector<std::string> tags;
        std::string why;
        if (!explainer.predict(p.taggerPage, &tags, &why)) {
            r.error = QStringLiteral("page %1: %2").arg(p.page + 1).arg(QString::fromStdString(why));
            return r;
        }
        for (std::size_t i = 0; i < tags.size() && i < p.wordIndex.size(); ++i)
            r.labels[p.wordIndex[i]] = QString::fromStdString(tags[i]);
    }
    r.ok = true;
    return r;
}

std::vector<LabelChange> labelChanges(const Document &original, const Document &edited, const QStringList &before,
                                      const QStringList &after)
{
    std::vector<LabelChange> out;
    const int n = int(std::min({original.words.size(), edited.words.size(), std::size_t(before.size()),
                                std::size_t(after.size())}));
    for (int i = 0; i < n; ++i) {
        const bool deleted = !original.words[std::size_t(i)].text.trimmed().isEmpty()
                             && edited.words[std::size_t(i)].text.trimmed().isEmpty();
        if (!deleted && before[i] == after[i])
            continue;
        out.push_back(LabelChange{i, original.words[std::size_t(i)].text, before[i], deleted ? QString() : after[i], deleted});
    }
    return out;
}

WordAttributions explainWordAttributions(inf::TaggerExplainer &explainer, const Document &document,
                                         const WordLabels &labels, int word, const inf::TaggerExplainOptions &options)
{
    WordAttributions r;
    r.word = word;
    const int n = int(document.words.size());
    if (word < 0 || word >= n) {
        r.error = QStringLiteral("word %1: the document has %2 words").arg(word).arg(n);
        return r;
    }
    r.text = document.words[std::size_t(word)].text;
    const DocumentTaggerPage *page = nullptr;
    int index = -1;
    for (const DocumentTaggerPage &p : labels.pages)
        for (std::size_t i = 0; i < p.wordIndex.size() && !page; ++i)
            if (p.wordIndex[i] == word) {
                page = &p;
                index = int(i);
            }
    if (!page) {
        r.error = QStringLiteral("word %1 is blank: the tagger does not see it").arg(word);
        return r;
    }
    inf::TaggerExplanation ex;
    std::string why;
    if (!explainer.explain(page->taggerPage, index, std::string(), options, &ex, &why)) {
        r.error = QString::fromStdString(why);
        return r;
    }
    const std::vector<double> rollout = attentionRolloutRow(ex.attentions, ex.layers, ex.heads, ex.wordCount,
                                                            ex.target - ex.firstWord);
    r.label = QString::fromStdString(ex.label);
    r.logit = ex.logit;
    r.baselineLogit = ex.baselineLogit;
    r.gradients = !ex.gradInput.empty();
    r.igSteps = ex.integratedGradients.empty() ? 0 : ex.igSteps;
    r.igPower = options.igPower;
    r.layers = ex.layers;
    r.heads = ex.heads;
    r.windowWords = ex.wordCount;
    r.forwardSeconds = ex.forwardSeconds;
    r.gradientSeconds = ex.gradientSeconds;
    r.igSeconds = ex.igSeconds;
    const auto at = [](const std::vector<float> &v, int k) { return v.empty() ? 0.0 : double(v[std::size_t(k)]); };
    for (int k = 0; k < ex.wordCount; ++k) {
        const int doc = page->wordIndex[std::size_t(ex.firstWord + k)];
        AttributionRow row;
        row.word = doc;
        row.text = document.words[std::size_t(doc)].text;
        row.label = doc < labels.labels.size() ? labels.labels[doc] : QString();
        row.box = document.words[std::size_t(doc)].box;
        row.rollout = k < int(rollout.size()) ? rollout[std::size_t(k)] : 0.0;
        row.gradInput = at(ex.gradInput, k);
        row.gradInputText = at(ex.gradInputText, k);
        row.gradInputPosition = at(ex.gradInputPosition, k);
        row.gradInputBox = at(ex.gradInputBox, k);
        row.ig = at(ex.integratedGradients, k);
        row.igText = at(ex.igText, k);
        row.igPosition = at(ex.igPosition, k);
        row.igBox = at(ex.igBox, k);
        r.igSum += row.ig;
        r.rows.push_back(row);
    }
    r.ok = true;
    return r;
}

} // namespace folio::pipeline
