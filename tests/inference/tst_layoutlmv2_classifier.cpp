// LayoutLMv2 / LayoutXLM token-classification folders through HfTokenClassifier (issue 32), what
// `folio-cli predict --model DIR`, Choose Model and Suggest Labels run. The folders are built from
// the parity-new `layoutlmv2_visual` weights (LayoutLMv2Model with its detectron2 backbone) plus a
// classifier head and the tokenizers of tests/data/tokenizers/layoutlmv2 (BERT WordPiece) and
// layoutxlm (XLM-R SentencePiece). The word labels must equal the model run on the reference
// tokenizer's own encoding (cases.json) with the fixture's page image, each word labelled from its
// first token. Also: no image -> text + layout only with a warning, no backbone weights -> the
// model's warning, and the folders refused before loading (missing or mismatched tokenizer, a
// tokenizer class of another model) or at loading (a backbone tensor of the wrong shape), the
// previously loaded folder staying usable.
#include "inference/checkpoint/safetensors.h"
#include "inference/models/hftokenclassifier.h"
#include "inference/models/modelrunner.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>

using namespace folio::inference;

namespace {

const char *const kLabels[] = {"O", "B-KEY", "I-KEY", "B-VALUE", "I-VALUE"};

QString visualFixture()
{
    return folio::test::sharedPath(QStringLiteral("fixtures/parity-new/layoutlmv2_visual"));
}

std::string tokenizerFixture(const char *name)
{
    return std::string(FOLIO_SOURCE_DIR "/tests/data/tokenizers/") + name;
}

nlohmann::json readJson(const std::string &path)
{
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

void copyFile(const std::string &from, const std::string &to)
{
    QFile::remove(QString::fromStdString(to));
    QVERIFY(QFile::copy(QString::fromStdString(from), QString::fromStdString(to)));
}

// The first `rows` rows of a [R, D] float tensor.
Tensor firstRows(const Tensor &t, std::int64_t rows)
{
    Tensor out = t;
    out.shape[0] = rows;
    out.bytes.resize(std::size_t(rows * t.shape[1]) * sizeof(float));
    return out;
}

// A LayoutLMv2ForTokenClassification folder: the fixture's LayoutLMv2Model under `layoutlmv2.`, a
// deterministic 5-label head, and the tokenizer `kind` ("layoutlmv2" or "layoutxlm").
struct Folder
{
    QTemporaryDir tmp;
    std::string dir() const { return tmp.path().toStdString(); }
};

void buildFolder(const std::string &dir, const std::string &kind, bool backbone = true, int vocabLines = -1)
{
    const std::string src = visualFixture().toStdString();
    nlohmann::json config = readJson(src + "/config.json");
    const TensorMap model = readSafetensors(src + "/model.safetensors");
    TensorMap weights;
    const std::int64_t hidden = config.at("hidden_size").get<std::int64_t>();
    std::int64_t vocab = config.at("vocab_size").get<std::int64_t>();
    if (kind == "layoutxlm")
        vocab = readJson(tokenizerFixture("layoutxlm") + "/cases.json").at("vocab_size").get<std::int64_t>();
    for (const auto &kv : model) {
        if (!backbone && kv.first.rfind("visual", 0) == 0)
            continue;
        weights["layoutlmv2." + kv.first] =
            kv.first == "embeddings.word_embeddings.weight" ? firstRows(kv.second, vocab) : kv.second;
    }
    std::vector<float> head(std::size_t(5 * hidden)), bias(5);
    for (std::size_t i = 0; i < head.size(); ++i)
        head[i] = float(std::sin(0.7 * double(i) + 0.3));
    for (std::size_t i = 0; i < bias.size(); ++i)
        bias[i] = 0.05f * float(i);
    weights["classifier.weight"] = Tensor::fromFloats({5, hidden}, head);
    weights["classifier.bias"] = Tensor::fromFloats({5}, bias);

    config["vocab_size"] = vocab;
    config["architectures"] = {"LayoutLMv2ForTokenClassification"};
    config["id2label"] = nlohmann::json::object();
    config["label2id"] = nlohmann::json::object();
    for (int i = 0; i < 5; ++i) {
        config["id2label"][std::to_string(i)] = kLabels[i];
        config["label2id"][kLabels[i]] = i;
    }
    QDir().mkpath(QString::fromStdString(dir));
    std::ofstream(dir + "/config.json") << config.dump(2);
    writeSafetensors(dir + "/model.safetensors", weights);

    const std::string tok = tokenizerFixture(kind.c_str());
    copyFile(tok + "/tokenizer_config.json", dir + "/tokenizer_config.json");
    if (kind == "layoutxlm") {
        copyFile(tok + "/sentencepiece.bpe.model", dir + "/sentencepiece.bpe.model");
        return;
    }
    // vocab.txt padded with [unusedN] to the model's rows (or to vocabLines lines).
    std::ifstream in(tok + "/vocab.txt");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    const std::size_t want = std::size_t(vocabLines > 0 ? vocabLines : vocab);
    for (std::size_t i = 0; lines.size() < want; ++i)
        lines.push_back("[unused" + std::to_string(i) + "]");
    lines.resize(want);
    std::ofstream out(dir + "/vocab.txt");
    for (const std::string &l : lines)
        out << l << '\n';
}

// The fixture's first page image, [1, 3, 224, 224] uint8 BGR.
Tensor pageImage()
{
    const TensorMap inputs = readSafetensors(visualFixture().toStdString() + "/inputs.safetensors");
    Tensor image = inputs.at("image");
    image.shape[0] = 1;
    image.bytes.resize(std::size_t(3 * image.shape[2] * image.shape[3]));
    return image;
}

std::vector<WordBox> boxesOf(const nlohmann::json &c)
{
    std::vector<WordBox> boxes;
    for (const auto &b : c.at("boxes"))
        boxes.push_back(WordBox{b[0].get<int>(), b[1].get<int>(), b[2].get<int>(), b[3].get<int>()});
    return boxes;
}

// Word labels of the model run on the reference encoding: each word from its first token.
std::vector<int> referenceLabels(const std::string &dir, const nlohmann::json &c, const Tensor *image)
{
    ModelRunner runner;
    std::string error;
    if (!runner.load(dir, &error))
        qFatal("load: %s", error.c_str());
    const auto ids = c.at("input_ids").get<std::vector<std::int64_t>>();
    const auto mask = c.at("attention_mask").get<std::vector<std::int64_t>>();
    std::vector<std::int64_t> box;
    for (const auto &b : c.at("bbox"))
        for (int k = 0; k < 4; ++k)
            box.push_back(b[std::size_t(k)].get<std::int64_t>());
    const auto n = std::int64_t(ids.size());
    TensorMap in;
    in["input_ids"] = Tensor::fromInt64({1, n}, ids);
    in["bbox"] = Tensor::fromInt64({1, n, 4}, box);
    in["attention_mask"] = Tensor::fromInt64({1, n}, mask);
    if (image)
        in["image"] = *image;
    else
        in["visual_tokens"] = Tensor::fromInt64({1}, {0});
    const RunResult r = runner.run(in);
    if (!r.ok)
        qFatal("run: %s", r.error.c_str());
    const Tensor &logits = r.outputs.at("logits");
    const auto labels = logits.shape.back();
    const auto wordIds = c.at("word_ids").get<std::vector<int>>();
    std::vector<int> out(c.at("words").size(), -1);
    for (std::size_t p = 0; p < wordIds.size(); ++p) {
        const int w = wordIds[p];
        if (w < 0 || out[std::size_t(w)] >= 0)
            continue;
        const float *row = logits.data<float>() + std::int64_t(p) * labels;
        out[std::size_t(w)] = int(std::max_element(row, row + labels) - row);
    }
    return out;
}

std::string checkError(const std::string &dir)
{
    std::string error;
    return HfTokenClassifier::checkFolder(dir, &error) ? std::string() : error;
}

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

} // namespace

class TestLayoutLMv2Classifier : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { configureThreads(1); }

    void labelsEqualReference_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<bool>("withImage");
        QTest::newRow("layoutlmv2 + image") << QStringLiteral("layoutlmv2") << true;
        QTest::newRow("layoutxlm + image") << QStringLiteral("layoutxlm") << true;
        QTest::newRow("layoutxlm, no image") << QStringLiteral("layoutxlm") << false;
    }

    void labelsEqualReference()
    {
        QFETCH(QString, kind);
        QFETCH(bool, withImage);
        FOLIO_REQUIRE_DATA(visualFixture() + QStringLiteral("/model.safetensors"));
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        buildFolder(dir, kind.toStdString());
        QVERIFY2(checkError(dir).empty(), checkError(dir).c_str());
        HfTokenClassifier classifier;
        std::string error;
        QVERIFY2(classifier.load(dir, &error), error.c_str());
        QCOMPARE(classifier.modelType(), std::string("layoutlmv2"));
        QVERIFY(classifier.takesImage());
        QVERIFY(classifier.warnings().empty());
        const Tensor image = pageImage();
        const nlohmann::json cases = readJson(tokenizerFixture(kind.toUtf8().constData()) + "/cases.json");
        int labelled = 0;
        for (const nlohmann::json &c : cases.at("cases")) {
            if (c.contains("max_length"))
                continue; // the reference case of a shorter max_length than the model's
            const auto words = c.at("words").get<std::vector<std::string>>();
            const WordLabelling got = classifier.label(words, boxesOf(c), HfTokenClassifier::LongPages::Truncate, {},
                                                       withImage ? &image : nullptr);
            QVERIFY2(got.ok, got.error.c_str());
            QCOMPARE(got.windows.size(), std::size_t(1));
            QCOMPARE(got.windows[0].at("input_ids").data<std::int64_t>()[1],
                     c.at("input_ids")[1].get<std::int64_t>()); // the reference encoding went in
            const bool warned = std::any_of(got.warnings.begin(), got.warnings.end(),
                                            [](const std::string &w) { return contains(w, "no page image"); });
            QCOMPARE(warned, !withImage);
            const std::vector<int> expected = referenceLabels(dir, c, withImage ? &image : nullptr);
            for (std::size_t w = 0; w < words.size(); ++w) {
                QCOMPARE(got.words[w].labelId, expected[w]);
                labelled += expected[w] >= 0 ? 1 : 0;
            }
        }
        QVERIFY(labelled >= 15);
    }

    // No visual.* weights: text + layout only, said by the model; no image is asked for.
    void withoutBackbone()
    {
        FOLIO_REQUIRE_DATA(visualFixture() + QStringLiteral("/model.safetensors"));
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        buildFolder(dir, "layoutlmv2", false);
        HfTokenClassifier classifier;
        std::string error;
        QVERIFY2(classifier.load(dir, &error), error.c_str());
        QVERIFY(!classifier.takesImage());
        QCOMPARE(classifier.warnings().size(), std::size_t(1));
        QVERIFY2(contains(classifier.warnings()[0], "no visual backbone"), classifier.warnings()[0].c_str());
        const WordLabelling got = classifier.label({"Rechnung", "Nr.", "12,50"}, {{10, 10, 60, 20}, {70, 10, 90, 20}, {100, 10, 140, 20}});
        QVERIFY2(got.ok, got.error.c_str());
        QCOMPARE(got.warnings, classifier.warnings());
        QVERIFY(got.words[0].labelId >= 0 && got.words[2].labelId >= 0);
    }

    // Refused by checkFolder (before any weight is read), naming the file.
    void badTokenizer_data()
    {
        QTest::addColumn<QString>("breakage");
        QTest::addColumn<QString>("named");
        QTest::newRow("vocab.txt shorter than vocab_size") << QStringLiteral("short vocab") << QStringLiteral("vocab.txt");
        QTest::newRow("no vocab.txt") << QStringLiteral("no vocab") << QStringLiteral("vocab.txt");
        QTest::newRow("LayoutLMv3Tokenizer") << QStringLiteral("v3 class") << QStringLiteral("tokenizer_config.json");
        QTest::newRow("XLM-R model, vocab_size 500") << QStringLiteral("xlm in v2 sizes") << QStringLiteral("sentencepiece.bpe.model");
    }

    void badTokenizer()
    {
        QFETCH(QString, breakage);
        QFETCH(QString, named);
        FOLIO_REQUIRE_DATA(visualFixture() + QStringLiteral("/model.safetensors"));
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        buildFolder(dir, "layoutlmv2", true, breakage == QStringLiteral("short vocab") ? 450 : -1);
        if (breakage == QStringLiteral("no vocab"))
            QFile::remove(tmp.filePath(QStringLiteral("vocab.txt")));
        if (breakage == QStringLiteral("v3 class"))
            std::ofstream(dir + "/tokenizer_config.json") << "{\"tokenizer_class\": \"LayoutLMv3Tokenizer\"}";
        if (breakage == QStringLiteral("xlm in v2 sizes")) {
            QFile::remove(tmp.filePath(QStringLiteral("vocab.txt")));
            copyFile(tokenizerFixture("layoutxlm") + "/sentencepiece.bpe.model", dir + "/sentencepiece.bpe.model");
            copyFile(tokenizerFixture("layoutxlm") + "/tokenizer_config.json", dir + "/tokenizer_config.json");
        }
        const std::string error = checkError(dir);
        QVERIFY2(contains(error, named.toStdString()), error.c_str());
        HfTokenClassifier classifier;
        std::string loadError;
        QVERIFY(!classifier.load(dir, &loadError));
        QCOMPARE(loadError, error);
    }

    // A backbone tensor of the wrong shape: refused at loading, naming the tensor; the folder loaded
    // before stays loaded and usable.
    void wrongBackboneShape()
    {
        FOLIO_REQUIRE_DATA(visualFixture() + QStringLiteral("/model.safetensors"));
        QTemporaryDir good, bad;
        buildFolder(good.path().toStdString(), "layoutxlm");
        buildFolder(bad.path().toStdString(), "layoutxlm");
        const std::string weightsFile = bad.path().toStdString() + "/model.safetensors";
        TensorMap weights = readSafetensors(weightsFile);
        const std::string key = "layoutlmv2.visual.backbone.bottom_up.stem.conv1.weight";
        QVERIFY(weights.count(key));
        Tensor &t = weights.at(key);
        t.shape[0] += 1;
        t.bytes.resize(std::size_t(t.numel()) * sizeof(float));
        writeSafetensors(weightsFile, weights);

        HfTokenClassifier classifier;
        std::string error;
        QVERIFY2(classifier.load(good.path().toStdString(), &error), error.c_str());
        QVERIFY(!classifier.load(bad.path().toStdString(), &error));
        QVERIFY2(contains(error, "stem.conv1.weight"), error.c_str());
        QVERIFY(classifier.isLoaded());
        const WordLabelling still = classifier.label({"Rechnung"}, {{10, 10, 60, 20}});
        QVERIFY2(still.ok, still.error.c_str());
    }
};

FOLIO_TEST_GUILESS_MAIN(TestLayoutLMv2Classifier)
#include "tst_layoutlmv2_classifier.moc"
