#include "pipeline/documentprediction.h"

#include "inference/formtagger/linking.h"
#include "inference/formtagger/predictor.h"
#include "inference/models/wordlabels.h"
#include "pipeline/hfpagelabeller.h"
#include "pipeline/modelinputs/taggerpages.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QSet>

#include <algorithm>
#include <exception>

namespace folio::pipeline {

struct EncoderStates
{
    std::vector<inference::WordStates> pages; // one per DocumentPrediction::pages entry
};

int DocumentPrediction::words() const
{
    int n = 0;
    for (const PagePredictionInfo &p : pages)
        n += p.words;
    return n;
}

struct DocumentTagger::Impl
{
    QString dir;
    bool int8 = false;
    inference::Predictor predictor; // folio-formtagger checkpoints
    inference::LinkPredictor links; // their key -> value link head, when the folder has one
    HfPageLabeller hf;              // Hugging Face token classifiers (isLoaded() tells which)

    // One page's entities (indices into page.taggerPage.words) and word labels (one per page word,
    // "" for none); false + *why on failure. With `states` (folio-formtagger only), also the
    // encoder's word states of the same pass.
    bool predictPage(const DocumentTaggerPage &page, const Document &document, bool viterbi,
                     std::vector<inference::PredictedEntity> *entities, std::vector<std::string> *labels,
                     std::string *why, inference::WordStates *states = nullptr, QStringList *warnings = nullptr) const
    {
        if (!hf.isLoaded()) {
            inference::PagePrediction prediction;
            if (!predictor.predict(page.taggerPage, &prediction, why, viterbi, nullptr, nullptr, states))
                return false;
            *entities = std::move(prediction.entities);
            *labels = std::move(prediction.tags);
            return true;
        }
        const inference::WordLabelling labelling = hf.labelPage(page, document);
        if (!labelling.ok) {
            *why = labelling.error;
            return false;
        }
        for (const std::string &w : labelling.warnings)
            if (warnings && !warnings->contains(QString::fromStdString(w)))
                warnings->push_back(QString::fromStdString(w));
        labels->clear();
        std::vector<float> confidences;
        for (const inference::WordLabel &w : labelling.words) {
            labels->push_back(w.labelId < 0 ? std::string() : w.label);
            confidences.push_back(w.confidence);
        }
        *entities = inference::entitiesFromWordLabels(*labels, confidences);
        return true;
    }
};

DocumentTagger::DocumentTagger() = default;
DocumentTagger::~DocumentTagger() = default;

bool DocumentTagger::load(const QString &checkpointDir, QString *error, bool int8)
{
    const QString absolute = QDir::cleanPath(QFileInfo(checkpointDir).absoluteFilePath());
    if (m_impl && m_impl->dir == absolute && m_impl->int8 == int8)
        return true;
    auto impl = std::make_unique<Impl>();
    impl->dir = absolute;
    impl->int8 = int8;
    std::string why;
    bool ok = false;
    try {
        const QString modelType = checkpointModelType(checkpointDir);
        if (isHfTokenClassifierType(modelType)) {
            QString e;
            ok = impl->hf.load(checkpointDir, &e);
            why = e.toStdString();
            if (ok && int8 && !impl->hf.quantizeDynamicInt8(&e)) {
                ok = false;
                why = checkpointDir.toStdString() + ": " + e.toStdString();
            }
        } else if (!modelType.isEmpty() && modelType != QLatin1String("folio-formtagger") &&
                   modelType != QLatin1String(inference::kTaggerEnsembleType)) {
            why = QDir(checkpointDir).filePath(QStringLiteral("config.json")).toStdString() + ": model_type \"" +
                  modelType.toStdString() + "\" is not a checkpoint Folio can label with (folio-formtagger, an ensemble of them, layoutlmv3, lilt, layoutlmv2)";
        } else {
            ok = impl->predictor.load(checkpointDir.toStdString(), &why);
            if (ok && int8 && !impl->predictor.quantizeDynamicInt8(&why))
                ok = false;
            const QDir dir(checkpointDir);
            if (ok && (dir.exists(QStringLiteral("link_head.json")) || dir.exists(QStringLiteral("link_head.safetensors"))))
                ok = impl->links.load(checkpointDir.toStdString(), &why); // a broken head refuses the whole checkpoint
        }
    } catch (const std::exception &e) {
        why = e.what();
    }
    if (!ok) {
        if (error)
            *error = why.empty() ? checkpointDir + QStringLiteral(": cannot load the checkpoint") : QString::fromStdString(why);
        return false;
    }
    m_impl = std::move(impl);
    return true;
}

bool DocumentTagger::usesLayoutOrder() const
{
    return m_impl && !m_impl->hf.isLoaded() && m_impl->predictor.wordOrder() == "layout";
}

bool DocumentTagger::isInt8() const
{
    return m_impl && m_impl->int8;
}

bool DocumentTagger::isLoaded() const
{
    return m_impl != nullptr;
}

QString DocumentTagger::checkpointDir() const
{
    return m_impl ? m_impl->dir : QString();
}

QString DocumentTagger::checkpointName() const
{
    return m_impl ? QDir(m_impl->dir).dirName() : QString();
}

QStringList DocumentTagger::labels() const
{
    QStringList out;
    if (m_impl)
        for (const std::string &l : m_impl->hf.isLoaded() ? m_impl->hf.classifier().labels() : m_impl->predictor.labels())
            out << QString::fromStdString(l);
    return out;
}

DocumentPrediction DocumentTagger::predict(const Document &document, const PredictOptions &options) const
{
    DocumentPrediction out;
    const QString name = document.sourcePath.isEmpty() ? QStringLiteral("document") : document.sourcePath;
    if (!m_impl) {
        out.error = name + QStringLiteral(": no checkpoint loaded");
        return out;
    }
    try {
        // A Hugging Face folder is fed every word, as its tokenizer is (a tab is a token there).
        const std::vector<DocumentTaggerPage> pages = taggerPagesOfDocument(
            document, nullptr, options.layoutOrder || usesLayoutOrder(), m_impl->hf.isLoaded());
        if (pages.empty()) {
            out.error = name + QStringLiteral(": empty document (no words to label)");
            return out;
        }
        // The link head reads the same encoder states as the tagger: keep them for suggestLinks().
        std::shared_ptr<EncoderStates> states;
        if (options.links && hasLinkHead())
            states = std::make_shared<EncoderStates>();
        for (std::size_t i = 0; i < document.words.size(); ++i)
            out.wordLabels << QString();
        for (std::size_t i = 0; i < pages.size(); ++i) {
            if (options.cancel && options.cancel->load()) {
                out.cancelled = true;
                out.error = name + QStringLiteral(": cancelled");
                return out;
            }
            const DocumentTaggerPage &page = pages[i];
            std::vector<inference::PredictedEntity> entities;
            std::vector<std::string> labels;
            std::string why;
            inference::WordStates *pageStates = states ? &states->pages.emplace_back() : nullptr;
            if (!m_impl->predictPage(page, document, options.viterbi, &entities, &labels, &why, pageStates, &out.warnings)) {
                out.error = QStringLiteral("%1, page %2: %3").arg(name).arg(page.page + 1).arg(QString::fromStdString(why));
                return out;
            }
            for (std::size_t w = 0; w < labels.size() && w < page.wordIndex.size(); ++w)
                out.wordLabels[page.wordIndex[w]] = QString::fromStdString(labels[w]);
            PagePredictionInfo info{page.page, int(page.wordIndex.size()), 0};
            for (const inference::PredictedEntity &e : entities) {
                PredictedSpan span{page.page, QString::fromStdString(e.label), e.confidence, {}};
                for (int w = std::max(0, e.firstWord); w <= e.lastWord && w < int(page.wordIndex.size()); ++w)
                    span.words.push_back(page.wordIndex[std::size_t(w)]);
                if (span.words.empty())
                    continue;
                out.entities.push_back(std::move(span));
                ++info.entities;
            }
            out.pages.push_back(info);
            if (options.progress)
                options.progress(int(i) + 1, int(pages.size()));
        }
        out.encoderStates = std::move(states);
    } catch (const std::exception &e) {
        out.error = name + QStringLiteral(": ") + QString::fromUtf8(e.what());
        return out;
    }
    out.ok = true;
    return out;
}

bool DocumentTagger::hasLinkHead() const
{
    return m_impl && !m_impl->hf.isLoaded() && m_impl->links.hasHead();
}

bool DocumentTagger::suggestLinks(const Document &document, const Annotations &annotations, std::vector<Link> *links,
                                  QString *error, const PredictOptions &options, const DocumentPrediction *tagged) const
{
    links->clear();
    if (!hasLinkHead())
        return true;
    const QString name = document.sourcePath.isEmpty() ? QStringLiteral("document") : document.sourcePath;
    // What the user decided: entities that receive a user's link, pairs the user rejected.
    QSet<QString> answered;
    QSet<QPair<QString, QString>> decided;
    for (const Link &l : annotations.links) {
        if (l.state == ReviewState::Suggested && l.source.kind != AnnotationSource::User)
            continue;
        decided.insert({l.from, l.to});
        if (l.state != ReviewState::Rejected)
            answered.insert(l.to);
    }
    Annotations ids = annotations; // fresh link ids avoid every id there and every link added here
    try {
        const std::vector<DocumentTaggerPage> pages =
            taggerPagesOfDocument(document, nullptr, options.layoutOrder || usesLayoutOrder());
        QHash<QString, QPair<int, int>> placeOfWord; // word id -> (page, position on it)
        for (int p = 0; p < int(pages.size()); ++p)
            for (int k = 0; k < int(pages[size_t(p)].wordIndex.size()); ++k)
                placeOfWord.insert(document.words[size_t(pages[size_t(p)].wordIndex[size_t(k)])].id, {p, k});
        std::vector<std::vector<const Entity *>> entitiesOfPage(pages.size());
        std::vector<std::vector<inference::LinkEntity>> linkEntitiesOfPage(pages.size());
        for (const Entity &e : annotations.entities) {
            if (e.state == ReviewState::Rejected || e.wordIds.isEmpty() || !placeOfWord.contains(e.wordIds.first()))
                continue;
            const int page = placeOfWord.value(e.wordIds.first()).first;
            inference::LinkEntity le{e.label.toStdString(), {}};
            for (const QString &w : e.wordIds) {
                const auto it = placeOfWord.constFind(w);
                if (it != placeOfWord.constEnd() && it->first == page)
                    le.words.push_back(it->second);
            }
            entitiesOfPage[size_t(page)].push_back(&e);
            linkEntitiesOfPage[size_t(page)].push_back(std::move(le));
        }
        for (size_t p = 0; p < pages.size(); ++p) {
            if (options.cancel && options.cancel->load()) {
                if (error)
                    *error = name + QStringLiteral(": cancelled");
                return false;
            }
            std::vector<inference::PredictedLink> predicted;
            std::string why;
            const inference::TaggerPage &page = pages[p].taggerPage;
            const inference::WordStates *kept = tagged && tagged->encoderStates && p < tagged->encoderStates->pages.size()
                                                    ? &tagged->encoderStates->pages[p]
                                                    : nullptr;
            const bool fits = kept && kept->words == int(page.words.size());
            const bool ok = fits ? m_impl->links.predict(page, *kept, linkEntitiesOfPage[p], &predicted, &why)
                                 : m_impl->links.predict(page, linkEntitiesOfPage[p], &predicted, &why);
            if (!ok) {
                if (error)
                    *error = QStringLiteral("%1, page %2: %3").arg(name).arg(pages[p].page + 1).arg(QString::fromStdString(why));
                return false;
            }
            for (const inference::PredictedLink &pl : predicted) {
                Link l;
                l.from = entitiesOfPage[p][size_t(pl.from)]->id;
                l.to = entitiesOfPage[p][size_t(pl.to)]->id;
                if (answered.contains(l.to) || decided.contains({l.from, l.to}) || decided.contains({l.to, l.from}))
                    continue;
                l.id = ids.freshId(QStringLiteral("l"));
                l.source = AnnotationSource{AnnotationSource::Model, checkpointName()};
                l.confidence = pl.confidence;
                l.state = ReviewState::Suggested;
                ids.links.push_back(l);
                links->push_back(l);
            }
        }
    } catch (const std::exception &e) {
        if (error)
            *error = name + QStringLiteral(": ") + QString::fromUtf8(e.what());
        return false;
    }
    std::stable_sort(links->begin(), links->end(), [](const Link &a, const Link &b) { return a.confidence > b.confidence; });
    return true;
}

bool predictSuggestions(const DocumentTagger &tagger, const Document &document, const Annotations &current,
                        Annotations *suggestions, QString *error, const PredictOptions &options, DocumentPrediction *prediction)
{
    const DocumentPrediction p = tagger.predict(document, options);
    if (prediction)
        *prediction = p;
    if (!p.ok) {
        if (error)
            *error = p.error;
        return false;
    }
    return suggestionsFromPrediction(tagger, p, document, current, suggestions, error, options);
}

bool suggestionsFromPrediction(const DocumentTagger &tagger, const DocumentPrediction &prediction, const Document &document,
                               const Annotations &current, Annotations *suggestions, QString *error,
                               const PredictOptions &options)
{
    Annotations predicted;
    appendSuggestions(prediction, document, tagger.checkpointName(), &predicted);
    Annotations merged = current;
    mergeModelAnnotations(merged, predicted);
    *suggestions = Annotations();
    for (const Entity &e : merged.entities)
        if (e.state == ReviewState::Suggested && e.source.kind == AnnotationSource::Model)
            suggestions->entities.push_back(e);
    if (options.links && tagger.hasLinkHead())
        return tagger.suggestLinks(document, merged, &suggestions->links, error, options, &prediction);
    return true;
}

void appendSuggestions(const DocumentPrediction &prediction, const Document &document, const QString &checkpointName,
                       Annotations *out)
{
    for (const PredictedSpan &span : prediction.entities) {
        Entity entity;
        entity.label = span.label;
        for (int w : span.words)
            if (w >= 0 && w < int(document.words.size()))
                entity.wordIds << document.words[std::size_t(w)].id;
        if (entity.wordIds.isEmpty())
            continue;
        entity.id = out->freshId(QStringLiteral("m"));
        entity.source = AnnotationSource{AnnotationSource::Model, checkpointName};
        entity.confidence = span.confidence;
        entity.state = ReviewState::Suggested;
        out->entities.push_back(entity);
    }
}

NormBox spanNormBox(const PredictedSpan &span, const Document &document)
{
    NormBox box;
    bool first = true;
    for (int w : span.words) {
        if (w < 0 || w >= int(document.words.size()))
            continue;
        const NormBox &b = document.words[std::size_t(w)].norm;
        if (first) {
            box = b;
            first = false;
            continue;
        }
        box.x0 = std::min(box.x0, b.x0);
        box.y0 = std::min(box.y0, b.y0);
        box.x1 = std::max(box.x1, b.x1);
        box.y1 = std::max(box.y1, b.y1);
    }
    return box;
}

} // namespace folio::pipeline
