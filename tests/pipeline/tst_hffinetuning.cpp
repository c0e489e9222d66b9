// `train --init HFDIR` below the command line (pipeline/hffinetuning.h, issue 46): the windows of
// long FUNSD pages (every word labelled once, on its first sub-token), a fine-tuning run of the tiny
// LayoutLMv3 checkpoint (parity-next/layoutlmv3_pipeline, 5 labels) on FUNSD pages (7 labels: a new
// head) written as a Hugging Face folder, read back by HfTokenClassifier with the logits the tuner
// had in memory, the model card, an interrupted run resumed to the same weights, the image branch,
// LiLT, and refusals.
#include "inference/checkpoint/safetensors.h"
#include "inference/models/hftokenclassifier.h"
#include "inference/models/modelrunner.h"
#include "inference/training/hf/hffinetuner.h"
#include "pipeline/hffinetuning.h"
#include "pipeline/pagepixels.h"
#include "pipeline/taggertraining.h"
#include "pipeline/unitwindows.h"
#include "tests/common/testdata.h"
#include "tests/inference/tensorcompare.h"

#include <QDir>
#include <QImage>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <set>

using namespace folio;
using namespace folio::pipeline;
using folio::inference::test::compareTensors;

namespace {

QString tinyCheckpoint()
{
    return test::sharedPath(QStringLiteral("fixtures/parity-next/layoutlmv3_pipeline/checkpoint"));
}

QString funsd()
{
    return test::sharedPath(QStringLiteral("data/funsd/dataset"));
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A model fixture made trainable on FUNSD words: the tiny checkpoint's BPE tokenizer files copied in,
// config.json's vocab_size raised to the tokenizer's and the word table widened (the new rows
// repeat the old ones). Returns the folder ("" on failure).
QString withTinyTokenizer(const QString &fixture, const QString &dest, const std::string &wordKey)
{
    if (!QDir().mkpath(dest))
        return {};
    for (const char *f : {"vocab.json", "merges.txt", "tokenizer_config.json", "special_tokens_map.json"})
        if (!QFile::copy(tinyCheckpoint() + QLatin1Char('/') + QLatin1String(f), dest + QLatin1Char('/') + QLatin1String(f)))
            return {};
    QJsonObject config = QJsonDocument::fromJson(readAll(fixture + QStringLiteral("/config.json"))).object();
    const int vocab = QJsonDocument::fromJson(readAll(tinyCheckpoint() + QStringLiteral("/config.json"))).object()
                          .value(QStringLiteral("vocab_size")).toInt();
    config.insert(QStringLiteral("vocab_size"), vocab);
    QFile cf(dest + QStringLiteral("/config.json"));
    if (!cf.open(QIODevice::WriteOnly) || cf.write(QJsonDocument(config).toJson()) <= 0)
        return {};
    cf.close();
    inference::TensorMap weights = inference::readSafetensors((fixture + "/model.safetensors").toStdString());
    inference::Tensor &word = weights.at(wordKey);
    const std::int64_t rows = word.shape[0];
    const std::size_t rowBytes = word.bytes.size() / std::size_t(rows);
    for (std::int64_t r = rows; r < vocab; ++r)
        word.bytes.insert(word.bytes.end(), word.bytes.begin() + long(rowBytes * std::size_t(r % rows)),
                          word.bytes.begin() + long(rowBytes * std::size_t(r % rows + 1)));
    word.shape[0] = std::max<std::int64_t>(rows, vocab);
    inference::writeSafetensors((dest + "/model.safetensors").toStdString(), weights, {{"format", "pt"}});
    return dest;
}

} // namespace

class TestHfFineTuning : public QObject
{
    Q_OBJECT

private:
    std::vector<HfTrainPage> m_train, m_dev;
    std::vector<std::string> m_labels;

private Q_SLOTS:
    void initTestCase()
    {
        FOLIO_REQUIRE_DATA(tinyCheckpoint() + QStringLiteral("/model.safetensors"));
        FOLIO_REQUIRE_DATA(funsd() + QStringLiteral("/training_data/annotations/0000971160.json"));
        inference::configureThreads(1);
        std::vector<inference::TaggerPage> train, dev;
        QString error;
        QVERIFY2(loadFunsdSplit(funsd(), QStringLiteral("train-dev"), FunsdWordOrder::Annotation, &train, &error), qPrintable(error));
        QVERIFY2(loadFunsdSplit(funsd(), QStringLiteral("dev"), FunsdWordOrder::Annotation, &dev, &error), qPrintable(error));
        for (std::size_t i = 0; i < 3; ++i)
            m_train.push_back({train[i], funsdPageImage(funsd(), train[i].id)});
        m_dev.push_back({dev[0], funsdPageImage(funsd(), dev[0].id)});
        QVERIFY(!m_train[0].imagePath.isEmpty());
        m_labels = formSourceTags(funsd());
        QCOMPARE(m_labels.size(), std::size_t(7));
    }

    // Windows of whole words within the model's length; each word owned (labelled) by one window,
    // its label on its first sub-token only.
    void windowsLabelEveryWordOnce()
    {
        const auto tokenizer = inference::HfLayoutTokenizer::fromDirectory(tinyCheckpoint().toStdString());
        const inference::TaggerPage &page = m_train[0].page;
        const int maxTokens = 64;
        const std::vector<HfEncodedWindow> windows = hfPageWindows(tokenizer, page, 0, m_labels, maxTokens);
        QVERIFY2(windows.size() > 3, "a FUNSD page is several 64-token windows");
        std::vector<int> owner(page.words.size(), -1);
        int labelled = 0;
        for (std::size_t k = 0; k < windows.size(); ++k) {
            const HfEncodedWindow &w = windows[k];
            QVERIFY(int(w.tokens.inputIds.size()) <= maxTokens);
            QCOMPARE(w.tokens.inputIds.front(), tokenizer.clsId());
            if (k > 0) // overlapping: the window starts before the words it owns
                QVERIFY(w.tokens.wordIds[1] < w.firstOwnedWord);
            for (int i = w.firstOwnedWord; i < w.endOwnedWord; ++i) {
                QCOMPARE(owner[std::size_t(i)], -1);
                owner[std::size_t(i)] = int(k);
            }
            int prev = -1;
            for (std::size_t p = 0; p < w.tokens.wordIds.size(); ++p) {
                const int word = w.tokens.wordIds[p];
                const int label = w.tokens.labels[p];
                const bool first = word >= 0 && word != prev;
                prev = word;
                if (first && word >= w.firstOwnedWord && word < w.endOwnedWord) {
                    QCOMPARE(m_labels[std::size_t(label)], page.tags[std::size_t(word)]);
                    ++labelled;
                } else {
                    QCOMPARE(label, -100);
                }
            }
        }
        for (int o : owner)
            QVERIFY(o >= 0);
        int nonEmpty = 0;
        for (const std::string &w : page.words)
            nonEmpty += w.empty() ? 0 : 1;
        QCOMPARE(labelled, nonEmpty);
        // A page that fits is one window: the reference's own call.
        inference::TaggerPage small = page;
        small.words.resize(5);
        small.boxes.resize(5);
        small.tags.resize(5);
        const auto one = hfPageWindows(tokenizer, small, 0, m_labels, 512);
        QCOMPARE(one.size(), std::size_t(1));
        const inference::LayoutTokens ref = tokenizer.encode(small.words, small.boxes, nullptr, 512, true);
        QCOMPARE(one[0].tokens.inputIds, ref.inputIds);
        // A tag outside the label set is refused, naming it.
        small.tags[2] = "B-SIGNATURE";
        QVERIFY_THROWS_EXCEPTION(std::exception, hfPageWindows(tokenizer, small, 0, m_labels, 512));
    }

    // Fine-tuned in memory, written, read back by Folio's inference path: the same logits.
    // The window plan itself: every unit owned by exactly one window, in order, and a unit too long
    // to follow the shared context gets a window of its own (the word plan used to repeat that
    // window without end: three 1-token words, then one of 8, with a budget of 8).
    void windowPlanOwnsEveryUnitOnce()
    {
        for (const std::vector<int> &tokens : {std::vector<int>{1, 1, 1, 8, 1}, std::vector<int>{3, 3, 3, 3, 3, 3},
                                                std::vector<int>{20, 1, 1}, std::vector<int>{0, 2, 0, 7, 7, 1}}) {
            const std::vector<UnitWindow> plan = planUnitWindows(tokens, 8);
            QVERIFY(!plan.empty() && plan.size() <= tokens.size());
            std::size_t next = 0;
            for (const UnitWindow &w : plan) {
                QCOMPARE(w.owned, next);
                QVERIFY(w.begin <= w.owned && w.owned < w.end);
                next = w.end;
            }
            QCOMPARE(next, tokens.size());
        }
    }

    void writtenFolderGivesInMemoryLogits()
    {
        const auto tokenizer = inference::HfLayoutTokenizer::fromDirectory(tinyCheckpoint().toStdString());
        inference::HfFineTuner tuner;
        std::string error;
        QVERIFY2(tuner.load(tinyCheckpoint().toStdString(), &error), error.c_str());
        bool newHead = false;
        QVERIFY(tuner.setLabels(m_labels, 5, &newHead, &error));
        QVERIFY(newHead); // the checkpoint has 5 labels (no HEADER)
        inference::HfFineTuneOptions o;
        o.lr = 1e-3;
        o.totalSteps = 4;
        tuner.setOptions(o);
        const std::vector<HfEncodedWindow> windows = hfPageWindows(tokenizer, m_train[1].page, 0, m_labels, 64);
        for (int s = 0; s < 4; ++s) {
            const inference::HfStepResult r = tuner.step(hfBatch({&windows[std::size_t(s) % windows.size()],
                                                                   &windows[std::size_t(s + 1) % windows.size()]},
                                                                  tokenizer.padId()));
            QVERIFY2(r.ok, r.error.c_str());
        }
        QTemporaryDir tmp;
        const QString out = tmp.filePath(QStringLiteral("tuned"));
        QVERIFY2(tuner.saveFolder(out.toStdString(), tinyCheckpoint().toStdString(), "card", &error), error.c_str());
        for (const char *f : {"vocab.json", "merges.txt", "tokenizer_config.json", "special_tokens_map.json"})
            QCOMPARE(readAll(out + QLatin1Char('/') + QLatin1String(f)), readAll(tinyCheckpoint() + QLatin1Char('/') + QLatin1String(f)));
        // HfTokenClassifier on the written folder: each window's logits equal the tuner's in memory.
        inference::HfTokenClassifier classifier;
        QVERIFY2(classifier.load(out.toStdString(), &error), error.c_str());
        QCOMPARE(classifier.labels(), m_labels);
        const inference::TaggerPage &page = m_dev[0].page;
        const inference::WordLabelling lab = classifier.label(page.words, page.boxes);
        QVERIFY2(lab.ok, lab.error.c_str());
        QVERIFY(lab.windows.size() > 1);
        for (const inference::TensorMap &w : lab.windows) {
            inference::TensorMap in = w;
            in.erase("logits");
            const inference::RunResult mine = tuner.forward(in);
            QVERIFY2(mine.ok, mine.error.c_str());
            const auto d = compareTensors(w.at("logits"), mine.outputs.at("logits"), 1e-6, 1e-5);
            QVERIFY2(d.ok, d.message.c_str());
        }
        // The names and shapes of the base folder, with the head for 7 labels.
        const inference::TensorMap base = inference::readSafetensors((tinyCheckpoint() + "/model.safetensors").toStdString());
        const inference::TensorMap tuned = inference::readSafetensors((out + "/model.safetensors").toStdString());
        QCOMPARE(tuned.size(), base.size());
        for (const auto &[name, t] : base) {
            QVERIFY2(tuned.count(name), name.c_str());
            if (name.rfind("classifier.", 0) == 0)
                QCOMPARE(tuned.at(name).shape.front(), std::int64_t(7));
            else
                QVERIFY2(tuned.at(name).shape == t.shape, name.c_str());
        }
    }

    // The whole run: a new head, the FUNSD windows, the dev F1, the folder and its card; then a run
    // cancelled after its first step and resumed ends with the uninterrupted run's weights.
    void runWritesHuggingFaceFolderAndResumes()
    {
        QTemporaryDir tmp;
        HfFineTuneConfig cfg;
        cfg.initDir = tinyCheckpoint();
        cfg.outDir = tmp.filePath(QStringLiteral("full"));
        cfg.labels = m_labels;
        cfg.epochs = 2;
        cfg.batchSize = 8;
        cfg.lr = 2e-3;
        cfg.command = "folio-cli train --init tiny --data FUNSD";
        cfg.dataDescription = "3 FUNSD pages. Data licences: FUNSD: non-commercial research and educational use";
        std::vector<HfFineTuneProgress> seen;
        const HfFineTuneOutcome full = fineTuneHfTokenClassifier(cfg, m_train, m_dev,
                                                                 [&](const HfFineTuneProgress &p) { seen.push_back(p); }, nullptr);
        QVERIFY2(full.ok, qPrintable(full.error));
        QVERIFY(full.newHead);
        QVERIFY(full.trainWindows > 10);
        const long total = 2 * ((full.trainWindows + 7) / 8);
        QCOMPARE(full.steps, total);
        QCOMPARE(full.devF1PerEpoch.size(), std::size_t(2));
        QVERIFY(full.bestDevF1 >= 0 && full.bestDevF1 <= 1);
        QCOMPARE(full.pagesWithoutImage, 0); // visual_embed false: no image read
        QVERIFY(!QDir(cfg.outDir + QStringLiteral("/last")).exists());
        int stepsSeen = 0, epochLines = 0;
        for (const HfFineTuneProgress &p : seen) {
            if (p.message.empty()) {
                ++stepsSeen;
                QCOMPARE(p.totalSteps, total);
                QVERIFY(p.etaSeconds >= 0);
            } else if (p.message.find("dev entity F1") != std::string::npos) {
                ++epochLines;
            }
        }
        QCOMPARE(long(stepsSeen), total);
        QCOMPARE(epochLines, 2);
        const QJsonObject config = QJsonDocument::fromJson(readAll(cfg.outDir + QStringLiteral("/config.json"))).object();
        QCOMPARE(config.value(QStringLiteral("architectures")).toArray().first().toString(),
                 QStringLiteral("LayoutLMv3ForTokenClassification"));
        QCOMPARE(config.value(QStringLiteral("id2label")).toObject().size(), 7);
        QCOMPARE(config.value(QStringLiteral("label2id")).toObject().value(QStringLiteral("I-ANSWER")).toInt(), 6);
        const QString card = QString::fromUtf8(readAll(cfg.outDir + QStringLiteral("/README.md")));
        for (const char *part : {"base_model:", "token-classification", "FUNSD: non-commercial", "dev entity F1",
                                 "folio-cli train --init tiny --data FUNSD", "The classification head is new"})
            QVERIFY2(card.contains(QLatin1String(part)), part);

        // Interrupted after the first step (the callback is where a Ctrl-C lands), then resumed.
        cfg.outDir = tmp.filePath(QStringLiteral("resumed"));
        std::atomic<bool> cancel{false};
        HfFineTuneOutcome part = fineTuneHfTokenClassifier(cfg, m_train, m_dev,
                                                           [&](const HfFineTuneProgress &p) {
                                                               if (p.step == 1)
                                                                   cancel = true;
                                                           },
                                                           &cancel);
        QVERIFY(part.cancelled && !part.ok);
        QCOMPARE(part.steps, 1L);
        QVERIFY(QFile::exists(cfg.outDir + QStringLiteral("/last/trainer_state.json")));
        cfg.resume = true;
        const HfFineTuneOutcome rest = fineTuneHfTokenClassifier(cfg, m_train, m_dev, {}, nullptr);
        QVERIFY2(rest.ok, qPrintable(rest.error));
        QCOMPARE(rest.steps, total);
        QVERIFY(rest.newHead); // recorded in the resume state
        QCOMPARE(rest.devF1PerEpoch, full.devF1PerEpoch);
        const inference::TensorMap a = inference::readSafetensors((tmp.filePath(QStringLiteral("full/model.safetensors"))).toStdString());
        const inference::TensorMap b = inference::readSafetensors((cfg.outDir + "/model.safetensors").toStdString());
        QCOMPARE(b.size(), a.size());
        for (const auto &[name, t] : a)
            QVERIFY2(compareTensors(b.at(name), t, 1e-7, 0).ok, name.c_str());
        // Resuming a finished run: nothing to resume, said.
        const HfFineTuneOutcome again = fineTuneHfTokenClassifier(cfg, m_train, m_dev, {}, nullptr);
        QVERIFY(!again.ok && again.error.contains(QLatin1String("nothing to resume")));
    }

    // LayoutLMv3 with its image branch (the fine-tuning fixture's visual model, input_size 32, its
    // word table widened to the tiny tokenizer's vocabulary): the pages' images become pixel_values,
    // a page without one is counted and said, and the folder written takes images.
    void visualModelTrainsOnPageImages()
    {
        const QString fixture = test::sharedPath(QStringLiteral("fixtures/finetune/finetune_layoutlmv3_tokcls"));
        FOLIO_REQUIRE_DATA(fixture + QStringLiteral("/model.safetensors"));
        QTemporaryDir tmp;
        const QString init = withTinyTokenizer(fixture, tmp.filePath(QStringLiteral("init")), "layoutlmv3.embeddings.word_embeddings.weight");
        QVERIFY(!init.isEmpty());

        std::vector<HfTrainPage> train{m_train[0], m_train[1]};
        train.push_back({m_train[2].page, QString()}); // no image
        HfFineTuneConfig cfg;
        cfg.initDir = init;
        cfg.outDir = tmp.filePath(QStringLiteral("out"));
        cfg.labels = m_labels;
        cfg.epochs = 1;
        cfg.batchSize = 4;
        cfg.maxSteps = 3;
        std::vector<std::string> notes;
        const HfFineTuneOutcome r = fineTuneHfTokenClassifier(cfg, train, m_dev, [&](const HfFineTuneProgress &p) {
            if (!p.message.empty())
                notes.push_back(p.message);
        }, nullptr);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.pagesWithoutImage, 1);
        QVERIFY(!notes.empty() && notes.front().find("1 pages have no image") != std::string::npos);
        QCOMPARE(r.steps, 3L);
        // The start folder has no preprocessor_config.json: the one written states how the images
        // were prepared (input_size 32, not the processor's default 224), and reads back the same.
        QVERIFY(!QFileInfo::exists(init + QStringLiteral("/preprocessor_config.json")));
        {
            ImageProcessing used, written;
            QString why;
            QVERIFY(readImageProcessing(init, &used, &why));
            QVERIFY2(readImageProcessing(cfg.outDir, &written, &why), qPrintable(why));
            QCOMPARE(written.size, used.size);
            QCOMPARE(written.resample, used.resample);
            QCOMPARE(written.doRescale, used.doRescale);
            QCOMPARE(written.rescaleFactor, used.rescaleFactor);
            QCOMPARE(written.doNormalize, used.doNormalize);
            QVERIFY(written.mean == used.mean && written.std == used.std);
            QFile pre(cfg.outDir + QStringLiteral("/preprocessor_config.json"));
            QVERIFY(pre.open(QIODevice::ReadOnly));
            const nlohmann::json j = nlohmann::json::parse(pre.readAll().toStdString());
            QCOMPARE(QString::fromStdString(j.at("image_processor_type").get<std::string>()), QStringLiteral("LayoutLMv3ImageProcessor"));
            QCOMPARE(QString::fromStdString(j.at("processor_class").get<std::string>()), QStringLiteral("LayoutLMv3Processor"));
            QCOMPARE(j.at("size").at("height").get<int>(), 32);
            QCOMPARE(j.at("apply_ocr").get<bool>(), false);
        }
        inference::HfTokenClassifier classifier;
        std::string error;
        QVERIFY2(classifier.load(cfg.outDir.toStdString(), &error), error.c_str());
        QVERIFY(classifier.takesImage());
        // The image reaches the model: the same window with another page's pixels gives other logits.
        const auto tokenizer = inference::HfLayoutTokenizer::fromDirectory(init.toStdString());
        const std::vector<HfEncodedWindow> windows = hfPageWindows(tokenizer, m_train[0].page, 0, m_labels, 62);
        ImageProcessing image;
        QString why;
        QVERIFY(readImageProcessing(init, &image, &why));
        QCOMPARE(image.size, 32);
        const inference::Tensor a = pagePixelValues(QImage(m_train[0].imagePath), image, &why);
        const inference::Tensor b = pagePixelValues(QImage(m_train[1].imagePath), image, &why);
        inference::HfFineTuner tuner;
        QVERIFY(tuner.load(cfg.outDir.toStdString(), &error));
        const inference::RunResult ra = tuner.forward(hfBatch({&windows[0]}, tokenizer.padId(), {&a}));
        const inference::RunResult rb = tuner.forward(hfBatch({&windows[0]}, tokenizer.padId(), {&b}));
        QVERIFY(ra.ok && rb.ok);
        QVERIFY(!compareTensors(ra.outputs.at("logits"), rb.outputs.at("logits"), 1e-6, 0).ok);
    }

    // LiLT (parity-new/lilt_tokcls with the tiny BPE tokenizer, dropout 0.1): its labels differ from
    // FUNSD's, so a new head; the folder written is a
    // LiltForTokenClassification that HfTokenClassifier runs with the tuner's logits.
    void liltFineTunesAndReloads()
    {
        const QString fixture = test::sharedPath(QStringLiteral("fixtures/parity-new/lilt_tokcls"));
        FOLIO_REQUIRE_DATA(fixture + QStringLiteral("/model.safetensors"));
        QTemporaryDir tmp;
        const QString init = withTinyTokenizer(fixture, tmp.filePath(QStringLiteral("init")), "lilt.embeddings.word_embeddings.weight");
        QVERIFY(!init.isEmpty());
        HfFineTuneConfig cfg;
        cfg.initDir = init;
        cfg.outDir = tmp.filePath(QStringLiteral("out"));
        cfg.labels = m_labels;
        cfg.epochs = 1;
        cfg.batchSize = 8;
        cfg.lr = 1e-3;
        std::vector<std::string> notes;
        const HfFineTuneOutcome r = fineTuneHfTokenClassifier(cfg, m_train, m_dev, [&](const HfFineTuneProgress &p) {
            if (!p.message.empty())
                notes.push_back(p.message);
        }, nullptr);
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(r.newHead && r.steps > 0);

        const QJsonObject config = QJsonDocument::fromJson(readAll(cfg.outDir + QStringLiteral("/config.json"))).object();
        QCOMPARE(config.value(QStringLiteral("architectures")).toArray().first().toString(), QStringLiteral("LiltForTokenClassification"));
        QVERIFY(QString::fromUtf8(readAll(cfg.outDir + QStringLiteral("/README.md"))).contains(QLatin1String("| dropout | as config.json says")));
        inference::HfTokenClassifier classifier;
        std::string error;
        QVERIFY2(classifier.load(cfg.outDir.toStdString(), &error), error.c_str());
        inference::HfFineTuner tuner;
        QVERIFY2(tuner.load(cfg.outDir.toStdString(), &error), error.c_str());
        const inference::WordLabelling lab = classifier.label(m_dev[0].page.words, m_dev[0].page.boxes);
        QVERIFY2(lab.ok, lab.error.c_str());
        for (const inference::TensorMap &w : lab.windows) {
            inference::TensorMap in = w;
            in.erase("logits");
            const inference::RunResult mine = tuner.forward(in);
            QVERIFY2(mine.ok, mine.error.c_str());
            QVERIFY(compareTensors(w.at("logits"), mine.outputs.at("logits"), 1e-5, 1e-4).ok);
        }
        // The base folder's names and shapes (its unused pooler left out, as the token classifier has none).
        const inference::TensorMap base = inference::readSafetensors((init + "/model.safetensors").toStdString());
        const inference::TensorMap tuned = inference::readSafetensors((cfg.outDir + "/model.safetensors").toStdString());
        for (const auto &[name, t] : tuned) {
            QVERIFY2(base.count(name), name.c_str());
            if (name.rfind("classifier.", 0) != 0)
                QVERIFY2(base.at(name).shape == t.shape, name.c_str());
        }
        for (const auto &[name, t] : base)
            QVERIFY2(tuned.count(name) || name.find("pooler") != std::string::npos, name.c_str());
    }

    void refusals()
    {
        QTemporaryDir tmp;
        HfFineTuneConfig cfg;
        cfg.initDir = tmp.path();
        cfg.outDir = tmp.filePath(QStringLiteral("out"));
        cfg.labels = m_labels;
        // No pages, no config.json, a model type that cannot be fine-tuned: each said.
        HfFineTuneOutcome r = fineTuneHfTokenClassifier(cfg, {}, {}, {}, nullptr);
        QVERIFY(!r.ok && r.error.contains(QLatin1String("no labelled training pages")));
        r = fineTuneHfTokenClassifier(cfg, m_train, {}, {}, nullptr);
        QVERIFY2(!r.ok && r.error.contains(QLatin1String("config.json")), qPrintable(r.error));
        QFile f(tmp.filePath(QStringLiteral("config.json")));
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write("{\"model_type\": \"markuplm\"}") > 0);
        f.close();
        QVERIFY(!isHfFineTunableFolder(tmp.path()));
        QVERIFY(isHfFineTunableFolder(tinyCheckpoint()));
        r = fineTuneHfTokenClassifier(cfg, m_train, {}, {}, nullptr);
        QVERIFY2(!r.ok && r.error.contains(QLatin1String("cannot be fine-tuned")), qPrintable(r.error));
        // Tags the label set lacks (a checkpoint's labels given for other data).
        cfg.initDir = tinyCheckpoint();
        cfg.labels = {"O", "B-QUESTION", "I-QUESTION"};
        r = fineTuneHfTokenClassifier(cfg, m_train, {}, {}, nullptr);
        QVERIFY2(!r.ok && r.error.contains(QLatin1String("is not in the label set")), qPrintable(r.error));
        QVERIFY(!QFile::exists(cfg.outDir + QStringLiteral("/model.safetensors")));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestHfFineTuning)
#include "tst_hffinetuning.moc"
