// Hugging Face token-classification folders through folio_pipeline's DocumentTagger (what Suggest
// Labels and `folio-cli predict` run): dispatch on model_type, BIO repair into entities, the image
// branch's pixel_values, and bad checkpoint folders refused with the previous model kept.
// Checkpoints: ../shared/fixtures/parity-next/layoutlmv3_pipeline (text only) and, for the image
// branch, ../shared/fixtures/parity/layoutlmv3_visual given a tokenizer and a 2-label head here.
#include "document/formats/datasetformat.h"
#include "attention/attentionrollup.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/models/wordlabels.h"
#include "pipeline/attentionrun.h"
#include "pipeline/documentprediction.h"
#include "pipeline/hfpagelabeller.h"
#include "pipeline/pagepixels.h"
#include "tests/common/testdata.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QtTest>

using namespace folio;
using nlohmann::json;

namespace {

QString pipelineCase()
{
    return test::sharedPath(QStringLiteral("fixtures/parity-next/layoutlmv3_pipeline"));
}
QString visualCase()
{
    return test::sharedPath(QStringLiteral("fixtures/parity/layoutlmv3_visual"));
}
const QString kTagger = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout-reading");

json readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return json();
    return json::parse(f.readAll().toStdString());
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

void copyFolder(const QString &from, const QString &to)
{
    const QDir dir(from);
    for (const QString &name : dir.entryList(QDir::Files))
        QFile::copy(dir.filePath(name), QDir(to).filePath(name));
}

// A fixture document as a one-page Document (page 1000 x 1000 px: pixel boxes are the 0-1000 boxes).
Document fixtureDocument(const json &doc, const QString &imagePath = QString())
{
    QStringList texts;
    std::vector<NormBox> boxes;
    for (const auto &w : doc["words"])
        texts << QString::fromStdString(w.get<std::string>());
    for (const auto &b : doc["boxes"])
        boxes.push_back(NormBox{b[0].get<int>(), b[1].get<int>(), b[2].get<int>(), b[3].get<int>()});
    return formats::documentFromWords(QStringLiteral("fixture.json"), texts, boxes, QSizeF(1000, 1000), imagePath);
}

struct Span
{
    std::string label;
    int first, last;
};

std::vector<Span> spansOf(const std::vector<inference::PredictedEntity> &entities)
{
    std::vector<Span> out;
    for (const auto &e : entities)
        out.push_back({e.label, e.firstWord, e.lastWord});
    return out;
}

bool sameSpans(const std::vector<Span> &a, const std::vector<Span> &b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].label != b[i].label || a[i].first != b[i].first || a[i].last != b[i].last)
            return false;
    return true;
}

} // namespace

class TestHfPrediction : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void bioRepair()
    {
        using inference::entitiesFromWordLabels;
        // B starts, I continues, a stray I starts, O and "" (no label) are outside.
        auto got = entitiesFromWordLabels({"B-Q", "I-Q", "I-A", "O", "I-A", "", "I-A", "B-Q", "B-Q", "I-A"},
                                          {0.9f, 0.5f, 0.4f, 1.f, 0.8f, 0.f, 0.6f, 0.7f, 0.2f, 0.3f});
        QVERIFY(sameSpans(spansOf(got), {{"Q", 0, 1}, {"A", 2, 2}, {"A", 4, 4}, {"A", 6, 6}, {"Q", 7, 7}, {"Q", 8, 8}, {"A", 9, 9}}));
        QCOMPARE(got[0].confidence, (double(0.9f) + double(0.5f)) / 2);
        QCOMPARE(got[3].confidence, double(0.6f));
        // Plain labels: one entity per run of equal labels.
        got = entitiesFromWordLabels({"QUESTION", "QUESTION", "ANSWER", "O", "ANSWER", "ANSWER"}, {});
        QVERIFY(sameSpans(spansOf(got), {{"QUESTION", 0, 1}, {"ANSWER", 2, 2}, {"ANSWER", 4, 5}}));
        QCOMPARE(got[0].confidence, 0.0); // missing confidences count as 0
        // BIOES: S is a whole entity, E closes one.
        got = entitiesFromWordLabels({"S-Q", "I-Q", "E-Q", "I-Q", "B-A", "E-A"}, {});
        QVERIFY(sameSpans(spansOf(got), {{"Q", 0, 0}, {"Q", 1, 2}, {"Q", 3, 3}, {"A", 4, 5}}));
        QVERIFY(entitiesFromWordLabels({}, {}).empty());
        QVERIFY(entitiesFromWordLabels({"O", "", "O"}, {1, 1, 1}).empty());
    }

    void suggestsEntitiesOfAHfCheckpoint()
    {
        FOLIO_REQUIRE_DATA(pipelineCase() + QStringLiteral("/documents.json"));
        const json docs = readJson(pipelineCase() + QStringLiteral("/documents.json"));
        const json &shortForm = docs["documents"][0];
        QCOMPARE(shortForm["name"].get<std::string>(), std::string("short_form"));
        const Document doc = fixtureDocument(shortForm);
        pipeline::DocumentTagger tagger;
        QString error;
        QVERIFY2(tagger.load(pipelineCase() + QStringLiteral("/checkpoint"), &error), qPrintable(error));
        QCOMPARE(tagger.labels(), QStringList({"O", "B-QUESTION", "I-QUESTION", "B-ANSWER", "I-ANSWER"}));
        QCOMPARE(tagger.checkpointName(), QStringLiteral("checkpoint"));
        const pipeline::DocumentPrediction p = tagger.predict(doc);
        QVERIFY2(p.ok, qPrintable(p.error));
        QCOMPARE(p.words(), 16);
        // The reference's per-word labels (expected.json), repaired by hand.
        const std::vector<Span> want{{"QUESTION", 0, 0}, {"ANSWER", 1, 1}, {"ANSWER", 4, 4}, {"ANSWER", 6, 6},
                                     {"QUESTION", 7, 7}, {"QUESTION", 8, 8}, {"QUESTION", 10, 11}, {"ANSWER", 13, 13},
                                     {"QUESTION", 14, 14}, {"QUESTION", 15, 15}};
        QCOMPARE(p.entities.size(), want.size());
        QCOMPARE(p.pages.size(), std::size_t(1));
        QCOMPARE(p.pages[0].entities, int(want.size()));
        for (std::size_t i = 0; i < want.size(); ++i) {
            const pipeline::PredictedSpan &s = p.entities[i];
            QCOMPARE(s.label.toStdString(), want[i].label);
            QCOMPARE(s.words.front(), want[i].first);
            QCOMPARE(s.words.back(), want[i].last);
            QVERIFY(s.confidence > 0.2 && s.confidence <= 1.0); // 5 labels: the argmax has > 1/5
        }
        Annotations annotations;
        pipeline::appendSuggestions(p, doc, tagger.checkpointName(), &annotations);
        QCOMPARE(annotations.entities.size(), want.size());
        QCOMPARE(annotations.entities[6].wordIds, QStringList({"w10", "w11"}));
        QCOMPARE(int(annotations.entities[6].state), int(ReviewState::Suggested));
        QCOMPARE(annotations.entities[6].source.checkpoint, QStringLiteral("checkpoint"));
    }

    void longPagesAreLabelledEverywhere()
    {
        FOLIO_REQUIRE_DATA(pipelineCase() + QStringLiteral("/documents.json"));
        const json docs = readJson(pipelineCase() + QStringLiteral("/documents.json"));
        const json &longDoc = docs["documents"][2];
        QVERIFY(longDoc["words"].size() > 150);
        pipeline::DocumentTagger tagger;
        QString error;
        QVERIFY2(tagger.load(pipelineCase() + QStringLiteral("/checkpoint"), &error), qPrintable(error));
        const pipeline::DocumentPrediction p = tagger.predict(fixtureDocument(longDoc));
        QVERIFY2(p.ok, qPrintable(p.error));
        // The truncation point of the reference is 60 tokens (about 20 words); entities past it exist.
        int last = -1;
        for (const auto &s : p.entities)
            last = std::max(last, s.words.back());
        QVERIFY2(last > int(longDoc["words"].size()) - 20, qPrintable(QString::number(last)));
    }

    void badFoldersAreRefusedAndThePreviousModelKept()
    {
        FOLIO_REQUIRE_DATA(pipelineCase() + QStringLiteral("/checkpoint"));
        const json docs = readJson(pipelineCase() + QStringLiteral("/documents.json"));
        const Document doc = fixtureDocument(docs["documents"][0]);
        pipeline::DocumentTagger tagger;
        QString error;
        QVERIFY2(tagger.load(kTagger, &error), qPrintable(error)); // Folio's own tagger first
        const pipeline::DocumentPrediction before = tagger.predict(doc);
        QVERIFY2(before.ok, qPrintable(before.error));
        const QStringList labelsBefore = tagger.labels();

        auto refused = [&](const QString &dir, const QString &file, const QString &needle) {
            QString e;
            QVERIFY(!tagger.load(dir, &e));
            QVERIFY2(e.contains(file) && e.contains(needle), qPrintable(e));
            QCOMPARE(tagger.checkpointDir(), kTagger);
            QCOMPARE(tagger.labels(), labelsBefore);
            const pipeline::DocumentPrediction after = tagger.predict(doc);
            QVERIFY2(after.ok, qPrintable(after.error));
            QCOMPARE(after.entities.size(), before.entities.size());
        };
        for (const QString &missing : {QStringLiteral("vocab.json"), QStringLiteral("merges.txt")}) {
            QTemporaryDir dir;
            copyFolder(pipelineCase() + QStringLiteral("/checkpoint"), dir.path());
            QVERIFY(QFile::remove(dir.filePath(missing)));
            refused(dir.path(), missing, QString());
        }
        QTemporaryDir dir;
        copyFolder(pipelineCase() + QStringLiteral("/checkpoint"), dir.path());
        json config = readJson(dir.filePath(QStringLiteral("config.json")));
        config["model_type"] = "bert";
        QVERIFY(writeFile(dir.filePath(QStringLiteral("config.json")), QByteArray::fromStdString(config.dump())));
        refused(dir.path(), QStringLiteral("config.json"), QStringLiteral("model_type \"bert\""));
        config["model_type"] = "layoutlmv3";
        config["id2label"].erase("4");
        QVERIFY(writeFile(dir.filePath(QStringLiteral("config.json")), QByteArray::fromStdString(config.dump())));
        refused(dir.path(), QStringLiteral("config.json"), QStringLiteral("id2label names 4 labels"));
        config = readJson(pipelineCase() + QStringLiteral("/checkpoint/config.json"));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("config.json")), QByteArray::fromStdString(config.dump())));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("preprocessor_config.json")), "{\"image_std\": [0.5, 0, 0.5]}"));
        refused(dir.path(), QStringLiteral("preprocessor_config.json"), QStringLiteral("image_std[1] is 0"));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("model.safetensors")), "not a safetensors file"));
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("preprocessor_config.json"))));
        refused(dir.path(), QStringLiteral("model.safetensors"), QString());
        // Weights as pytorch_model.bin that is not a torch.save archive (tst_torchpickle covers hostile pickles).
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("model.safetensors"))));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("pytorch_model.bin")), QByteArray(200, 'P')));
        refused(dir.path(), QStringLiteral("pytorch_model.bin"), QStringLiteral("not a zip archive"));

        // And the other way round: a HF checkpoint stays when a broken tagger folder is chosen.
        QVERIFY2(tagger.load(pipelineCase() + QStringLiteral("/checkpoint"), &error), qPrintable(error));
        QTemporaryDir empty;
        QString e;
        QVERIFY(!tagger.load(empty.path(), &e));
        QVERIFY2(e.contains(QStringLiteral("config.json")), qPrintable(e));
        QCOMPARE(tagger.labels().size(), 5);
        QVERIFY(tagger.predict(doc).ok);
    }

    void attentionOnAHfCheckpointRollsUpToWords()
    {
        FOLIO_REQUIRE_DATA(pipelineCase() + QStringLiteral("/documents.json"));
        const json docs = readJson(pipelineCase() + QStringLiteral("/documents.json"));
        const json expected = readJson(pipelineCase() + QStringLiteral("/expected.json"));
        const Document doc = fixtureDocument(docs["documents"][0]);
        const AttentionRunResult r = runAttentionOnDocument(pipelineCase() + QStringLiteral("/checkpoint"), doc, 0);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.trace.modelType, QStringLiteral("layoutlmv3"));
        QCOMPARE(r.trace.layerCount, 2);
        QCOMPARE(r.trace.headCount, 4);
        QCOMPARE(r.trace.windows.size(), std::size_t(1));
        const json &want = expected["documents"][0];
        QCOMPARE(r.trace.tokenCount(), want["n_tokens"].get<int>());
        QCOMPARE(r.trace.tokenText.front(), QStringLiteral("<s>"));
        QCOMPARE(r.labels.size(), 16);
        for (const auto &w : want["words"])
            QCOMPARE(r.labels[w["index"].get<int>()].toStdString(), w["pred_label"].get<std::string>());
        // Word 0 ("B&W", tokens 1-3) to word 1 ("WCC", tokens 4-6), layer 0 head 0, by hand.
        QCOMPARE(r.trace.tokenWord[1], 0);
        QCOMPARE(r.trace.tokenWord[3], 0);
        QCOMPARE(r.trace.tokenWord[4], 1);
        const int l = r.trace.windows[0].length;
        const float *p = r.trace.layerData(0, 0); // [heads, L, L]: head 0 first
        double byHand = 0;
        for (int q = 1; q <= 3; ++q)
            for (int k = 4; k <= 6; ++k)
                byHand += p[q * l + k];
        byHand /= 3;
        const std::vector<float> head0(p, p + std::size_t(l) * std::size_t(l));
        const AttentionUnits units = buildAttentionUnits(AttentionGranularity::Words, r.trace, &doc, nullptr);
        const UnitMatrix m = rollUpAttention(r.trace, {head0}, units, RollUpRule::SumKeysMeanQueries);
        QCOMPARE(m.size, 16);
        QVERIFY2(std::abs(m.values[1] - byHand) < 1e-6, qPrintable(QString::number(m.values[1]) + " vs " + QString::number(byHand)));
        QVERIFY(byHand > 0);

        // A long page: several (overlapping) windows, every word labelled.
        const Document longDoc = fixtureDocument(docs["documents"][2]);
        const AttentionRunResult longRun = runAttentionOnDocument(pipelineCase() + QStringLiteral("/checkpoint"), longDoc, 0);
        QVERIFY2(longRun.ok, qPrintable(longRun.error));
        QVERIFY(longRun.trace.windows.size() > 3);
        QVERIFY(!longRun.labels.contains(QString()));
    }

    void pixelValuesAreNormalisedChannelsFirst()
    {
        QImage image(4, 2, QImage::Format_RGB32);
        image.fill(QColor(255, 0, 0));
        image.setPixelColor(1, 0, QColor(10, 128, 250));
        pipeline::ImageProcessing p;
        p.size = 4;
        p.doResize = false;
        p.mean = {0.485f, 0.456f, 0.406f};
        p.std = {0.229f, 0.224f, 0.225f};
        QString error;
        QVERIFY(pipeline::pagePixelValues(image, p, &error).shape.empty()); // 4 x 2, no resizing
        QVERIFY2(error.contains(QStringLiteral("4 x 2")), qPrintable(error));
        QImage square = image.copy(0, 0, 4, 4);
        square.fill(QColor(255, 0, 0));
        square.setPixelColor(1, 0, QColor(10, 128, 250));
        const inference::Tensor t = pipeline::pagePixelValues(square, p, &error);
        QCOMPARE(t.shape, std::vector<std::int64_t>({1, 3, 4, 4}));
        const float *v = t.data<float>();
        const auto at = [&](int c, int y, int x) { return v[c * 16 + y * 4 + x]; };
        QVERIFY(std::abs(at(0, 0, 1) - (10 / 255.f - 0.485f) / 0.229f) < 1e-5f);
        QVERIFY(std::abs(at(1, 0, 1) - (128 / 255.f - 0.456f) / 0.224f) < 1e-5f);
        QVERIFY(std::abs(at(2, 0, 1) - (250 / 255.f - 0.406f) / 0.225f) < 1e-5f);
        QVERIFY(std::abs(at(0, 3, 3) - (1.f - 0.485f) / 0.229f) < 1e-5f);
        QVERIFY(std::abs(at(2, 3, 3) - (0.f - 0.406f) / 0.225f) < 1e-5f);
        // Processor defaults (mean = std = 0.5) and resizing: a uniform grey stays uniform.
        QImage grey(37, 53, QImage::Format_RGB32);
        grey.fill(QColor(51, 51, 51));
        const inference::Tensor g = pipeline::pagePixelValues(grey, pipeline::ImageProcessing{}, &error);
        QCOMPARE(g.shape, std::vector<std::int64_t>({1, 3, 224, 224}));
        for (std::int64_t i = 0; i < g.numel(); i += 997)
            QVERIFY(std::abs(g.data<float>()[i] - (0.2f - 0.5f) / 0.5f) < 1e-5f);
        QVERIFY(pipeline::pagePixelValues(QImage(), p, &error).shape.empty());
    }

    void imageProcessingSettingsAreRead()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("config.json")), "{\"model_type\": \"layoutlmv3\", \"visual_embed\": true, \"input_size\": 96}"));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("preprocessor_config.json")),
                          "{\"do_resize\": true, \"resample\": 0, \"image_mean\": [0.1, 0.2, 0.3], \"image_std\": 0.25, \"do_normalize\": false}"));
        pipeline::ImageProcessing p;
        QString error;
        QVERIFY2(pipeline::readImageProcessing(dir.path(), &p, &error), qPrintable(error));
        QVERIFY(p.visual);
        QCOMPARE(p.size, 96);
        QCOMPARE(p.resample, 0);
        QVERIFY(!p.doNormalize);
        QCOMPARE(p.mean[2], 0.3f);
        QCOMPARE(p.std[0], 0.25f);
        const struct { const char *config, *pre, *needle; } bad[] = {
            {"{\"input_size\": 3}", "{}", "config.json: input_size"},
            {"{\"visual_embed\": \"yes\"}", "{}", "config.json: visual_embed"},
            {"{}", "{\"image_mean\": [1, 2]}", "preprocessor_config.json: image_mean"},
            {"{}", "{\"resample\": 9}", "preprocessor_config.json: resample"},
            {"{}", "[1, 2]", "preprocessor_config.json: not a JSON object"},
            {"not json", "{}", "config.json: not a JSON object"},
        };
        for (const auto &b : bad) {
            QVERIFY(writeFile(dir.filePath(QStringLiteral("config.json")), b.config));
            QVERIFY(writeFile(dir.filePath(QStringLiteral("preprocessor_config.json")), b.pre));
            QVERIFY(!pipeline::readImageProcessing(dir.path(), &p, &error));
            QVERIFY2(error.contains(QLatin1String(b.needle)), qPrintable(error));
        }
    }

    // LayoutLMv2 / LayoutXLM (issue 32): LayoutLMv2ImageProcessor's input, i.e. PIL's bilinear resize
    // to 224 x 224 and RGB -> BGR, uint8 channels first, byte for byte against PIL 9.4's own output
    // (tests/data/images/layoutlmv2_resize/README.md); its settings refuse another filter.
    void layoutLMv2ImageIsPilBilinearBgr()
    {
        const QString data = QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/images/layoutlmv2_resize");
        FOLIO_REQUIRE_DATA(data + QStringLiteral("/expected_bgr_224.u8"));
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("config.json")), "{\"model_type\": \"layoutlmv2\"}"));
        pipeline::ImageProcessing p;
        QString error;
        QVERIFY2(pipeline::readImageProcessing(dir.path(), &p, &error), qPrintable(error));
        QVERIFY(p.visual && p.bgrUint8 && !p.doNormalize);
        QCOMPARE(p.size, 224);
        const QImage page(data + QStringLiteral("/page.png"));
        QVERIFY(!page.isNull());
        const inference::Tensor t = pipeline::pagePixelValues(page, p, &error);
        QCOMPARE(t.dtype, inference::DType::U8);
        QCOMPARE(t.shape, std::vector<std::int64_t>({1, 3, 224, 224}));
        QFile f(data + QStringLiteral("/expected_bgr_224.u8"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray expected = f.readAll();
        QCOMPARE(qsizetype(t.bytes.size()), expected.size());
        int differing = 0;
        for (qsizetype i = 0; i < expected.size(); ++i)
            differing += t.bytes[std::size_t(i)] != std::uint8_t(expected[i]) ? 1 : 0;
        QCOMPARE(differing, 0);
        QVERIFY(writeFile(dir.filePath(QStringLiteral("preprocessor_config.json")), "{\"resample\": 3}"));
        QVERIFY(!pipeline::readImageProcessing(dir.path(), &p, &error));
        QVERIFY2(error.contains(QLatin1String("preprocessor_config.json: resample")), qPrintable(error));
    }

    // A LayoutLMv2 token-classification folder (issue 32; the parity-new layoutlmv2_visual weights, a
    // 2-label head, tests/data/tokenizers/layoutlmv2's vocabulary padded to the model's 500 rows): the
    // page image reaches the backbone; a page without one runs text + layout only, said in the
    // labelling's and DocumentPrediction's warnings.
    void layoutLMv2PagesWithAndWithoutImage()
    {
        const QString v2 = test::sharedPath(QStringLiteral("fixtures/parity-new/layoutlmv2_visual"));
        FOLIO_REQUIRE_DATA(v2 + QStringLiteral("/model.safetensors"));
        FOLIO_REQUIRE_DATA(pipelineCase() + QStringLiteral("/documents.json"));
        QTemporaryDir dir;
        json config = readJson(v2 + QStringLiteral("/config.json"));
        config["architectures"] = json::array({"LayoutLMv2ForTokenClassification"});
        config["id2label"] = json{{"0", "O"}, {"1", "B-FIELD"}};
        QVERIFY(writeFile(dir.filePath(QStringLiteral("config.json")), QByteArray::fromStdString(config.dump())));
        inference::TensorMap weights;
        for (auto &kv : inference::readSafetensors((v2 + QStringLiteral("/model.safetensors")).toStdString()))
            weights["layoutlmv2." + kv.first] = kv.second;
        const int hidden = config["hidden_size"].get<int>();
        std::vector<float> w(std::size_t(2 * hidden));
        for (std::size_t i = 0; i < w.size(); ++i)
            w[i] = float(int(i % 5) - 2) * 0.3f;
        weights["classifier.weight"] = inference::Tensor::fromFloats({2, hidden}, w);
        weights["classifier.bias"] = inference::Tensor::fromFloats({2}, {0.f, 0.f});
        inference::writeSafetensors(dir.filePath(QStringLiteral("model.safetensors")).toStdString(), weights);
        const QString tok = QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/tokenizers/layoutlmv2");
        QVERIFY(QFile::copy(tok + QStringLiteral("/tokenizer_config.json"), dir.filePath(QStringLiteral("tokenizer_config.json"))));
        QFile vocabIn(tok + QStringLiteral("/vocab.txt"));
        QVERIFY(vocabIn.open(QIODevice::ReadOnly));
        QByteArray vocab = vocabIn.readAll();
        for (int i = int(vocab.count('\n')); i < config["vocab_size"].get<int>(); ++i)
            vocab += QByteArrayLiteral("[unused") + QByteArray::number(i) + QByteArrayLiteral("]\n");
        QVERIFY(writeFile(dir.filePath(QStringLiteral("vocab.txt")), vocab));

        pipeline::HfPageLabeller labeller;
        QString error;
        QVERIFY2(labeller.load(dir.path(), &error), qPrintable(error));
        QVERIFY(labeller.imageProcessing().bgrUint8);
        QVERIFY(labeller.classifier().takesImage());
        const json docs = readJson(pipelineCase() + QStringLiteral("/documents.json"));
        auto run = [&](const QString &imagePath) {
            const Document doc = fixtureDocument(docs["documents"][0], imagePath);
            return labeller.labelPage(pipeline::taggerPagesOfDocument(doc, nullptr).front(), doc);
        };
        auto pagePath = [&](const QColor &colour) {
            QImage image(300, 400, QImage::Format_RGB32);
            image.fill(colour);
            const QString path = dir.filePath(QStringLiteral("page-%1.png").arg(colour.name().mid(1)));
            image.save(path);
            return path;
        };
        auto confidences = [](const inference::WordLabelling &l) {
            std::vector<float> c;
            for (const auto &word : l.words)
                c.push_back(word.confidence);
            return c;
        };
        const inference::WordLabelling white = run(pagePath(Qt::white));
        QVERIFY2(white.ok, white.error.c_str());
        QVERIFY(white.warnings.empty());
        const inference::WordLabelling dark = run(pagePath(QColor(20, 40, 200)));
        QVERIFY2(dark.ok, dark.error.c_str());
        QVERIFY(confidences(dark) != confidences(white)); // the image reaches the model
        const inference::WordLabelling none = run(QString());
        QVERIFY2(none.ok, none.error.c_str());
        QCOMPARE(none.warnings.size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(none.warnings[0]).contains(QLatin1String("no page image")), none.warnings[0].c_str());

        pipeline::DocumentTagger tagger;
        QVERIFY2(tagger.load(dir.path(), &error), qPrintable(error));
        const pipeline::DocumentPrediction p = tagger.predict(fixtureDocument(docs["documents"][0]));
        QVERIFY2(p.ok, qPrintable(p.error));
        QCOMPARE(p.warnings.size(), qsizetype(1));
        QVERIFY2(p.warnings[0].contains(QLatin1String("text + layout only")), qPrintable(p.warnings[0]));
    }

    void theImageBranchSeesThePage()
    {
        FOLIO_REQUIRE_DATA(visualCase() + QStringLiteral("/model.safetensors"));
        FOLIO_REQUIRE_DATA(pipelineCase() + QStringLiteral("/checkpoint"));
        // The visual fixture (vocab 500, input_size 64) with a 2-label head and the pipeline case's
        // tokenizer cut to the ids below 500 (other pieces become <unk>).
        QTemporaryDir dir;
        copyFolder(visualCase(), dir.path());
        copyFolder(pipelineCase() + QStringLiteral("/checkpoint"), dir.path()); // tokenizer files (and its config, replaced below)
        json config = readJson(visualCase() + QStringLiteral("/config.json"));
        QVERIFY(config["visual_embed"].get<bool>());
        config["architectures"] = json::array({"LayoutLMv3ForTokenClassification"});
        config["id2label"] = json{{"0", "O"}, {"1", "B-FIELD"}};
        QVERIFY(writeFile(dir.filePath(QStringLiteral("config.json")), QByteArray::fromStdString(config.dump())));
        const json vocab = readJson(pipelineCase() + QStringLiteral("/checkpoint/vocab.json"));
        json cut = json::object();
        for (auto it = vocab.begin(); it != vocab.end(); ++it)
            if (it.value().get<int>() < config["vocab_size"].get<int>())
                cut[it.key()] = it.value();
        QVERIFY(writeFile(dir.filePath(QStringLiteral("vocab.json")), QByteArray::fromStdString(cut.dump())));
        inference::TensorMap weights = inference::readSafetensors(dir.filePath(QStringLiteral("model.safetensors")).toStdString());
        const int hidden = config["hidden_size"].get<int>();
        std::vector<float> w(std::size_t(2 * hidden));
        for (std::size_t i = 0; i < w.size(); ++i)
            w[i] = float(int(i % 7) - 3) * 0.05f;
        weights["classifier.weight"] = inference::Tensor::fromFloats({2, hidden}, w);
        weights["classifier.bias"] = inference::Tensor::fromFloats({2}, {0.f, 0.f});
        inference::writeSafetensors(dir.filePath(QStringLiteral("model.safetensors")).toStdString(), weights);

        pipeline::HfPageLabeller labeller;
        QString error;
        QVERIFY2(labeller.load(dir.path(), &error), qPrintable(error));
        QVERIFY(labeller.imageProcessing().visual);
        QCOMPARE(labeller.imageProcessing().size, config["input_size"].get<int>());

        const json docs = readJson(pipelineCase() + QStringLiteral("/documents.json"));
        auto confidencesWith = [&](const QColor &colour, bool *ok, QString *why) {
            QImage image(300, 400, QImage::Format_RGB32);
            image.fill(colour);
            const QString path = dir.filePath(QStringLiteral("page-%1.png").arg(colour.name().mid(1)));
            image.save(path);
            const Document doc = fixtureDocument(docs["documents"][0], path);
            const auto pages = pipeline::taggerPagesOfDocument(doc, nullptr);
            const inference::WordLabelling l = labeller.labelPage(pages.front(), doc);
            *ok = l.ok;
            *why = QString::fromStdString(l.error);
            std::vector<float> c;
            for (const auto &word : l.words)
                c.push_back(word.confidence);
            return c;
        };
        bool ok = false;
        QString why;
        const std::vector<float> white = confidencesWith(Qt::white, &ok, &why);
        QVERIFY2(ok, qPrintable(why));
        QCOMPARE(white.size(), std::size_t(16));
        const std::vector<float> white2 = confidencesWith(Qt::white, &ok, &why);
        QCOMPARE(white2, white); // deterministic
        const std::vector<float> dark = confidencesWith(QColor(20, 40, 200), &ok, &why);
        QVERIFY2(ok, qPrintable(why));
        QVERIFY(dark != white); // the image reaches the model

        // A page without an image cannot feed the branch: a message, no labels.
        const Document noImage = fixtureDocument(docs["documents"][0]);
        const inference::WordLabelling l = labeller.labelPage(pipeline::taggerPagesOfDocument(noImage, nullptr).front(), noImage);
        QVERIFY(!l.ok);
        QVERIFY2(QString::fromStdString(l.error).contains(QStringLiteral("no image")), l.error.c_str());
        // Through DocumentTagger the error names the document and page.
        pipeline::DocumentTagger tagger;
        QVERIFY2(tagger.load(dir.path(), &error), qPrintable(error));
        const pipeline::DocumentPrediction p = tagger.predict(noImage);
        QVERIFY(!p.ok);
        QVERIFY2(p.error.contains(QStringLiteral("fixture.json, page 1")), qPrintable(p.error));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestHfPrediction)
#include "tst_hfprediction.moc"
