// What a checkpoint folder is and whether Folio can run it (see checkpointinfo.h).
#include "pipeline/checkpointinfo.h"

#include "common/regularfile.h"
#include "inference/checkpoint/detail/jsonfile.h"
#include "inference/checkpoint/fairseq.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/checkpoint/shardedsafetensors.h"
#include "inference/formtagger/predictor.h" // kTaggerEnsembleType only: the ensemble's checks come through CheckpointChecks
#include "inference/models/detail/tokenlabels.h"
#include "inference/models/hftokenclassifier.h"
#include "inference/tokenizers/tokenizer.h"
#include "pipeline/pagepixels.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <map>

namespace folio::pipeline {

namespace {

using nlohmann::json;

// Thrown (never a std::exception, so that no check's catch takes it) when the folder needs a check
// the program lacks (describeCheckpointWithoutLibTorch): the description is abandoned.
struct NeedsLibTorch
{
};

// MarkupLM folders run through Choose Field Extractor, `extract` and (token classification) `predict`
// (pipeline/markuplmfields.h).
constexpr bool kMarkupLmRunsInFolio = true;

const char *const kTokenizerFiles[] = {"tokenizer.json", "vocab.json", "merges.txt", "vocab.txt", "spm.model",
                                       "sentencepiece.bpe.model", "tokenizer.model", "tokenizer_config.json",
                                       "special_tokens_map.json", "added_tokens.json",
                                       "dict.txt", "encoder.json", "vocab.bpe"}; // fairseq's GPT-2 BPE
const char *const kWeightFiles[] = {"model.safetensors", "pytorch_model.bin", "checkpoint_best.pt"};

struct Description
{
    const detail::CheckpointChecks *checks = nullptr;
    QDir dir;
    QString weightsFile; // `info --checkpoint FILE.pt`: the one weights file described
    json out;
    json problems = json::array();
    json notes = json::array();

    std::string path(const char *name) const { return dir.filePath(QString::fromLatin1(name)).toStdString(); }
    // Anything by that name, a dangling link or a loop included (named as such when read; issue 51).
    bool has(const char *name) const { return pathExists(QFile::encodeName(dir.filePath(QString::fromLatin1(name))).toStdString()); }
    void problem(const std::string &what)
    {
        if (std::find(problems.begin(), problems.end(), what) == problems.end())
            problems.push_back(what);
    }
    void note(const std::string &what) { notes.push_back(what); }
    // A LibTorch-linked check (CheckpointChecks), or NeedsLibTorch when this program has none.
    template<typename Fn> Fn need(Fn fn) const
    {
        if (!fn)
            throw NeedsLibTorch{};
        return fn;
    }
    // Runs a pre-load check; its exception or *error message becomes a problem.
    template<typename Check> void check(Check &&fn)
    {
        try {
            std::string error;
            if (!fn(&error))
                problem(error);
        } catch (const std::exception &e) {
            problem(e.what());
        }
    }
};

bool endsWithSegment(const std::string &name, const std::string &suffix)
{
    return name == suffix || (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0
                              && name[name.size() - suffix.size() - 1] == '.');
}

// What the weights header says: tensor names (for the head and HIBRIDS variant) and sizes.
struct WeightsHeader
{
    bool read = false;
    std::vector<std::string> names;
    json fairseqConfig; // a fairseq BART's config.json, built from its args (inference/checkpoint/fairseq.h)
    bool hasSuffix(const std::string &suffix) const
    {
        return std::any_of(names.begin(), names.end(), [&](const std::string &n) { return endsWithSegment(n, suffix); });
    }
    bool contains(const std::string &part) const
    {
        return std::any_of(names.begin(), names.end(), [&](const std::string &n) { return n.find(part) != std::string::npos; });
    }
};

// The first bytes of a torch.save file: "PK\3\4" (the zip format Folio reads), 0x80 (a bare pickle).
QByteArray leadingBytes(const QString &path, int n)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.read(n) : QByteArray();
}

WeightsHeader describeWeights(Description &d)
{
    WeightsHeader header;
    json weights = json(nullptr);
    const std::string explicitFile = d.weightsFile.toStdString();
    for (const char *listed : kWeightFiles) {
        const char *name = explicitFile.empty() ? listed : explicitFile.c_str();
        if (!explicitFile.empty() && listed != kWeightFiles[0])
            break; // the one file asked for
        if (!d.has(name))
            continue;
        const QString path = d.dir.filePath(QString::fromLatin1(name));
        const std::string p = path.toStdString();
        json w = {{"file", name}, {"bytes", QFileInfo(path).size()}};
        std::string notAFile; // a FIFO, a link to /dev/zero, a folder...: named, never opened (issue 51)
        if (regularFileSize(QFile::encodeName(path).toStdString(), FileLimits::weights, "the weights file", &notAFile) < 0) {
            w["format"] = "not a regular file";
            d.problem(notAFile);
        } else if (std::string(name) == "model.safetensors") {
            w["format"] = "safetensors";
            try {
                const inference::SafetensorsFile file(p); // maps the file; only the header is parsed
                std::int64_t parameters = 0;
                for (const std::string &t : file.names()) {
                    std::int64_t numel = 1;
                    for (std::int64_t dim : file.view(t).shape)
                        numel *= dim;
                    parameters += numel;
                }
                header.read = true;
                header.names = file.names();
                w["tensors"] = header.names.size();
                w["parameters"] = parameters;
            } catch (const std::exception &e) {
                d.problem(e.what());
            }
        } else {
            const QByteArray lead = leadingBytes(path, 4);
            if (lead.startsWith("PK\x03\x04")) {
                w["format"] = "torch-zip";
                if (QString::fromLatin1(name).endsWith(QLatin1String(".pt"))) {
                    w["format"] = "fairseq";
                    try { // the pickle only: names, shapes and the architecture, no tensor
                        const inference::FairseqCheckpointInfo info = inference::describeFairseqCheckpoint(p);
                        std::int64_t parameters = 0;
                        for (const auto &[n, shape] : info.shapes) {
                            std::int64_t numel = 1;
                            for (std::int64_t dim : shape)
                                numel *= dim;
                            parameters += numel;
                            header.names.push_back(n);
                        }
                        header.read = true;
                        header.fairseqConfig = info.config;
                        w["fairseq"] = {{"form", info.form}, {"arch", info.arch}, {"hf_model_name", info.hfModelName}};
                        w["tensors"] = header.names.size();
                        w["parameters"] = parameters;
                        d.note(p + (info.form == "hf-wrapped"
                                        ? ": a fairseq checkpoint wrapping a Hugging Face model (HIBRIDS' release format"
                                              + (info.hfModelName.empty() ? std::string() : ", " + info.hfModelName)
                                              + "): its hf_model.* tensors are read directly"
                                        : ": a fairseq BART checkpoint (arch " + info.arch + "): its tensors are read directly "
                                              "under Hugging Face BART names"));
                    } catch (const std::exception &e) {
                        d.problem(e.what());
                    }
                } else
                    d.note(p + ": a torch.save zip archive, read by the bounded pickle reader at load time (its tensors "
                               "are not listed here; config sizes are checked against the weights when it loads)");
            } else if (!lead.isEmpty() && static_cast<unsigned char>(lead[0]) == 0x80) {
                w["format"] = "pickle";
                d.problem(p + ": a bare pickle (torch.save's legacy format, or fairseq's); Folio reads only the zip "
                              "archive torch.save writes since PyTorch 1.6, or model.safetensors");
            } else {
                w["format"] = "unknown";
                d.problem(p + ": neither a torch zip archive nor a pickle (first bytes do not match)");
            }
        }
        if (weights.is_null())
            weights = w; // the file a loader reads first
        else
            d.note(p + ": also present; " + weights["file"].get<std::string>() + " is the one loaded");
    }
    if (weights.is_null() && explicitFile.empty() && d.has(inference::kSafetensorsIndexFile)) { // sharded (issue 46)
        json w = {{"file", inference::kSafetensorsIndexFile}, {"format", "safetensors-sharded"}};
        try {
            const inference::ShardedSafetensors shards(d.dir.path().toStdString()); // headers only, the index checked
            std::int64_t parameters = 0, bytes = 0;
            for (const std::string &t : shards.names()) {
                std::int64_t numel = 1;
                for (std::int64_t dim : shards.view(t).shape)
                    numel *= dim;
                parameters += numel;
            }
            for (const std::string &s : shards.shardFiles())
                bytes += QFileInfo(d.dir.filePath(QString::fromStdString(s))).size();
            header.read = true;
            header.names = shards.names();
            w["bytes"] = bytes;
            w["shards"] = shards.shardFiles();
            w["tensors"] = header.names.size();
            w["parameters"] = parameters;
        } catch (const std::exception &e) {
            d.problem(e.what());
        }
        weights = w;
    }
    d.out["files"]["weights"] = weights;
    return header;
}

std::vector<std::string> filesPresent(const Description &d, const std::vector<std::string> &names)
{
    std::vector<std::string> out;
    for (const std::string &n : names)
        if (d.has(n.c_str()))
            out.push_back(n);
    return out;
}

// folio.json "data" and the paragraph of RECIPE.md that speaks of the licence.
void describeProvenance(Description &d)
{
    if (d.has("folio.json")) {
        try {
            const json folio = inference::detail::readJsonFile(d.path("folio.json"));
            if (folio.is_object() && folio.contains("data") && folio["data"].is_string())
                d.out["data"] = folio["data"];
        } catch (const std::exception &e) {
            d.note(e.what());
        }
    }
    QFile recipe(d.dir.filePath(QStringLiteral("RECIPE.md")));
    std::string notAFile; // a FIFO RECIPE.md would block the open (issue 51)
    if (d.has("RECIPE.md") && regularFileSize(QFile::encodeName(recipe.fileName()).toStdString(), 1 << 20, "RECIPE.md", &notAFile) < 0)
        d.note(notAFile);
    else if (recipe.size() < (1 << 20) && recipe.open(QIODevice::ReadOnly)) {
        const QStringList paragraphs = QString::fromUtf8(recipe.readAll()).split(QRegularExpression(QStringLiteral("\\n\\s*\\n")));
        for (const QString &p : paragraphs) {
            if (p.contains(QLatin1String("licen"), Qt::CaseInsensitive)) {
                QString text = p.simplified();
                if (text.size() > 600)
                    text = text.left(600) + QStringLiteral("…");
                d.out["licence"] = text.toStdString();
                break;
            }
        }
    }
}

void describeLabels(Description &d, const inference::ModelConfig &config, bool required)
{
    try {
        const std::vector<std::string> labels = inference::detail::labelsFromConfig(config);
        d.out["labels"] = {{"count", labels.size()}, {"names", labels}};
    } catch (const std::exception &e) {
        if (required)
            d.problem(e.what());
    }
}

std::string joined(const std::vector<std::string> &items)
{
    std::string s;
    for (const std::string &i : items)
        s += (s.empty() ? "" : ", ") + i;
    return s;
}

bool contains(const std::vector<std::string> &items, const std::string &item)
{
    return std::find(items.begin(), items.end(), item) != items.end();
}

// The tokenizer a Folio-format model reads from its folder (spm.model, vocab.txt, ...).
void checkFolderTokenizer(Description &d, const std::string &what)
{
    d.check([&](std::string *error) {
        try {
            inference::Tokenizer::fromDirectory(d.dir.path().toStdString());
            return true;
        } catch (const std::exception &e) {
            *error = std::string(e.what()) + " (" + what + ")";
            return false;
        }
    });
}

void describeDrafter(Description &d)
{
    d.out["kind"] = "folio-qs-drafter";
    d.out["model_type"] = "folio-qs-drafter";
    d.out["task"] = "question-summary drafting (sentence salience and question templates)";
    d.out["gui"] = "Model > Generate Question-Summary Hierarchy (Model > Choose QS Model…)";
    d.out["cli"] = "folio-cli qs generate --checkpoint DIR";
    d.out["files"]["config"] = "drafter.json";
    QString error;
    if (!d.need(d.checks->loadDrafter)(d.dir.path(), &error))
        d.problem(error.toStdString());
}

void describeModel(Description &d)
{
    const std::string configPath = d.path("config.json");
    d.out["files"]["config"] = "config.json";
    const WeightsHeader weights = describeWeights(d);
    json raw;
    try {
        if (!d.has("config.json") && weights.fairseqConfig.is_object()) { // a fairseq BART: the config its args give
            raw = weights.fairseqConfig;
            d.out["files"]["config"] = nullptr;
            d.note(configPath + ": none; the configuration is built from the fairseq checkpoint's args");
        } else {
            if (!d.has("config.json") && d.weightsFile.isEmpty())
                inference::ModelConfig::fromDirectory(d.dir.path().toStdString()); // names what the checkpoint lacks
            raw = inference::detail::readJsonFile(configPath);
        }
    } catch (const std::exception &e) {
        d.problem(e.what());
        return;
    }
    if (!raw.is_object()) {
        d.problem(configPath + ": not a JSON object");
        return;
    }
    const inference::ModelConfig config = inference::ModelConfig::fromJson(raw, configPath);
    const std::string type = config.modelType();
    d.out["model_type"] = type;
    if (raw.contains("architectures") && raw["architectures"].is_array())
        d.out["architectures"] = raw["architectures"];
    if (d.out["files"]["weights"].is_null())
        d.problem(d.dir.path().toStdString() + ": no weights file (model.safetensors, model.safetensors.index.json, pytorch_model.bin or checkpoint_best.pt)");
    // The loaders' own first step: config sizes against the weights header (nothing allocated).
    if (d.has("config.json") || d.weightsFile.isEmpty())
        d.check([&](std::string *) {
        inference::ModelConfig::fromDirectory(d.dir.path().toStdString());
        return true;
    });

    std::string architecture;
    if (raw.contains("architectures") && raw["architectures"].is_array() && !raw["architectures"].empty()
        && raw["architectures"][0].is_string())
        architecture = raw["architectures"][0].get<std::string>();
    auto headFromArchitecture = [&]() -> std::string {
        if (architecture.find("ForTokenClassification") != std::string::npos) return "token-classification";
        if (architecture.find("ForQuestionAnswering") != std::string::npos) return "question-answering";
        if (!architecture.empty() && architecture.size() > 5 && architecture.compare(architecture.size() - 5, 5, "Model") == 0)
            return "encoder";
        return "";
    };
    auto head = [&]() -> std::string {
        if (!weights.read)
            return headFromArchitecture();
        if (weights.hasSuffix("classifier.weight")) return "token-classification";
        if (weights.hasSuffix("qa_outputs.weight")) return "question-answering";
        return "encoder";
    };

    const std::vector<std::string> classifierTypes = inference::HfTokenClassifier::supportedModelTypes();
    const auto runnerTypes = [&d] { return d.need(d.checks->runnerTypes)(); };
    const std::string entityGui = "Model > Suggest Labels (Model > Choose Model…)";
    const std::string entityCli = "folio-cli predict --checkpoint DIR FILE";
    d.out["kind"] = "hugging-face";
    if (type.empty()) {
        d.out["kind"] = "unknown";
        d.problem(configPath + ": no model_type: not a model checkpoint Folio knows (supported: " + joined(runnerTypes())
                  + ", or a drafter folder with drafter.json)");
    } else if (type == "folio-formtagger") {
        d.out["kind"] = "folio";
        d.out["head"] = "token-classification";
        d.out["task"] = "entity tagging (Folio form tagger)";
        d.out["gui"] = entityGui;
        d.out["cli"] = entityCli;
        describeLabels(d, config, true);
        checkFolderTokenizer(d, "the form tagger reads spm.model");
        if (d.has("link_head.json") || d.has("link_head.safetensors"))
            d.note("key -> value link head (link_head.json + link_head.safetensors): Suggest Labels links keys to values");
    } else if (contains(classifierTypes, type)) {
        const std::string h = head();
        d.out["head"] = h;
        d.out["task"] = "entity tagging (" + (architecture.empty() ? type : architecture) + ")";
        d.out["gui"] = entityGui;
        d.out["cli"] = entityCli;
        d.check([&](std::string *error) { return inference::HfTokenClassifier::checkFolder(d.dir.path().toStdString(), error); });
        ImageProcessing image;
        QString why;
        if (!readImageProcessing(d.dir.path(), &image, &why))
            d.problem(why.toStdString());
        d.out["visual"] = image.visual;
        if (type == "layoutlmv2" && weights.read) {
            // The visual backbone's weights decide whether the page image is used.
            const bool backbone = weights.contains("visual.backbone.");
            d.out["visual"] = backbone;
            d.note(backbone ? "visual backbone weights present (detectron2 ResNeXt-FPN): the page image (224 x 224, BGR) "
                              "is used; a page without an image runs text + layout only"
                            : "no visual backbone weights (visual.backbone.*): runs text + layout only, without the "
                              "image tokens the architecture adds");
        }
        describeLabels(d, config, true);
        if (h == "encoder")
            d.problem((weights.read ? d.path("model.safetensors") : configPath)
                      + ": no token-classification head (classifier.weight): an encoder alone labels nothing "
                        "(folio-cli run computes its hidden states)");
    } else if (type == "markuplm") {
        const std::string h = head();
        d.out["head"] = h;
        d.out["task"] = h == "question-answering" ? "question answering on web pages (MarkupLM)"
                                                   : "web page node labelling (MarkupLM)";
        const bool qa = h == "question-answering";
        d.out["gui"] = qa ? "Model > Extract Fields on a web page (Model > Choose Field Extractor…): each field asked "
                            "as \"What is the <field>?\""
                          : "Model > Extract Fields on a web page (Model > Choose Field Extractor…): labels answer the "
                            "fields named like them";
        d.out["cli"] = qa ? "folio-cli extract --checkpoint DIR [--question Q | --fields a,b] PAGE"
                          : "folio-cli predict --checkpoint DIR PAGE (node labels); folio-cli extract --checkpoint DIR PAGE";
        const auto checkMarkupLm = d.need(d.checks->checkMarkupLm);
        d.check([&](std::string *error) { return checkMarkupLm(d.dir.path().toStdString(), error); });
        if (h != "question-answering")
            describeLabels(d, config, h == "token-classification");
        if (h == "encoder")
            d.problem(d.path("model.safetensors") + ": no head (neither classifier nor qa_outputs weights)");
        if (!kMarkupLmRunsInFolio)
            d.problem(configPath + ": model_type \"markuplm\": Folio has the model (inference/models/hfmarkuplm.h) "
                                   "but no command or GUI action runs MarkupLM folders yet");
    } else if (type == "webformer") {
        d.out["kind"] = "folio";
        d.out["head"] = "span-extraction";
        d.out["task"] = "web fields (WebFormer)";
        d.out["gui"] = "Model > Extract Fields (Model > Choose Field Extractor…)";
        d.out["cli"] = "folio-cli extract --checkpoint DIR PAGE";
        if (raw.contains("fields") && raw["fields"].is_array())
            d.out["labels"] = {{"count", raw["fields"].size()}, {"names", raw["fields"]}};
        checkFolderTokenizer(d, "WebFormer reads vocab.txt");
    } else if (type == "bart" || type == "led") {
        d.out["head"] = "seq2seq";
        std::string hibrids;
        if (weights.contains("encoder.layers.") && weights.contains("relative_hierarchical_bias")) {
            for (const std::string &n : weights.names)
                if (n.find("relative_hierarchical_bias") != std::string::npos)
                    hibrids = n.find("decoder.") != std::string::npos ? "decoder" : "encoder";
        }
        d.out["hibrids"] = hibrids;
        if (raw.contains("folio_questions")) { // qs train-questions: questions the drafter's summaries answer
            d.out["task"] = "question writing for the drafter (answer-aware question generator)";
            d.out["gui"] = "";
            d.out["cli"] = "folio-cli qs generate --questions neural --question-model DIR";
        } else {
            d.out["task"] = std::string("question-summary generation (") + (type == "led" ? "LED" : "BART")
                            + (hibrids.empty() ? "" : ", HIBRIDS " + hibrids + " bias") + ")";
            d.out["gui"] = "Model > Generate Question-Summary Hierarchy (Model > Choose QS Model…)";
            d.out["cli"] = "folio-cli qs generate --checkpoint DIR";
        }
        if (raw.contains("folio_copy_head") && raw["folio_copy_head"].is_boolean() && raw["folio_copy_head"].get<bool>())
            d.note("pointer-generator copy head (config.json folio_copy_head)");
        QString error;
        if (!d.need(d.checks->loadQsVocabulary)(d.dir.path(), &error))
            d.problem(error.toStdString());
    } else if (contains(runnerTypes(), type)) {
        d.out["head"] = head();
        d.out["task"] = "";
        d.out["cli"] = "folio-cli run --checkpoint DIR (tensors in, tensors out)";
        describeLabels(d, config, false);
        d.problem(configPath + ": model_type \"" + type + "\": Folio computes it (folio-cli run) but no task runs it yet "
                  "(entity tagging runs folio-formtagger, " + joined(classifierTypes) + ")");
    } else {
        d.out["kind"] = "unknown";
        d.problem(configPath + ": unknown model_type \"" + type + "\" (Folio runs: " + joined(runnerTypes()) + ")");
    }
}

json describe(const QString &dir, const detail::CheckpointChecks &checks);

// An ensemble folder (inference/formtagger/predictor.h): each member described as a folder of its
// own; the ensemble runs when every member does and they share one label map.
void describeEnsemble(Description &d, const std::vector<std::string> &members)
{
    d.out["kind"] = "folio";
    d.out["model_type"] = inference::kTaggerEnsembleType;
    d.out["head"] = "token-classification";
    d.out["task"] = "entity tagging (ensemble of " + std::to_string(members.size()) +
                    " Folio form taggers: their label probabilities averaged per word)";
    d.out["gui"] = "Model > Suggest Labels (Model > Choose Model…)";
    d.out["cli"] = "folio-cli predict --checkpoint DIR FILE";
    d.out["files"]["config"] = "config.json";
    json list = json::array();
    json labels;
    for (const std::string &m : members) {
        bool nested = false; // an ensemble inside an ensemble (or one listing itself) is not described again
        d.check([&](std::string *) { nested = !d.need(d.checks->ensembleMembers)(m).empty(); return true; });
        if (nested) {
            d.problem(m + ": member is an ensemble itself");
            continue;
        }
        const json member = describe(QString::fromStdString(m), *d.checks);
        list.push_back({{"folder", member["folder"]}, {"model_type", member["model_type"]}, {"runnable", member["runnable"]}});
        if (member["model_type"] != "folio-formtagger")
            d.problem(m + ": member is not a folio-formtagger folder (model_type \"" +
                      member["model_type"].get<std::string>() + "\")");
        for (const auto &p : member["problems"])
            d.problem(p.get<std::string>());
        if (labels.is_null())
            labels = member["labels"];
        else if (member["labels"] != labels)
            d.problem(m + ": member has another label map than " + members.front());
    }
    d.check([&](std::string *error) { return d.need(d.checks->checkEnsemble)(d.dir.path().toStdString(), error); });
    d.out["members"] = list;
    if (!labels.is_null())
        d.out["labels"] = labels;
}

// Without inference::taggerEnsembleMembers (LibTorch-linked): no members when config.json is a
// regular file that reads as JSON and does not name the ensemble type; anything else (an ensemble,
// a FIFO, a file too large or not JSON: that function's own messages) needs it.
std::vector<std::string> ensembleMembersWithoutLibTorch(const std::string &dir)
{
    const std::string path = dir + "/config.json";
    if (!pathExists(path))
        return {};
    std::string notAFile;
    const long long size = regularFileSize(path, FileLimits::configJson, "config.json", &notAFile);
    if (size < 0)
        throw NeedsLibTorch{};
    QFile f(QFile::decodeName(path.c_str()));
    if (!f.open(QIODevice::ReadOnly))
        throw NeedsLibTorch{};
    if (f.readAll().contains(inference::kTaggerEnsembleType))
        throw NeedsLibTorch{};
    try {
        inference::detail::readJsonFile(path);
    } catch (const std::exception &) {
        throw NeedsLibTorch{};
    }
    return {};
}

json describe(const QString &dir, const detail::CheckpointChecks &checks)
{
    Description d;
    d.checks = &checks;
    d.dir = QDir(dir);
    const QFileInfo info(dir);
    const bool ptFile = info.isFile() && info.suffix() == QLatin1String("pt"); // info --checkpoint FILE.pt
    if (ptFile) {
        d.dir = info.absoluteDir();
        d.weightsFile = info.fileName();
    }
    d.out = {{"folder", QDir::cleanPath(ptFile ? d.dir.absolutePath() : info.absoluteFilePath()).toStdString()},
             {"kind", "unknown"},
             {"model_type", ""},
             {"architectures", json::array()},
             {"head", ""},
             {"task", ""},
             {"gui", ""},
             {"cli", ""},
             {"files", {{"config", nullptr}, {"weights", nullptr}, {"tokenizer", json::array()}, {"other", json::array()}}},
             {"labels", {{"count", 0}, {"names", json::array()}}}};
    if (!info.isDir() && !ptFile) {
        d.problem(dir.toStdString() + (info.exists() ? ": not a folder (nor a fairseq .pt checkpoint)" : ": no such folder"));
    } else {
        std::vector<std::string> known(std::begin(kTokenizerFiles), std::end(kTokenizerFiles));
        d.out["files"]["tokenizer"] = filesPresent(d, known);
        known.insert(known.end(), std::begin(kWeightFiles), std::end(kWeightFiles));
        known.insert(known.end(), {"config.json", "drafter.json"});
        json other = json::array();
        for (const QString &name : d.dir.entryList(QDir::Files | QDir::NoDotAndDotDot, QDir::Name))
            if (!contains(known, name.toStdString()))
                other.push_back(name.toStdString());
        d.out["files"]["other"] = other;
        try {
            std::vector<std::string> members;
            if (d.has("config.json"))
                d.check([&](std::string *) {
                    members = checks.ensembleMembers ? checks.ensembleMembers(dir.toStdString()) : ensembleMembersWithoutLibTorch(dir.toStdString());
                    return true;
                });
            if (d.has("drafter.json"))
                describeDrafter(d);
            else if (!members.empty())
                describeEnsemble(d, members);
            else if (d.has("config.json") && d.problems.empty())
                describeModel(d);
            else if (ptFile || d.has("checkpoint_best.pt"))
                describeModel(d); // a fairseq checkpoint: a BART's args give its config
            else {
                describeWeights(d);
                if (!d.has("config.json")) // else its problem is named already (a FIFO, a loop, an ensemble's)
                    d.problem(d.path("config.json") + ": missing (a model folder has config.json; a drafter folder drafter.json)");
            }
            describeProvenance(d);
        } catch (const std::exception &e) { // a value of an unexpected type somewhere: still a description
            d.problem(dir.toStdString() + ": " + e.what());
        }
    }
    d.out["notes"] = d.notes;
    d.out["problems"] = d.problems;
    d.out["runnable"] = d.problems.empty();
    return d.out;
}

} // namespace

json detail::describeCheckpointWith(const QString &dir, const CheckpointChecks &checks, bool *complete)
{
    if (complete)
        *complete = true;
    try {
        return describe(dir, checks);
    } catch (const NeedsLibTorch &) {
        if (!complete)
            throw; // an ensemble's member: the ensemble's description stops too
        *complete = false;
        return json();
    }
}

json describeCheckpointWithoutLibTorch(const QString &dir, bool *complete)
{
    return detail::describeCheckpointWith(dir, detail::CheckpointChecks{}, complete);
}

} // namespace folio::pipeline
