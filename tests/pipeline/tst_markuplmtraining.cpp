// MarkupLM fine-tuned on web pages' text nodes (issue 46, pipeline/markuplmtraining.h): the tiny
// MarkupLM of the parity fixtures (tests/common/tinymarkuplm.h, 62 tokens a window) on a few book
// pages written here.
//  - the node holding a gold value gets its field's label (B- on the first node, I- after, plain
//    names for a checkpoint with plain labels), other nodes O; the label on each node's first
//    sub-token, -100 elsewhere; long pages get windows, every node labelled by one window;
//  - fine-tuning lowers the loss, and the folder written labels the value nodes of a training page
//    as the data says when run through runMarkupLM (Extract Fields' path); HfFineTuner reading the
//    folder back gives HfMarkupLM's logits; Ctrl-C then resume ends with the uninterrupted weights;
//  - refused: pages with no labelled node, a question-answering checkpoint, a field the labels
//    cannot take, a MarkupLM folder given to the page fine-tuning;
//  - folio-cli train --init on an SWDE-shaped folder: JSON with the test split's page-level F1, a
//    model card, and `folio-cli extract` runs the folder.
#include "tests/common/testdata.h"
#include "tests/common/tinymarkuplm.h"

#include "document/html/htmlloader.h"
#include "document/project/project.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/models/hfmarkuplm.h"
#include "inference/training/hf/hffinetuner.h"
#include "pipeline/documentsource.h"
#include "pipeline/hffinetuning.h"
#include "pipeline/markuplmfields.h"
#include "pipeline/markuplmtraining.h"
#include "pipeline/webfieldset.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <atomic>
#include <cmath>
#include <fstream>

using namespace folio;
using namespace folio::pipeline;

namespace {

const QStringList kBio{QStringLiteral("O"), QStringLiteral("B-title"), QStringLiteral("I-title"), QStringLiteral("B-author"),
                       QStringLiteral("I-author")};
const char *kTitles[] = {"Blue River", "The Quiet Garden", "Stone and Salt", "A Winter Map", "Night Harbor",
                         "Paper Moons", "The Long Field", "Silver Rain", "Old Roads", "Small Lights"};
const char *kAuthors[] = {"Ann Lee", "Tom Berg", "Maria Costa", "John Park", "Eva Novak",
                          "Sam Ortiz", "Lily Chen", "Omar Haddad", "Ida Kern", "Paul Roy"};

QByteArray bookPage(int k)
{
    return QStringLiteral("<html><head><title>Shop</title></head><body><div><h1>%1</h1><p>by <span>%2</span></p>"
                          "<ul><li>Paperback</li><li>%3 pages</li></ul><p>Ships in 2 days</p></div></body></html>")
        .arg(QLatin1String(kTitles[k]), QLatin1String(kAuthors[k]))
        .arg(100 + 17 * k)
        .toUtf8();
}

std::map<std::string, std::vector<std::string>> bookGold(int k)
{
    return {{"title", {kTitles[k]}}, {"author", {kAuthors[k]}}};
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

int nodeIndex(const MarkupTrainPage &p, const std::string &text)
{
    for (std::size_t i = 0; i < p.nodes.size(); ++i)
        if (p.nodes[i] == text)
            return int(i);
    return -1;
}

std::vector<float> floats(const inference::Tensor &t)
{
    return std::vector<float>(t.data<float>(), t.data<float>() + t.numel());
}

nlohmann::json runCli(const QStringList &args, int *exitCode, QByteArray *err = nullptr)
{
    QProcess p;
    p.start(QStringLiteral(FOLIO_CLI_PATH), args);
    if (!p.waitForFinished(300000))
        return nullptr;
    *exitCode = p.exitCode();
    const QByteArray e = p.readAllStandardError();
    if (err)
        *err = e;
    if (p.exitCode() != 0)
        qWarning("%s", e.constData());
    return nlohmann::json::parse(p.readAllStandardOutput().toStdString(), nullptr, false);
}

} // namespace

class TestMarkupLMTraining : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_init, m_qa;
    std::vector<MarkupTrainPage> m_pages; // bookPage(0..9)

    HfFineTuneConfig config(const QString &out, int epochs)
    {
        HfFineTuneConfig cfg;
        cfg.initDir = m_init;
        cfg.outDir = out;
        cfg.epochs = epochs;
        cfg.batchSize = 2;
        cfg.lr = 5e-3;
        cfg.seed = 3;
        return cfg;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_init = test::makeTinyMarkupLM(m_tmp.filePath(QStringLiteral("tiny")), false, kBio);
        m_qa = test::makeTinyMarkupLM(m_tmp.filePath(QStringLiteral("tiny-qa")), true);
        for (int k = 0; k < 10; ++k) {
            const QString path = m_tmp.filePath(QStringLiteral("pages/%1.html").arg(k));
            QVERIFY(writeFile(path, bookPage(k)));
            m_pages.push_back(markupTrainPageFromFile("book/" + std::to_string(k), path.toStdString(), bookGold(k)));
        }
    }

    // The value's node gets the field; B-/I- over a value split across nodes; plain names when the
    // checkpoint has plain labels; the label on the first sub-token only.
    void nodeLabelsFromGold()
    {
        const MarkupTrainPage &p = m_pages[2];
        const int title = nodeIndex(p, "Stone and Salt"), author = nodeIndex(p, "Maria Costa");
        QVERIFY(title >= 0 && author >= 0);
        QCOMPARE(p.valuesFound, 2);
        QCOMPARE(p.valuesMissed, 0);
        for (int i = 0; i < int(p.nodes.size()); ++i)
            QCOMPARE(p.nodeFields[std::size_t(i)], std::string(i == title ? "title" : i == author ? "author" : ""));
        QCOMPARE(p.xpaths[std::size_t(title)], std::string("/html/body/div/h1"));
        // A value over two nodes ("by" + "Maria Costa" reads "by Maria Costa"), and one found nowhere.
        const MarkupTrainPage two = markupTrainPage("x", {QStringLiteral("Price"), QStringLiteral("by"), QStringLiteral("Maria Costa"),
                                                          QStringLiteral("end")},
                                                    {QStringLiteral("/html/a"), QStringLiteral("/html/p"), QStringLiteral("/html/p/span"),
                                                     QStringLiteral("/html/b")},
                                                    {{"author", {"By Maria  Costa."}}, {"isbn", {"978-1"}}});
        QCOMPARE(two.nodeFields, std::vector<std::string>({"", "author", "author", ""}));
        QCOMPARE(two.valuesFound, 1);
        QCOMPARE(two.valuesMissed, 1);
        const std::vector<std::string> bio = markupLabels({"author"}, "bio");
        QCOMPARE(bio, std::vector<std::string>({"O", "B-author", "I-author"}));
        QCOMPARE(markupNodeLabelIds(two, bio, "bio"), std::vector<int>({0, 1, 2, 0}));
        QCOMPARE(markupNodeLabelIds(two, {"O", "author"}, "plain"), std::vector<int>({0, 1, 1, 0}));
        QCOMPARE(markupLabelScheme({"O", "price", "name"}), std::string("plain"));
        QCOMPARE(markupLabelScheme({"O", "B-price", "I-price"}), std::string("bio"));
        QCOMPARE(markupLabelScheme({"LABEL_0", "LABEL_1"}), std::string("bio"));
        QCOMPARE(markupLabelScheme({}), std::string("bio"));

        // First sub-token only: every labelled position starts its node.
        FOLIO_REQUIRE_DATA(m_init);
        const auto tok = inference::MarkupLMTokenizer::fromDirectory(m_init.toStdString());
        const std::vector<std::string> labels = markupLabels({"title", "author"}, "bio");
        const std::vector<int> ids = markupNodeLabelIds(p, labels, "bio");
        const std::vector<MarkupWindow> w = markupPageWindows(tok, p, 0, ids, 62);
        QCOMPARE(int(w.size()), 1); // fits: the reference's own call
        const inference::MarkupTokens &t = w[0].tokens;
        int labelled = 0;
        for (int k = 0; k < t.length(); ++k) {
            const bool first = t.nodeIds[std::size_t(k)] >= 0 && (k == 0 || t.nodeIds[std::size_t(k - 1)] != t.nodeIds[std::size_t(k)]);
            QCOMPARE(t.labels[std::size_t(k)] != -100, first);
            if (first) {
                QCOMPARE(t.labels[std::size_t(k)], ids[std::size_t(t.nodeIds[std::size_t(k)])]);
                ++labelled;
            }
        }
        QCOMPARE(labelled, int(p.nodes.size()));
        QCOMPARE(t.labels[std::size_t(std::find(t.nodeIds.begin(), t.nodeIds.end(), title) - t.nodeIds.begin())], 1); // B-title
    }

    // The shared SWDE book subset and the product benchmark as the train-webformer / train-product
    // readers give them: the split, and the value's node labelled.
    void sharedWebData()
    {
        const QString swde = test::sharedPath(QStringLiteral("data/swde-book-subset"));
        FOLIO_REQUIRE_DATA(swde);
        const MarkupTrainingSet set = loadMarkupTrainingSet(swde.toStdString(), 4);
        QCOMPARE(int(set.train.size()), 6); // 4 pages a site: 3 train, 0 dev, 1 test
        QCOMPARE(int(set.test.size()), 2);
        QCOMPARE(set.fields, std::vector<std::string>({"author", "isbn_13", "publication_date", "publisher", "title"}));
        const MarkupTrainPage &first = set.train.front();
        QCOMPARE(first.id, std::string("book-booksamillion/0000"));
        const std::string title = "The Short Second Life of Bree Tanner - An Eclipse Novella";
        int titles = 0;
        for (std::size_t i = 0; i < first.nodes.size(); ++i)
            if (first.nodeFields[i] == "title") {
                ++titles;
                QVERIFY2(first.nodes[i].find("Bree Tanner") != std::string::npos, first.nodes[i].c_str());
            }
        QVERIFY(titles >= 1);
        int found = 0, missed = 0;
        for (const MarkupTrainPage &p : set.train) {
            found += p.valuesFound;
            missed += p.valuesMissed;
        }
        QVERIFY2(found >= 25 && missed <= 5, qPrintable(QStringLiteral("%1 found, %2 missed").arg(found).arg(missed)));

        const QString products = test::sharedPath(QStringLiteral("data/product-extraction-benchmark"));
        FOLIO_REQUIRE_DATA(products);
        const MarkupTrainingSet p = loadMarkupTrainingSet(products.toStdString(), 6);
        QCOMPARE(p.fields, std::vector<std::string>({"price", "sku", "gtin", "mpn", "brand"}));
        QCOMPARE(int(p.train.size() + p.dev.size() + p.test.size()), 6);
        QVERIFY(!p.train.empty() && !p.dev.empty() && !p.test.empty());
        int labelled = 0;
        for (const MarkupTrainPage &page : p.train)
            labelled += int(std::count_if(page.nodeFields.begin(), page.nodeFields.end(), [](const std::string &f) { return !f.empty(); }));
        QVERIFY(labelled > 0);
    }

    // A page longer than the window: several windows of whole nodes, each node labelled once.
    void windowsLabelEveryNodeOnce()
    {
        FOLIO_REQUIRE_DATA(m_init);
        const auto tok = inference::MarkupLMTokenizer::fromDirectory(m_init.toStdString());
        QStringList nodes, xpaths;
        for (int i = 0; i < 40; ++i) {
            nodes << QStringLiteral("item number %1 of the list").arg(i);
            xpaths << QStringLiteral("/html/body/ul/li[%1]").arg(i + 1);
        }
        const MarkupTrainPage p = markupTrainPage("long", nodes, xpaths, {{"title", {"item number 33 of the list"}}});
        const std::vector<std::string> labels = markupLabels({"title"}, "bio");
        const std::vector<int> ids = markupNodeLabelIds(p, labels, "bio");
        const std::vector<MarkupWindow> w = markupPageWindows(tok, p, 0, ids, 24);
        QVERIFY(w.size() > 5);
        std::vector<int> seen(p.nodes.size(), 0);
        for (const MarkupWindow &win : w) {
            QVERIFY(win.tokens.length() <= 24);
            for (int k = 0; k < win.tokens.length(); ++k) {
                if (win.tokens.labels[std::size_t(k)] == -100)
                    continue;
                const int node = win.firstNode + win.tokens.nodeIds[std::size_t(k)];
                QVERIFY(node >= win.firstOwnedNode && node < win.endOwnedNode);
                QCOMPARE(win.tokens.labels[std::size_t(k)], ids[std::size_t(node)]);
                ++seen[std::size_t(node)];
            }
        }
        for (int s : seen)
            QCOMPARE(s, 1);
        // Windows own something each; a batch is padded to its longest window.
        for (const MarkupWindow &win : w)
            QVERIFY(win.endOwnedNode > win.firstOwnedNode);
        const std::int64_t longest = std::max(w[0].tokens.length(), w.back().tokens.length());
        const inference::TensorMap b = markupBatch({&w[0], &w.back()}, tok);
        QCOMPARE(b.at("xpath_tags_seq").shape, std::vector<std::int64_t>({2, longest, tok.config().maxDepth}));
        QCOMPARE(b.at("labels").shape, std::vector<std::int64_t>({2, longest}));
        const inference::MarkupTokens &shorter = w[0].tokens.length() < longest ? w[0].tokens : w.back().tokens;
        const int row = w[0].tokens.length() < longest ? 0 : 1;
        const std::int64_t pad = row * longest + longest - 1; // the shorter row's last cell: padding
        QVERIFY(shorter.length() < longest);
        QCOMPARE(b.at("input_ids").data<std::int64_t>()[pad], std::int64_t(tok.padId()));
        QCOMPARE(b.at("attention_mask").data<std::int64_t>()[pad], std::int64_t(0));
        QCOMPARE(b.at("labels").data<std::int64_t>()[pad], std::int64_t(-100));
        QCOMPARE(b.at("xpath_tags_seq").data<std::int64_t>()[pad * tok.config().maxDepth], std::int64_t(tok.config().padTagId()));
        QCOMPARE(b.at("xpath_subs_seq").data<std::int64_t>()[pad * tok.config().maxDepth], std::int64_t(tok.config().padWidth));
    }

    // Loss falls; the folder labels the training values as the data says through runMarkupLM; it
    // reads back into HfFineTuner with HfMarkupLM's logits.
    void fineTuneLearnsAndRoundTrips()
    {
        FOLIO_REQUIRE_DATA(m_init);
        const QString out = m_tmp.filePath(QStringLiteral("out"));
        const std::vector<MarkupTrainPage> train(m_pages.begin(), m_pages.begin() + 6), dev(m_pages.begin() + 8, m_pages.end());
        std::vector<std::string> labels;
        std::vector<double> losses;
        const HfFineTuneOutcome r = fineTuneMarkupLM(config(out, 25), train, dev, {"author", "title"},
                                                     [&](const HfFineTuneProgress &p) {
                                                         if (p.message.empty())
                                                             losses.push_back(p.loss);
                                                     },
                                                     nullptr, &labels);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(labels, std::vector<std::string>({"O", "B-author", "I-author", "B-title", "I-title"}));
        QVERIFY(!r.newHead); // the checkpoint's BIO labels, in another order: its head kept
        QCOMPARE(r.trainWindows, 6);
        QCOMPARE(int(r.devF1PerEpoch.size()), 25);
        QVERIFY2(r.lossPerEpoch.back() < 0.5 * r.lossPerEpoch.front(),
                 qPrintable(QStringLiteral("%1 -> %2").arg(r.lossPerEpoch.front()).arg(r.lossPerEpoch.back())));
        QVERIFY(r.bestDevF1 >= 0);

        // Extract Fields' path on a training page: the value nodes carry the data's fields.
        const LoadedDocument doc = loadDocumentFile(m_tmp.filePath(QStringLiteral("pages/1.html")), {});
        QVERIFY(doc.ok);
        const MarkupFieldRun run = runMarkupLM(doc.document, out, {});
        QVERIFY2(run.ok, qPrintable(run.error));
        for (int n = 0; n < run.nodes.size(); ++n) {
            const QString want = run.nodes[n] == QLatin1String("The Quiet Garden") ? QStringLiteral("title")
                                 : run.nodes[n] == QLatin1String("Tom Berg")       ? QStringLiteral("author")
                                                                                   : QStringLiteral("O");
            QCOMPARE(run.nodeLabels[n], want);
        }
        // The dev score the loop kept is the folder's own on the dev pages (each fits one window).
        const MarkupFieldScore devScore = scoreMarkupFolder(out, dev, {"author", "title"});
        QVERIFY2(devScore.ok, devScore.error.c_str());
        QCOMPARE(devScore.top1F1, r.bestDevF1);
        const MarkupFieldScore trainScore = scoreMarkupFolder(out, train, {"author", "title"});
        QVERIFY2(trainScore.ok, trainScore.error.c_str());
        QCOMPARE(trainScore.f1, 1.0);
        QCOMPARE(trainScore.top1F1, 1.0);
        QCOMPARE(trainScore.top1Predicted, trainScore.predicted);
        QCOMPARE(trainScore.predicted.at("book/4").at("title"), std::string("Night Harbor"));

        // The folder read back by the trainer gives the runner's logits.
        inference::HfFineTuner back;
        std::string error;
        QVERIFY2(back.load(out.toStdString(), &error), error.c_str());
        QCOMPARE(back.labels(), labels);
        inference::HfMarkupLM model;
        QVERIFY2(model.load(out.toStdString(), &error), error.c_str());
        const MarkupTrainPage &p = m_pages[1];
        const inference::MarkupNodeLabelling l = model.label(p.nodes, p.xpaths);
        QVERIFY(l.ok);
        const auto tok = inference::MarkupLMTokenizer::fromDirectory(out.toStdString());
        const std::vector<MarkupWindow> w = markupPageWindows(tok, p, 0, {}, model.maxTokens());
        QCOMPARE(int(w.size()), 1);
        const inference::RunResult fwd = back.forward(markupBatch({&w[0]}, tok));
        QVERIFY2(fwd.ok, fwd.error.c_str());
        const std::vector<float> a = floats(fwd.outputs.at("logits")), b = floats(l.windows[0].at("logits"));
        QCOMPARE(a.size(), b.size());
        for (std::size_t i = 0; i < a.size(); ++i)
            QVERIFY2(std::abs(a[i] - b[i]) < 1e-4f, qPrintable(QStringLiteral("%1: %2 vs %3").arg(i).arg(a[i]).arg(b[i])));

        // The card and config say what was done.
        QFile card(out + QStringLiteral("/README.md"));
        QVERIFY(card.open(QIODevice::ReadOnly));
        const QByteArray text = card.readAll();
        QVERIFY(text.contains("MarkupLMForTokenClassification"));
        QVERIFY(text.contains("dev page-level F1"));
        std::ifstream in((out + "/config.json").toStdString());
        const nlohmann::json config = nlohmann::json::parse(in);
        QCOMPARE(config["architectures"][0].get<std::string>(), std::string("MarkupLMForTokenClassification"));
        QCOMPARE(config["label2id"]["B-title"].get<int>(), 3);
        QVERIFY(QFile::exists(out + "/tokenizer_config.json") && QFile::exists(out + "/merges.txt"));
        QVERIFY(!QFile::exists(out + "/last"));
    }

    // Cancelled after 4 steps, then --resume: the uninterrupted run's weights.
    void resumeGivesTheSameWeights()
    {
        FOLIO_REQUIRE_DATA(m_init);
        const std::vector<MarkupTrainPage> train(m_pages.begin(), m_pages.begin() + 5), dev(m_pages.begin() + 8, m_pages.end());
        const QString whole = m_tmp.filePath(QStringLiteral("whole")), parts = m_tmp.filePath(QStringLiteral("parts"));
        HfFineTuneOutcome r = fineTuneMarkupLM(config(whole, 3), train, dev, {"title", "author"}, {}, nullptr);
        QVERIFY2(r.ok, qPrintable(r.error));
        std::atomic<bool> cancel{false};
        r = fineTuneMarkupLM(config(parts, 3), train, dev, {"title", "author"},
                             [&](const HfFineTuneProgress &p) {
                                 if (p.step >= 4)
                                     cancel = true;
                             },
                             &cancel);
        QVERIFY(r.cancelled);
        QVERIFY(QFile::exists(parts + "/last/trainer_state.json"));
        HfFineTuneConfig again = config(parts, 3);
        again.resume = true;
        r = fineTuneMarkupLM(again, train, dev, {"title", "author"}, {}, nullptr);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.steps, 9L);
        const inference::TensorMap a = inference::readSafetensors((whole + "/model.safetensors").toStdString());
        const inference::TensorMap b = inference::readSafetensors((parts + "/model.safetensors").toStdString());
        QCOMPARE(a.size(), b.size());
        for (const auto &[name, t] : a) {
            QVERIFY2(b.count(name), name.c_str());
            QVERIFY2(t.bytes == b.at(name).bytes, name.c_str());
        }
    }

    void refusals()
    {
        FOLIO_REQUIRE_DATA(m_init);
        const QString out = m_tmp.filePath(QStringLiteral("refused"));
        // Pages none of whose nodes holds a value.
        std::vector<MarkupTrainPage> none;
        for (int k = 0; k < 3; ++k)
            none.push_back(markupTrainPageFromFile("n" + std::to_string(k), m_tmp.filePath(QStringLiteral("pages/%1.html").arg(k)).toStdString(),
                                                   {{"title", {"Not On The Page"}}}));
        HfFineTuneOutcome r = fineTuneMarkupLM(config(out, 1), none, {}, {"title"}, {}, nullptr);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(QStringLiteral("no node of the 3 training pages holds a field's gold value")), qPrintable(r.error));
        // A question-answering checkpoint cannot take node labels.
        HfFineTuneConfig qa = config(out, 1);
        qa.initDir = m_qa;
        r = fineTuneMarkupLM(qa, m_pages, {}, {"title", "author"}, {}, nullptr);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(QStringLiteral("MarkupLMForQuestionAnswering checkpoint (qa_outputs) cannot take node labels")),
                 qPrintable(r.error));
        // Field names the BIO labels cannot take.
        r = fineTuneMarkupLM(config(out, 1), m_pages, {}, {"O"}, {}, nullptr);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(QStringLiteral("field name \"O\" cannot be a label")), qPrintable(r.error));
        r = fineTuneMarkupLM(config(out, 1), m_pages, {}, {"B-title"}, {}, nullptr);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(QStringLiteral("already carries a B-/I- prefix")), qPrintable(r.error));
        // A label set given that the data's nodes do not fit.
        HfFineTuneConfig other = config(out, 1);
        other.labels = {"O", "B-price", "I-price"};
        r = fineTuneMarkupLM(other, m_pages, {}, {"title"}, {}, nullptr);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(QStringLiteral("label \"B-title\" is not in the label set being trained")), qPrintable(r.error));
        // The page fine-tuning names MarkupLM's own path.
        HfFineTuneConfig pages = config(out, 1);
        pages.labels = {"O", "B-title", "I-title"};
        HfTrainPage page;
        page.page.id = "p";
        page.page.words = {"a"};
        page.page.boxes = {inference::WordBox{0, 0, 1, 1}};
        page.page.tags = {"O"};
        r = fineTuneHfTokenClassifier(pages, {page}, {}, {}, nullptr);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(QStringLiteral("markuplm on web pages")), qPrintable(r.error));
        QVERIFY(!QFile::exists(out + "/model.safetensors"));
    }

    // A project's answered web pages: nodes from the Document (no file behind them), gold = the
    // accepted answers, every 7th page dev; trained through the CLI.
    void projectPagesTrain()
    {
        FOLIO_REQUIRE_DATA(m_init);
        const QString path = m_tmp.filePath(QStringLiteral("books.folio"));
        QString error;
        {
            auto project = Project::create(path, &error);
            QVERIFY2(project, qPrintable(error));
            QVERIFY2(setProjectFieldSet(*project, {{QStringLiteral("title"), FieldType::Text}, {QStringLiteral("author"), FieldType::Text}},
                                        &error),
                     qPrintable(error));
            for (int k = 0; k < 4; ++k) {
                const Document doc = loadHtmlBytes(bookPage(k), QStringLiteral("book%1.html").arg(k)).document;
                Annotations a;
                for (const auto &[field, text] : {std::make_pair("title", kTitles[k]), std::make_pair("author", kAuthors[k])}) {
                    FieldValue v;
                    v.field = QString::fromLatin1(field);
                    v.text = QString::fromLatin1(text);
                    v.state = ReviewState::Accepted;
                    a.fields.push_back(v);
                }
                QVERIFY2(project->addDocument(doc, a, &error, QStringLiteral("book%1.html").arg(k)) >= 0, qPrintable(error));
            }
        }
        auto project = Project::open(path, &error, Project::Mode::ReadOnly);
        QVERIFY2(project, qPrintable(error));
        MarkupTrainingSet set;
        QVERIFY2(loadProjectMarkupTrainingSet(project.get(), &set, &error), qPrintable(error));
        QCOMPARE(int(set.train.size()), 3);
        QCOMPARE(int(set.dev.size()), 1);
        QVERIFY(set.test.empty());
        for (const MarkupTrainPage &p : set.train) {
            QCOMPARE(p.valuesFound, 2);
            const int title = int(std::find(p.nodeFields.begin(), p.nodeFields.end(), "title") - p.nodeFields.begin());
            QVERIFY(title < int(p.nodes.size()));
            QCOMPARE(p.xpaths[std::size_t(title)], std::string("/html/body/div/h1"));
        }
        project.reset();
        int code = -1;
        QByteArray err;
        const nlohmann::json j = runCli({QStringLiteral("train"), QStringLiteral("--init"), m_init, QStringLiteral("--data"), path,
                                         QStringLiteral("--out"), m_tmp.filePath(QStringLiteral("project-out")), QStringLiteral("--epochs"),
                                         QStringLiteral("2"), QStringLiteral("--threads"), QStringLiteral("1")},
                                        &code, &err);
        QCOMPARE(code, 0);
        QVERIFY2(j.is_object() && j["train_pages"] == 3 && j["dev_pages"] == 1 && j["gold_values_found"] == 6, j.dump().c_str());
        QVERIFY(QFile::exists(m_tmp.filePath(QStringLiteral("project-out/model.safetensors"))));
    }

    // folio-cli train --init on an SWDE-shaped folder, then folio-cli extract with the folder written.
    void cliTrainsAndExtractRuns()
    {
        FOLIO_REQUIRE_DATA(m_init);
        const QString swde = m_tmp.filePath(QStringLiteral("swde"));
        QByteArray titles = "book\tshop\ttitle\n10\t10\t10\t10\n", authors = "book\tshop\tauthor\n10\t10\t10\t10\n";
        for (int k = 0; k < 10; ++k) {
            QVERIFY(writeFile(swde + QStringLiteral("/testset/book/book-shop-2000/%1.htm").arg(k, 4, 10, QLatin1Char('0')), bookPage(k)));
            titles += QStringLiteral("%1\t1\t%2\n").arg(k, 4, 10, QLatin1Char('0')).arg(QLatin1String(kTitles[k])).toUtf8();
            authors += QStringLiteral("%1\t1\t%2\n").arg(k, 4, 10, QLatin1Char('0')).arg(QLatin1String(kAuthors[k])).toUtf8();
        }
        QVERIFY(writeFile(swde + "/groundtruth/book/book-shop-title.txt", titles));
        QVERIFY(writeFile(swde + "/groundtruth/book/book-shop-author.txt", authors));
        const QString out = m_tmp.filePath(QStringLiteral("cli-out"));
        int code = -1;
        QByteArray err;
        const nlohmann::json j = runCli({QStringLiteral("train"), QStringLiteral("--init"), m_init, QStringLiteral("--data"), swde,
                                         QStringLiteral("--out"), out, QStringLiteral("--epochs"), QStringLiteral("20"),
                                         QStringLiteral("--lr"), QStringLiteral("5e-3"), QStringLiteral("--threads"), QStringLiteral("1")},
                                        &code, &err);
        QCOMPARE(code, 0);
        QVERIFY2(j.is_object(), err.constData());
        QCOMPARE(j["train_pages"].get<int>(), 6);
        QCOMPARE(j["test_pages"].get<int>(), 3);
        QCOMPARE(j["gold_values_found"].get<int>(), 12);
        QCOMPARE(j["dev_f1_per_epoch"].size(), std::size_t(20));
        QVERIFY(j["test_page_level"]["f1"].is_number() && j["test_page_level"]["top1"]["f1"].is_number());
        QVERIFY2(j["test_page_level"]["f1"].get<double>() > 0.5, j.dump().c_str());
        QVERIFY(err.contains("ETA"));
        QFile card(out + QStringLiteral("/README.md"));
        QVERIFY(card.open(QIODevice::ReadOnly));
        const QByteArray text = card.readAll();
        QVERIFY(text.contains("## Test") && text.contains("folio-cli train --out"));

        const nlohmann::json x = runCli({QStringLiteral("extract"), QStringLiteral("--checkpoint"), out,
                                         swde + QStringLiteral("/testset/book/book-shop-2000/0009.htm")},
                                        &code);
        QCOMPARE(code, 0);
        QVERIFY2(x.is_object() && x["fields"].is_object(), x.dump().c_str());
        QVERIFY2(x["fields"].contains("title") || x["fields"].contains("author"), x.dump().c_str());

        // A MarkupLM folder with FUNSD-style data, or none, is refused with what it takes.
        runCli({QStringLiteral("train"), QStringLiteral("--init"), m_init, QStringLiteral("--out"), out + "2"}, &code, &err);
        QVERIFY(code != 0);
        QVERIFY2(err.contains("MarkupLM fine-tunes on web pages"), err.constData());
    }
};

FOLIO_TEST_GUILESS_MAIN(TestMarkupLMTraining)
#include "tst_markuplmtraining.moc"
