#include "pipeline/attentionrun.h"

#include "document/document.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/formtagger/predictor.h"
#include "inference/models/hfmarkuplm.h"
#include "inference/models/modelrunner.h"
#include "inference/tokenizers/markuplmtokenizer.h"
#include "inference/tokenizers/tokenizer.h"
#include "pipeline/hfpagelabeller.h"
#include "pipeline/markuplmfields.h"
#include "pipeline/modelinputs/taggerpages.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <exception>
#include <map>

namespace folio {

namespace inf = folio::inference;

namespace {

// The model's tokens per window, from config.json (RoBERTa-style position ids start after the
// padding id, so LayoutLMv3 loses pad_token_id + 1 positions).
int modelWindowOf(const inf::ModelConfig &config)
{
    const long long positions = config.getInt("max_position_embeddings", 512);
    if (config.modelType() == "layoutlmv3")
        return int(std::max(1LL, positions - config.getInt("pad_token_id", 1) - 1));
    return int(positions);
}

QString labelName(const inf::ModelConfig &config, int id)
{
    const auto &j = config.json();
    const std::string key = std::to_string(id);
    if (j.contains("id2label") && j["id2label"].is_object() && j["id2label"].contains(key) && j["id2label"][key].is_string())
        return QString::fromStdString(j["id2label"][key].get<std::string>());
    return QStringLiteral("LABEL_%1").arg(id);
}

// argmax over the last dimension of logits [B, L, C] for one batch row.
std::vector<int> argmaxRow(const inf::Tensor &logits, int row)
{
    std::vector<int> out;
    if (logits.dtype != inf::DType::F32 || logits.shape.size() != 3 || row < 0 || row >= logits.shape[0])
        return out;
    const auto l = logits.shape[1], c = logits.shape[2];
    const float *d = logits.data<float>() + std::size_t(row) * l * c;
    for (std::int64_t t = 0; t < l; ++t) {
        const float *r = d + t * c;
        out.push_back(int(std::max_element(r, r + c) - r));
    }
    return out;
}

// Ingests every "attentions.N" / "bias.*" output into `trace`.
bool ingestOutputs(const inf::TensorMap &outputs, const std::vector<int> &rows, AttentionTrace *trace, QString *error)
{
    for (const auto &[name, t] : outputs) {
        const QString qname = QString::fromStdString(name);
        if (!qname.startsWith(QLatin1String("attentions.")) && !qname.startsWith(QLatin1String("bias.")))
            continue;
        if (t.dtype != inf::DType::F32 || !t.isValid()) {
            *error = QStringLiteral("trace output '%1' is not float32").arg(qname);
            return false;
        }
        if (!trace->ingest(qname, t.shape, t.data<float>(), rows, error))
            return false;
    }
    return true;
}

// A window longer than its text tokens (LayoutLMv2's visual tokens follow the text): the extra
// tokens map to no word and are named "visual N".
void nameExtraTokens(AttentionTrace *part, int textTokens)
{
    const int length = part->windows.empty() ? textTokens : part->windows.front().length;
    for (int t = textTokens; t < length; ++t) {
        part->tokenWord.push_back(-1);
        part->tokenText << QStringLiteral("visual %1").arg(t - textTokens);
    }
}

struct Loaded
{
    inf::ModelRunner runner;
    inf::ModelConfig config;
};

bool loadCheckpoint(const QString &dir, Loaded *loaded, QString *error)
{
    std::string why;
    try {
        loaded->config = inf::ModelConfig::fromDirectory(dir.toStdString());
    } catch (const std::exception &e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
    if (!loaded->runner.load(dir.toStdString(), &why)) {
        *error = QString::fromStdString(why);
        return false;
    }
    return true;
}

void stampIdentity(AttentionTrace *t, const QString &checkpointDir, const Loaded &loaded, std::uint32_t disabled)
{
    t->modelType = QString::fromStdString(loaded.runner.modelType());
    t->checkpoint = QFileInfo(checkpointDir).absoluteFilePath();
    t->modelWindow = modelWindowOf(loaded.config);
    t->disabledBiases = disabled;
}

const char *const kFormTagger = "folio-formtagger";

// Word-page runs (folio-formtagger and Hugging Face token classifiers): the document's word pages,
// trace-on options and an empty label per Document word; false + *error when every word is blank.
// `keepBlankWords`: white-space-only words stay on the pages (Hugging Face folders, as in predict).
bool startWordPageRun(const Document &document, std::uint32_t disabledBiases, std::vector<pipeline::DocumentTaggerPage> *pages,
                      inf::RunOptions *options, QStringList *labels, QString *error, bool layoutOrder = false,
                      bool keepBlankWords = false)
{
    *pages = pipeline::taggerPagesOfDocument(document, nullptr, layoutOrder, keepBlankWords);
    if (pages->empty()) {
        *error = QStringLiteral("%1: the document has only blank words").arg(document.sourcePath);
        return false;
    }
    options->trace = true;
    options->disabledBiases = disabledBiases;
    for (std::size_t i = 0; i < document.words.size(); ++i)
        *labels << QString();
    return true;
}

// Stamps the trace's identity, finishes it and sets r->ok (false + r->error when it does not finish).
void finishWordPageRun(const QString &modelType, const QString &checkpointDir, int modelWindow, std::uint32_t disabledBiases,
                       const Document &document, const QStringList &labels, AttentionRunResult *r)
{
    r->trace.modelType = modelType;
    r->trace.checkpoint = QFileInfo(checkpointDir).absoluteFilePath();
    r->trace.modelWindow = modelWindow;
    r->trace.disabledBiases = disabledBiases;
    r->trace.documentId = attentionDocumentId(document);
    if (!r->trace.finish(&r->error))
        return;
    r->labels = labels;
    r->ok = true;
}

// "folio-formtagger" (the word-level layout tagger, inference/trainer.h): units are words, so the
// document is cut into word pages (one per Document page, blank words skipped, as the predict
// command does), each predicted with the trace on; every model window becomes a trace window
// whose tokens are its words (token -> Document word index). Labels: the Viterbi-decoded tags.
AttentionRunResult runFormTaggerOnDocument(const QString &checkpointDir, const inf::ModelConfig &config,
                                           const Document &document, std::uint32_t disabledBiases)
{
    AttentionRunResult r;
    inf::Predictor predictor;
    std::string why;
    if (!predictor.load(checkpointDir.toStdString(), &why)) {
        r.error = QString::fromStdString(why);
        return r;
    }
    std::vector<pipeline::DocumentTaggerPage> pages;
    inf::RunOptions options;
    QStringList labels;
    if (!startWordPageRun(document, disabledBiases, &pages, &options, &labels, &r.error, predictor.wordOrder() == "layout"))
        return r;
    for (const pipeline::DocumentTaggerPage &p : pages) {
        inf::PagePrediction prediction;
        std::vector<inf::PredictionTraceWindow> windows;
        if (!predictor.predict(p.taggerPage, &prediction, &why, true, &options, &windows)) {
            r.error = QStringLiteral("%1: %2").arg(checkpointDir, QString::fromStdString(why));
            return r;
        }
        for (std::size_t i = 0; i < prediction.tags.size() && i < p.wordIndex.size(); ++i)
            labels[p.wordIndex[i]] = QString::fromStdString(prediction.tags[i]);
        for (const inf::PredictionTraceWindow &w : windows) {
            AttentionTrace part;
            if (!ingestOutputs(w.tensors, {}, &part, &r.error))
                return r;
            for (int k = w.firstWord; k < w.firstWord + w.wordCount && k < int(p.wordIndex.size()); ++k) {
                part.tokenWord.push_back(p.wordIndex[std::size_t(k)]);
                part.tokenText << QString::fromStdString(p.taggerPage.words[std::size_t(k)]);
            }
            if (!r.trace.appendWindows(part, &r.error))
                return r;
        }
    }
    finishWordPageRun(QString::fromLatin1(kFormTagger), checkpointDir, int(config.getInt("max_words", 512)), disabledBiases,
                      document, labels, &r);
    return r;
}

// A Hugging Face token-classification folder (layoutlmv3 with its own vocab.json + merges.txt, as
// DocumentTagger runs it): one word page per Document page, the page's sliding windows run through
// HfTokenClassifier with the trace on; each window is a trace window whose tokens map to Document
// words (specials and padding to -1). Labels: the word's label (first sub-token's argmax).
AttentionRunResult runHfOnDocument(const QString &checkpointDir, const Document &document, std::uint32_t disabledBiases)
{
    AttentionRunResult r;
    pipeline::HfPageLabeller labeller;
    if (!labeller.load(checkpointDir, &r.error))
        return r;
    std::vector<pipeline::DocumentTaggerPage> pages;
    inf::RunOptions options;
    QStringList labels;
    if (!startWordPageRun(document, disabledBiases, &pages, &options, &labels, &r.error, false, true))
        return r;
    const inf::HfTokenClassifier &classifier = labeller.classifier();
    int extraTokens = 0; // visual tokens after the text (LayoutLMv2): the window holds them too
    for (const pipeline::DocumentTaggerPage &p : pages) {
        const inf::WordLabelling l = labeller.labelPage(p, document, options);
        if (!l.ok) {
            r.error = QStringLiteral("%1, page %2: %3").arg(checkpointDir).arg(p.page + 1).arg(QString::fromStdString(l.error));
            return r;
        }
        for (std::size_t i = 0; i < l.words.size() && i < p.wordIndex.size(); ++i)
            if (l.words[i].labelId >= 0)
                labels[p.wordIndex[i]] = QString::fromStdString(l.words[i].label);
        for (std::size_t w = 0; w < l.windows.size() && w < l.windowWordIds.size(); ++w) {
            AttentionTrace part;
            if (!ingestOutputs(l.windows[w], {0}, &part, &r.error))
                return r;
            const inf::Tensor &ids = l.windows[w].at("input_ids");
            for (std::size_t t = 0; t < l.windowWordIds[w].size(); ++t) {
                const int word = l.windowWordIds[w][t];
                part.tokenWord.push_back(word >= 0 && word < int(p.wordIndex.size()) ? p.wordIndex[std::size_t(word)] : -1);
                part.tokenText << QString::fromStdString(classifier.tokenPiece(ids.data<std::int64_t>()[t]));
            }
            nameExtraTokens(&part, int(l.windowWordIds[w].size()));
            if (!part.windows.empty())
                extraTokens = std::max(extraTokens, part.windows.front().length - int(l.windowWordIds[w].size()));
            if (!r.trace.appendWindows(part, &r.error))
                return r;
        }
    }
    finishWordPageRun(QString::fromStdString(classifier.modelType()), checkpointDir, classifier.maxTokens() + extraTokens, disabledBiases,
                      document, labels, &r);
    return r;
}

// A Hugging Face MarkupLM token-classification folder on a web page: the page's nodes and XPaths as
// the reference extracts them (pipeline/markuplmfields.h, as Extract Fields runs it), HfMarkupLM's
// windows run with the trace on. A node's tokens spread over its Document words in order (so node
// and word views both show it); specials and nodes without Document words map to no word. Labels:
// each node's label on its words. MarkupLM adds no bias term. A QA folder is refused (no windows
// of its own to show: its answers are in Extract Fields).
AttentionRunResult runMarkupLMOnDocument(const QString &checkpointDir, const Document &document, std::uint32_t disabledBiases)
{
    AttentionRunResult r;
    inf::HfMarkupLM model;
    std::string why;
    if (!model.load(checkpointDir.toStdString(), &why)) {
        r.error = QString::fromStdString(why);
        return r;
    }
    if (model.isQuestionAnswering()) {
        r.error = QStringLiteral("%1: a MarkupLM question-answering folder; Show Attention runs token-classification "
                                 "folders (its answers come from Extract Fields)").arg(checkpointDir);
        return r;
    }
    pipeline::MarkupFieldRun page;
    pipeline::markupPageNodes(document, &page);
    if (page.nodes.isEmpty()) {
        r.error = QStringLiteral("%1: the page has no text nodes").arg(document.sourcePath);
        return r;
    }
    std::vector<std::string> nodes, xpaths;
    for (int i = 0; i < page.nodes.size(); ++i) {
        nodes.push_back(page.nodes[i].toStdString());
        xpaths.push_back(page.xpaths[i].toStdString());
    }
    inf::RunOptions options;
    options.trace = true;
    options.disabledBiases = disabledBiases;
    const inf::MarkupNodeLabelling l = model.label(nodes, xpaths, options);
    if (!l.ok) {
        r.error = QStringLiteral("%1: %2").arg(checkpointDir, QString::fromStdString(l.error));
        return r;
    }
    QStringList labels;
    for (std::size_t i = 0; i < document.words.size(); ++i)
        labels << QString();
    for (std::size_t n = 0; n < l.nodes.size() && n < page.nodeWords.size(); ++n)
        if (l.nodes[n].labelId >= 0)
            for (int w : page.nodeWords[n])
                if (w >= 0 && w < labels.size())
                    labels[w] = QString::fromStdString(l.nodes[n].label);
    const inf::Tokenizer *tok = model.tokenizer() ? &model.tokenizer()->tokenizer() : nullptr;
    for (std::size_t w = 0; w < l.windows.size() && w < l.windowNodeIds.size(); ++w) {
        AttentionTrace part;
        if (!ingestOutputs(l.windows[w], {0}, &part, &r.error))
            return r;
        const std::vector<int> &tokenNode = l.windowNodeIds[w];
        std::map<int, int> count, seen;
        for (int n : tokenNode)
            ++count[n];
        const auto ids = l.windows[w].find("input_ids");
        for (std::size_t t = 0; t < tokenNode.size(); ++t) {
            const int n = tokenNode[t];
            int word = -1;
            if (n >= 0 && std::size_t(n) < page.nodeWords.size() && !page.nodeWords[std::size_t(n)].empty()) {
                const std::vector<int> &words = page.nodeWords[std::size_t(n)];
                word = words[std::size_t(seen[n]++) * words.size() / std::size_t(count[n])];
            }
            part.tokenWord.push_back(word);
            const bool haveId = tok && ids != l.windows[w].end() && ids->second.dtype == inf::DType::I64 &&
                                std::int64_t(t) < ids->second.numel();
            part.tokenText << (haveId ? QString::fromStdString(tok->idToPiece(int(ids->second.data<std::int64_t>()[t]))) : QString());
        }
        nameExtraTokens(&part, int(tokenNode.size()));
        if (!r.trace.appendWindows(part, &r.error))
            return r;
    }
    finishWordPageRun(QStringLiteral("markuplm"), checkpointDir, model.maxTokens(), disabledBiases, document, labels, &r);
    return r;
}

bool isHfTokenizerFolder(const QString &dir)
{
    return (QFileInfo::exists(QDir(dir).filePath(QStringLiteral("vocab.json"))) &&
            QFileInfo::exists(QDir(dir).filePath(QStringLiteral("merges.txt")))) ||
           QFileInfo::exists(QDir(dir).filePath(QStringLiteral("tokenizer.json"))); // the Hub's fast tokenizer alone (issue 46)
}

// The checkpoint's model_type ("" when config.json is unreadable: the ModelRunner path reports it).
std::string checkpointModelType(const QString &dir, inf::ModelConfig *config)
{
    try {
        *config = inf::ModelConfig::fromDirectory(dir.toStdString());
        return config->modelType();
    } catch (const std::exception &) {
        return std::string();
    }
}

} // namespace

AttentionRunResult runAttentionOnInputs(const QString &checkpointDir, const QString &inputsPath, int batchRow,
                                        std::uint32_t disabledBiases)
{
    AttentionRunResult r;
    {
        inf::ModelConfig config;
        if (checkpointModelType(checkpointDir, &config) == kFormTagger) {
            r.error = QStringLiteral("%1: a folio-formtagger checkpoint runs on a document's words, not on prepared inputs (%2)")
                          .arg(checkpointDir, inputsPath);
            return r;
        }
    }
    Loaded loaded;
    if (!loadCheckpoint(checkpointDir, &loaded, &r.error))
        return r;
    inf::TensorMap inputs;
    try {
        inputs = inf::readSafetensors(inputsPath.toStdString());
    } catch (const std::exception &e) {
        r.error = QString::fromStdString(e.what());
        return r;
    }
    auto ids = inputs.find("input_ids");
    if (ids == inputs.end() || ids->second.shape.size() != 2) {
        r.error = QStringLiteral("%1: no input_ids [B, L] tensor").arg(inputsPath);
        return r;
    }
    const int batch = int(ids->second.shape[0]);
    if (batchRow >= batch) {
        r.error = QStringLiteral("%1: batch row %2 out of range (the file holds %3)").arg(inputsPath).arg(batchRow).arg(batch);
        return r;
    }
    inf::RunOptions options;
    options.trace = true;
    options.disabledBiases = disabledBiases;
    const inf::RunResult run = loaded.runner.run(inputs, options);
    if (!run.ok) {
        r.error = QStringLiteral("%1: %2").arg(checkpointDir, QString::fromStdString(run.error));
        return r;
    }
    std::vector<int> rows;
    if (batchRow >= 0)
        rows.push_back(batchRow);
    stampIdentity(&r.trace, checkpointDir, loaded, disabledBiases);
    r.trace.documentId = QFileInfo(inputsPath).absoluteFilePath();
    if (!ingestOutputs(run.outputs, rows, &r.trace, &r.error))
        return r;
    // Token texts: the ids (no tokenizer in a prepared file). Padding is marked.
    const auto mask = inputs.find("attention_mask");
    const int l = int(ids->second.shape[1]);
    const std::vector<int> useRows = rows.empty() ? [&] { std::vector<int> v; for (int b = 0; b < batch; ++b) v.push_back(b); return v; }() : rows;
    for (int b : useRows)
        for (int t = 0; t < l; ++t) {
            const std::size_t i = std::size_t(b) * l + t;
            const bool pad = mask != inputs.end() && mask->second.dtype == inf::DType::I64 && mask->second.data<std::int64_t>()[i] == 0;
            const std::int64_t id = ids->second.dtype == inf::DType::I64 ? ids->second.data<std::int64_t>()[i] : -1;
            r.trace.tokenText << (pad ? QStringLiteral("pad") : QStringLiteral("id %1").arg(id));
        }
    // Visual tokens after the text (LayoutLMv2): named per window, mapped to no word.
    if (!r.trace.windows.empty() && r.trace.windows.front().length > l) {
        QStringList text;
        for (std::size_t w = 0; w < r.trace.windows.size(); ++w) {
            text << r.trace.tokenText.mid(int(w) * l, l);
            for (int t = l; t < r.trace.windows[w].length; ++t)
                text << QStringLiteral("visual %1").arg(t - l);
        }
        r.trace.tokenText = text;
    }
    const auto logits = run.outputs.find("logits");
    if (logits != run.outputs.end())
        for (int b : useRows)
            for (int id : argmaxRow(logits->second, b))
                r.labels << labelName(loaded.config, id);
    if (!r.trace.finish(&r.error))
        return r;
    r.ok = true;
    return r;
}

AttentionRunResult runAttentionOnDocument(const QString &checkpointDir, const Document &document,
                                          std::uint32_t disabledBiases, int maxWindow)
{
    AttentionRunResult r;
    if (document.words.empty()) {
        r.error = QStringLiteral("%1: the document has no words to run the model on").arg(document.sourcePath);
        return r;
    }
    // An ensemble of form taggers (predictor.h): the attention shown is its first member's.
    std::vector<std::string> members;
    try {
        members = inf::taggerEnsembleMembers(checkpointDir.toStdString());
    } catch (const std::exception &e) {
        r.error = QString::fromStdString(e.what());
        return r;
    }
    if (!members.empty())
        return runAttentionOnDocument(QString::fromStdString(members.front()), document, disabledBiases, maxWindow);
    {
        inf::ModelConfig config;
        const std::string type = checkpointModelType(checkpointDir, &config);
        if (type == kFormTagger) // windows come from its config (maxWindow unused)
            return runFormTaggerOnDocument(checkpointDir, config, document, disabledBiases);
        if (type == "markuplm") // its nodes and windows (maxWindow unused)
            return runMarkupLMOnDocument(checkpointDir, document, disabledBiases);
        // A token-classification folder of a type HfTokenClassifier runs: its own windows (maxWindow
        // unused). A BPE folder (vocab.json + merges.txt) with id2label always goes there (a folder it
        // refuses is reported with its reason); a LayoutLMv2 / LayoutXLM folder (WordPiece vocab.txt or
        // SentencePiece) or a LiLT folder with XLM-R's tokenizer when it passes HfTokenClassifier's
        // checks; others take the path below.
        std::string why;
        if (pipeline::isHfTokenClassifierType(QString::fromStdString(type)) &&
            ((isHfTokenizerFolder(checkpointDir) && config.json().contains("id2label")) ||
             ((type == "layoutlmv2" || type == "lilt") && inf::HfTokenClassifier::checkFolder(checkpointDir.toStdString(), &why))))
            return runHfOnDocument(checkpointDir, document, disabledBiases);
    }
    Loaded loaded;
    if (!loadCheckpoint(checkpointDir, &loaded, &r.error))
        return r;
    try {
        const std::unique_ptr<inf::Tokenizer> tok = inf::Tokenizer::fromDirectory(checkpointDir.toStdString());
        std::vector<std::string> words;
        std::vector<inf::WordBox> boxes;
        for (const Word &w : document.words) {
            words.push_back(w.text.toStdString());
            boxes.push_back({w.norm.x0, w.norm.y0, w.norm.x1, w.norm.y1});
        }
        const inf::Encoding enc = inf::encodeWords(*tok, words, boxes);
        int window = modelWindowOf(loaded.config);
        if (maxWindow > 0)
            window = std::min(window, maxWindow);
        const int body = std::max(1, window - 2);
        auto special = [&](const char *a, const char *b, int fallback) {
            int id = tok->pieceToId(a);
            if (id < 0)
                id = tok->pieceToId(b);
            return id < 0 ? fallback : id;
        };
        const int cls = special("<s>", "[CLS]", 0), sep = special("</s>", "[SEP]", 2);
        const std::vector<std::string> names = loaded.runner.inputNames();
        const bool wantsTypes = std::find(names.begin(), names.end(), "token_type_ids") != names.end();
        std::vector<int> wordLabel(document.words.size(), -1);
        const int total = int(enc.ids.size());
        for (int begin = 0; begin < total; begin += body) {
            const int end = std::min(total, begin + body);
            const int l = end - begin + 2;
            std::vector<std::int64_t> ids{cls}, bbox{0, 0, 0, 0}, mask(std::size_t(l), 1);
            std::vector<int> tokenWord{-1};
            QStringList text{QString::fromStdString(tok->idToPiece(cls))};
            for (int t = begin; t < end; ++t) {
                ids.push_back(enc.ids[std::size_t(t)]);
                const inf::WordBox &b = enc.boxes[std::size_t(t)];
                bbox.insert(bbox.end(), {b.x0, b.y0, b.x1, b.y1});
                tokenWord.push_back(enc.wordIndex[std::size_t(t)]);
                text << QString::fromStdString(tok->idToPiece(enc.ids[std::size_t(t)]));
            }
            ids.push_back(sep);
            bbox.insert(bbox.end(), {1000, 1000, 1000, 1000});
            tokenWord.push_back(-1);
            text << QString::fromStdString(tok->idToPiece(sep));
            inf::TensorMap in;
            in["input_ids"] = inf::Tensor::fromInt64({1, l}, ids);
            in["bbox"] = inf::Tensor::fromInt64({1, l, 4}, bbox);
            in["attention_mask"] = inf::Tensor::fromInt64({1, l}, mask);
            if (wantsTypes)
                in["token_type_ids"] = inf::Tensor::fromInt64({1, l}, std::vector<std::int64_t>(std::size_t(l), 0));
            inf::RunOptions options;
            options.trace = true;
            options.disabledBiases = disabledBiases;
            const inf::RunResult run = loaded.runner.run(in, options);
            if (!run.ok) {
                r.error = QStringLiteral("%1: %2").arg(checkpointDir, QString::fromStdString(run.error));
                return r;
            }
            AttentionTrace part;
            if (!ingestOutputs(run.outputs, {0}, &part, &r.error))
                return r;
            part.tokenWord = tokenWord;
            part.tokenText = text;
            nameExtraTokens(&part, l);
            if (!r.trace.appendWindows(part, &r.error))
                return r;
            const auto logits = run.outputs.find("logits");
            if (logits != run.outputs.end()) {
                const std::vector<int> best = argmaxRow(logits->second, 0);
                for (int t = 1; t + 1 < l && t < int(best.size()); ++t) {
                    const int w = tokenWord[std::size_t(t)];
                    if (w >= 0 && wordLabel[std::size_t(w)] < 0)
                        wordLabel[std::size_t(w)] = best[std::size_t(t)];
                }
            }
        }
        stampIdentity(&r.trace, checkpointDir, loaded, disabledBiases);
        r.trace.documentId = attentionDocumentId(document);
        if (std::any_of(wordLabel.begin(), wordLabel.end(), [](int v) { return v >= 0; }))
            for (int id : wordLabel)
                r.labels << (id < 0 ? QString() : labelName(loaded.config, id));
    } catch (const std::exception &e) {
        r.error = QString::fromStdString(e.what());
        return r;
    }
    if (!r.trace.finish(&r.error))
        return r;
    r.ok = true;
    return r;
}

void appendTraceMatrices(const AttentionTrace &trace, AttentionExport *out)
{
    const bool stitched = trace.isStitched();
    for (std::size_t w = 0; w < trace.windows.size(); ++w) {
        const AttentionWindow &win = trace.windows[w];
        const std::string prefix = stitched ? "window." + std::to_string(w) + "." : std::string();
        const std::vector<std::int64_t> shape{trace.headCount, win.length, win.length};
        for (std::size_t l = 0; l < win.layers.size(); ++l)
            out->matrices.push_back({prefix + "attentions." + std::to_string(l), shape, win.layers[l]});
        for (const auto &[name, values] : win.biasTerms)
            out->matrices.push_back({prefix + name.toStdString(), shape, values});
    }
}

bool writeAttentionSafetensors(const AttentionExport &data, const QString &path, QString *error)
{
    if (data.matrices.empty()) {
        if (error)
            *error = QStringLiteral("%1: nothing to export (no trace)").arg(path);
        return false;
    }
    inf::TensorMap tensors;
    for (const AttentionExport::Matrix &m : data.matrices)
        tensors[m.name] = inf::Tensor::fromFloats(m.shape, m.values);
    try {
        inf::writeSafetensors(path.toStdString(), tensors, data.metadata);
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    return true;
}

} // namespace folio
