// `train --init HFDIR` with a LayoutXLM / LayoutLMv2 folder below the command line (issue 46): a
// tiny LayoutLMv2Model with its detectron2 backbone (the seeded random weights of
// ../shared/fixtures/parity-new/layoutlmv2_visual, no head) and the XLM-R SentencePiece tokenizer of
// tests/data/tokenizers/layoutxlm (LayoutXLM) or the WordPiece one (LayoutLMv2), fine-tuned on
// generated pages with page images: a new head for the data's labels, windows of whole words, the
// image as the model's uint8 BGR `image`, the folder written as LayoutLMv2ForTokenClassification with
// the tokenizer files and a model card; HfTokenClassifier reads it back and gives, for a page, the
// logits the fine-tuned weights give through HfFineTuner on the window the fine-tuning built.
// Pages without an image train on text + layout (counted).
#include "inference/checkpoint/safetensors.h"
#include "inference/models/hftokenclassifier.h"
#include "inference/tokenizers/hflayouttokenizer.h"
#include "inference/training/hf/hffinetuner.h"
#include "pipeline/hffinetuning.h"
#include "pipeline/pagepixels.h"
#include "tests/common/testdata.h"
#include "tests/inference/tensorcompare.h"

#include <QColor>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>

using namespace folio;
using namespace folio::pipeline;
using folio::inference::test::compareTensors;

namespace {

const std::vector<std::string> kLabels{"O", "B-QUESTION", "I-QUESTION", "B-ANSWER", "I-ANSWER"};

QString v2Fixture()
{
    return test::sharedPath(QStringLiteral("fixtures/parity-new/layoutlmv2_visual"));
}

QString tokenizers()
{
    return QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/tokenizers");
}

nlohmann::json readJson(const QString &path)
{
    std::ifstream in(path.toStdString());
    return nlohmann::json::parse(in, nullptr, false);
}

// A LayoutLMv2Model folder without a head: `xlm` gives it the LayoutXLM tokenizer (the word table
// cut to its ids), otherwise the WordPiece vocab.txt padded to the table.
bool makeFolder(const QString &dir, bool xlm)
{
    nlohmann::json config = readJson(v2Fixture() + "/config.json");
    if (!config.is_object() || !QDir().mkpath(dir))
        return false;
    config.erase("id2label");
    config.erase("label2id");
    std::int64_t vocab = config["vocab_size"].get<std::int64_t>();
    if (xlm)
        vocab = readJson(tokenizers() + "/layoutxlm/cases.json")["vocab_size"].get<std::int64_t>();
    config["vocab_size"] = vocab;
    std::ofstream(dir.toStdString() + "/config.json") << config.dump(2);
    inference::TensorMap weights;
    for (auto &kv : inference::readSafetensors((v2Fixture() + "/model.safetensors").toStdString())) {
        inference::Tensor t = kv.second;
        if (kv.first == "embeddings.word_embeddings.weight") {
            t.shape[0] = vocab;
            t.bytes.resize(std::size_t(vocab * t.shape[1]) * sizeof(float));
        }
        weights["layoutlmv2." + kv.first] = t;
    }
    inference::writeSafetensors(dir.toStdString() + "/model.safetensors", weights);
    const QString tok = tokenizers() + (xlm ? "/layoutxlm" : "/layoutlmv2");
    if (!QFile::copy(tok + "/tokenizer_config.json", dir + "/tokenizer_config.json"))
        return false;
    if (xlm)
        return QFile::copy(tok + "/sentencepiece.bpe.model", dir + "/sentencepiece.bpe.model");
    QFile in(tok + "/vocab.txt");
    if (!in.open(QIODevice::ReadOnly))
        return false;
    QByteArray lines = in.readAll();
    for (int i = int(lines.count('\n')); i < vocab; ++i)
        lines += "[unused" + QByteArray::number(i) + "]\n";
    QFile out(dir + "/vocab.txt");
    return out.open(QIODevice::WriteOnly) && out.write(lines) == lines.size();
}

// Page k: question / answer pairs on lines, each with a drawn image ("" when !images).
std::vector<HfTrainPage> pages(const QString &dir, int count, bool images)
{
    static const char *const questions[] = {"Name:", "Datum:", "Straße", "Ort", "Telefon", "Betrag"};
    static const char *const answers[] = {"Anna", "12.03.2021", "Hauptstraße 5", "Berlin", "030 1234", "17,50 EUR"};
    std::vector<HfTrainPage> out;
    for (int k = 0; k < count; ++k) {
        HfTrainPage p;
        p.page.id = "page" + std::to_string(k);
        QImage img(300, 400, QImage::Format_RGB32);
        img.fill(Qt::white);
        QPainter paint(&img);
        for (int line = 0; line < 6; ++line) {
            const int q = (line + k) % 6;
            const int y0 = 40 + line * 140, y1 = y0 + 30;
            p.page.words.push_back(questions[q]);
            p.page.boxes.push_back({60, y0, 300, y1});
            p.page.tags.push_back("B-QUESTION");
            const QStringList parts = QString::fromUtf8(answers[q]).split(QLatin1Char(' '));
            for (int w = 0; w < parts.size(); ++w) {
                p.page.words.push_back(parts[w].toStdString());
                p.page.boxes.push_back({340 + 200 * w, y0, 520 + 200 * w, y1});
                p.page.tags.push_back(w == 0 ? "B-ANSWER" : "I-ANSWER");
            }
            paint.fillRect(18, y0 * 400 / 1000, 70, 10, QColor(40 * line, 0, 0));
        }
        paint.end();
        if (images) {
            p.imagePath = dir + QStringLiteral("/page%1.png").arg(k);
            img.save(p.imagePath);
        }
        out.push_back(std::move(p));
    }
    return out;
}

} // namespace

class TestHfFineTuningLayoutLMv2 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { FOLIO_REQUIRE_DATA(v2Fixture() + "/model.safetensors"); }

    void fineTunesAndReadsBack_data()
    {
        QTest::addColumn<bool>("xlm");
        QTest::newRow("LayoutXLM (XLM-R SentencePiece)") << true;
        QTest::newRow("LayoutLMv2 (WordPiece)") << false;
    }
    void fineTunesAndReadsBack()
    {
        QFETCH(bool, xlm);
        QTemporaryDir tmp;
        const QString base = tmp.path() + "/base", out = tmp.path() + "/out";
        QVERIFY(makeFolder(base, xlm));
        QVERIFY(isHfFineTunableFolder(base));
        const std::vector<HfTrainPage> train = pages(tmp.path(), 4, true);
        HfFineTuneConfig cfg;
        cfg.initDir = base;
        cfg.outDir = out;
        cfg.labels = kLabels;
        cfg.epochs = 2;
        cfg.batchSize = 2;
        cfg.lr = 1e-3;
        cfg.maxTokens = 12; // a page takes several windows
        cfg.command = "folio-cli train --init base";
        cfg.dataDescription = "generated pages";
        std::vector<HfTrainPage> devPages(train.begin(), train.begin() + 1);
        const HfFineTuneOutcome o = fineTuneHfTokenClassifier(cfg, train, devPages, {}, nullptr);
        QVERIFY2(o.ok, qPrintable(o.error));
        QVERIFY(o.newHead);
        QCOMPARE(o.pagesWithoutImage, 0);
        QVERIFY(o.trainWindows > 4); // windows of 12 tokens
        QCOMPARE(o.lossPerEpoch.size(), std::size_t(2));
        QVERIFY(std::isfinite(o.finalLoss));
        const nlohmann::json config = readJson(out + "/config.json");
        QCOMPARE(config["architectures"], nlohmann::json::array({"LayoutLMv2ForTokenClassification"}));
        QCOMPARE(config["id2label"].size(), kLabels.size());
        QVERIFY(QFile::exists(out + (xlm ? "/sentencepiece.bpe.model" : "/vocab.txt")));
        QVERIFY(QFile::exists(out + "/tokenizer_config.json"));
        QFile card(out + "/README.md");
        QVERIFY(card.open(QIODevice::ReadOnly));
        QVERIFY(card.readAll().contains("LayoutLMv2ForTokenClassification"));
        QVERIFY(!QDir(out + "/last").exists());

        // Read back: HfTokenClassifier on a page that fits one window gives the logits of the
        // fine-tuned weights through HfFineTuner on the window the fine-tuning builds.
        inference::HfTokenClassifier classifier;
        std::string error;
        QVERIFY2(classifier.load(out.toStdString(), &error), error.c_str());
        QVERIFY(classifier.takesImage());
        QCOMPARE(classifier.labels(), kLabels);
        ImageProcessing processing;
        QString why;
        QVERIFY2(readImageProcessing(out, &processing, &why), qPrintable(why));
        const inference::Tensor px = pagePixelValues(QImage(train[0].imagePath), processing, &why);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QCOMPARE(px.dtype, inference::DType::U8);
        const inference::TaggerPage &page = train[0].page;
        const inference::WordLabelling labelled =
            classifier.label(page.words, page.boxes, inference::HfTokenClassifier::LongPages::Slide, {}, &px);
        QVERIFY2(labelled.ok, labelled.error.c_str());
        QVERIFY(labelled.warnings.empty()); // the image was used
        QCOMPARE(labelled.windows.size(), std::size_t(1));
        inference::HfFineTuner tuner;
        QVERIFY2(tuner.load(out.toStdString(), &error), error.c_str());
        const inference::HfLayoutTokenizer tokenizer = inference::HfLayoutTokenizer::fromDirectory(out.toStdString());
        const std::vector<HfEncodedWindow> windows = hfPageWindows(tokenizer, page, 0, kLabels, 128);
        QCOMPARE(windows.size(), std::size_t(1));
        inference::TensorMap in = hfBatch({&windows[0]}, tokenizer.padId(), {&px});
        in["image"] = in.at("pixel_values");
        in.erase("pixel_values");
        const inference::RunResult r = tuner.forward(in);
        QVERIFY2(r.ok, r.error.c_str());
        const auto diff = compareTensors(labelled.windows[0].at("logits"), r.outputs.at("logits"), 1e-5, 1e-5);
        QVERIFY2(diff.ok, diff.message.c_str());
    }

    void pagesWithoutImagesTrainOnTextAndLayout()
    {
        QTemporaryDir tmp;
        const QString base = tmp.path() + "/base";
        QVERIFY(makeFolder(base, true));
        HfFineTuneConfig cfg;
        cfg.initDir = base;
        cfg.outDir = tmp.path() + "/out";
        cfg.labels = kLabels;
        cfg.epochs = 1;
        cfg.lr = 1e-3;
        std::vector<std::string> notes;
        const HfFineTuneOutcome o =
            fineTuneHfTokenClassifier(cfg, pages(tmp.path(), 3, false), {}, [&](const HfFineTuneProgress &p) {
                if (!p.message.empty())
                    notes.push_back(p.message);
            }, nullptr);
        QVERIFY2(o.ok, qPrintable(o.error));
        QCOMPARE(o.pagesWithoutImage, 3);
        QVERIFY(std::any_of(notes.begin(), notes.end(),
                            [](const std::string &n) { return n.find("have no image") != std::string::npos; }));
        // A tag the label set lacks is refused, naming the page and the tag.
        HfFineTuneConfig narrow = cfg;
        narrow.labels = {"O", "B-QUESTION"};
        narrow.outDir = tmp.path() + "/narrow";
        const HfFineTuneOutcome bad = fineTuneHfTokenClassifier(narrow, pages(tmp.path(), 1, false), {}, {}, nullptr);
        QVERIFY(!bad.ok);
        QVERIFY2(bad.error.contains(QLatin1String("B-ANSWER")) && bad.error.contains(QLatin1String("page0")), qPrintable(bad.error));
        QVERIFY(!QFile::exists(narrow.outDir + "/model.safetensors"));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestHfFineTuningLayoutLMv2)
#include "tst_hffinetuning_layoutlmv2.moc"
