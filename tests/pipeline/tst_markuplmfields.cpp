// Hugging Face MarkupLM folders as field extractors (issue 32, pipeline/markuplmfields.h): a tiny
// token classifier and a tiny QA model (the parity fixtures' weights, tests/common/tinymarkuplm.h)
// over a real product page of the Zyte benchmark and a small page: every reference node matched to
// its Document text node, fields with words (node ranges) through extractFields as the Fields dock
// gets them, the QA questions, cancel, the saved-MHTML fallback, folio-cli extract / predict in the
// WebFormer JSON shapes, and refused folders (missing / mismatched tokenizer, unknown model_type)
// naming the file before anything loads.
#include "tests/common/testdata.h"
#include "tests/common/tinymarkuplm.h"

#include "document/html/htmlloader.h"
#include "pipeline/documentsource.h"
#include "pipeline/markuplmfields.h"
#include "pipeline/webfieldextraction.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <atomic>
#include <fstream>

using namespace folio;
using namespace folio::pipeline;

namespace {

const QStringList kLabels{QStringLiteral("O"), QStringLiteral("B-price"), QStringLiteral("I-price"), QStringLiteral("B-name"),
                          QStringLiteral("I-name")};

QString benchmarkPage()
{
    return test::sharedPath(QStringLiteral("data/product-extraction-benchmark/dataset/html/"
                                           "3d3ee8ebe15603b2ffc77b0c9f87f4e033ff4784cfdd50a135ae17395c0d3263.html.gz"));
}

const QByteArray kPage = "<html><head><title>Blue Mug &amp; Co.</title></head><body><div><h1>Blue Mug</h1>"
                         "<p>Price: <b>$12.50</b> (incl. VAT)</p><ul><li>Ceramic</li><li>350 ml</li></ul>"
                         "<p>one</p><p>two <i>x</i> three</p></div><!-- promo --><script>var x = 1;</script>"
                         "<span>Rated 4.5/5</span></body></html>";

Document loadPage(const QString &path)
{
    const LoadedDocument loaded = loadDocumentFile(path, {});
    if (!loaded.ok)
        qWarning("%s", qPrintable(loaded.error));
    return loaded.document;
}

std::vector<FieldSpec> specs(const QStringList &names)
{
    std::vector<FieldSpec> out;
    for (const QString &n : names)
        out.push_back({n, FieldType::Text});
    return out;
}

QString wordsText(const Document &doc, const std::vector<int> &words)
{
    QStringList t;
    for (int w : words)
        t << doc.words[std::size_t(w)].text;
    return t.join(QLatin1Char(' '));
}

nlohmann::json runCli(const QStringList &args, int *exitCode)
{
    QProcess p;
    p.start(QStringLiteral(FOLIO_CLI_PATH), args);
    if (!p.waitForFinished(120000))
        return nullptr;
    *exitCode = p.exitCode();
    const QByteArray out = p.readAllStandardOutput();
    if (p.exitCode() != 0)
        qWarning("%s", p.readAllStandardError().constData());
    return nlohmann::json::parse(out.toStdString(), nullptr, false);
}

} // namespace

class TestMarkupLMFields : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_tokcls, m_qa, m_page;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_tokcls = test::makeTinyMarkupLM(m_tmp.filePath(QStringLiteral("markuplm-tokcls")), false, kLabels);
        m_qa = test::makeTinyMarkupLM(m_tmp.filePath(QStringLiteral("markuplm-qa")), true);
        m_page = m_tmp.filePath(QStringLiteral("mug.html"));
        QFile f(m_page);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kPage);
    }

    // Every reference node that is page text is matched to its Document text node (same words);
    // the comment and the script are not page text.
    void nodesMatchTheDocument()
    {
        FOLIO_REQUIRE_DATA(m_tokcls);
        const Document doc = loadPage(m_page);
        const MarkupFieldRun r = runMarkupLM(doc, m_tokcls, {});
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(!r.questionAnswering);
        QCOMPARE(r.labels, QStringList({QStringLiteral("price"), QStringLiteral("name")}));
        QCOMPARE(r.nodes.size(), r.xpaths.size());
        QCOMPARE(int(r.nodeWords.size()), int(r.nodes.size()));
        QCOMPARE(r.nodeLabels.size(), r.nodes.size());
        for (int n = 0; n < r.nodes.size(); ++n) {
            const bool pageText = r.nodes[n] != QLatin1String("promo") && r.nodes[n] != QLatin1String("var x = 1;");
            QVERIFY2(r.nodeWords[std::size_t(n)].empty() != pageText, qPrintable(r.nodes[n]));
            if (pageText)
                QCOMPARE(wordsText(doc, r.nodeWords[std::size_t(n)]), r.nodes[n].simplified());
        }
        // "two" and "three" are two nodes of the same <p>, each with its own words.
        const int two = int(r.nodes.indexOf(QStringLiteral("two"))), three = int(r.nodes.indexOf(QStringLiteral("three")));
        QVERIFY(two >= 0 && three > two);
        QCOMPARE(r.xpaths[two], r.xpaths[three]);
        QVERIFY(r.nodeWords[std::size_t(two)] != r.nodeWords[std::size_t(three)]);
        // Each label's answer: the nodes labelled with it, their words and texts.
        for (const MarkupFieldAnswer &a : r.answers) {
            QVERIFY(r.labels.contains(a.field));
            QVERIFY(a.found && !a.nodes.empty());
            QStringList texts;
            for (int n : a.nodes) {
                QCOMPARE(r.nodeLabels[n], a.field);
                if (!r.nodeWords[std::size_t(n)].empty())
                    texts << r.nodes[n];
            }
            QCOMPARE(a.text, texts.join(QLatin1Char(' ')));
            QVERIFY(a.confidence > 0 && a.confidence <= 1);
        }
    }

    // A real product page: token classification through extractFields, as the Fields dock gets it.
    void tokenClassifierFieldsOnAProductPage()
    {
        FOLIO_REQUIRE_DATA(m_tokcls);
        FOLIO_REQUIRE_DATA(benchmarkPage());
        const Document doc = loadPage(benchmarkPage());
        QVERIFY(doc.words.size() > 100);
        const MarkupFieldRun run = runMarkupLM(doc, m_tokcls, {});
        QVERIFY2(run.ok, qPrintable(run.error));
        int matched = 0;
        for (const auto &w : run.nodeWords)
            matched += w.empty() ? 0 : 1;
        QVERIFY2(matched * 10 >= run.nodes.size() * 8, qPrintable(QStringLiteral("%1 of %2").arg(matched).arg(run.nodes.size())));
        FieldExtractionOptions options;
        options.checkpointDir = m_tokcls;
        std::vector<std::pair<int, int>> steps;
        options.progress = [&](int done, int total) { steps.push_back({done, total}); };
        const FieldExtraction e = extractFields(doc, specs({QStringLiteral("price"), QStringLiteral("name"), QStringLiteral("colour")}), options);
        QVERIFY2(e.ok, qPrintable(e.error));
        QVERIFY(!steps.empty());
        QVERIFY2(e.source.startsWith(QStringLiteral("MarkupLM markuplm-tokcls")), qPrintable(e.source));
        QCOMPARE(e.unknownFields, QStringList{QStringLiteral("colour")});
        QVERIFY2(e.notes.join(' ').contains(QStringLiteral("no label for colour")), qPrintable(e.notes.join('\n')));
        int fromModel = 0;
        for (const FieldValue &v : e.values) {
            if (v.source.checkpoint != QLatin1String("markuplm-tokcls"))
                continue;
            ++fromModel;
            QCOMPARE(v.state, ReviewState::Suggested);
            QVERIFY(!v.wordIds.isEmpty()); // node ranges: highlighted like WebFormer's answers
            const auto it = std::find_if(run.answers.begin(), run.answers.end(), [&](const MarkupFieldAnswer &a) { return a.field == v.field; });
            QVERIFY(it != run.answers.end());
            QCOMPARE(v.text, it->text);
            QCOMPARE(v.wordIds.size(), qsizetype(it->words.size()));
        }
        QCOMPARE(fromModel, int(run.answers.size()));
        QVERIFY(fromModel > 0);
    }

    // QA: each field asked as "What is the <field>?"; the span's nodes are the value.
    void questionAnsweringFields()
    {
        FOLIO_REQUIRE_DATA(m_qa);
        QCOMPARE(markupQuestion(QStringLiteral("unit_price")), QStringLiteral("What is the unit price?"));
        const Document doc = loadPage(m_page);
        FieldExtractionOptions options;
        options.checkpointDir = m_qa;
        const FieldExtraction e = extractFields(doc, specs({QStringLiteral("price"), QStringLiteral("brand")}), options);
        QVERIFY2(e.ok, qPrintable(e.error));
        QVERIFY(e.unknownFields.isEmpty());
        QCOMPARE(int(e.values.size()), 2);
        for (const FieldValue &v : e.values) {
            QVERIFY(!v.text.isEmpty());
            QVERIFY(v.confidence > 0 && v.confidence <= 1);
            QStringList texts; // the words are the text's own (the nodes are page text)
            for (const QString &id : v.wordIds)
                for (const Word &w : doc.words)
                    if (w.id == id)
                        texts << w.text;
            QCOMPARE(texts.join(' '), v.text.simplified());
        }
        // Questions asked as they are.
        MarkupRunOptions raw;
        raw.rawQuestions = true;
        const MarkupFieldRun r = runMarkupLM(doc, m_qa, {QStringLiteral("How much is the mug?")}, raw);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(int(r.answers.size()), 1);
        QCOMPARE(r.answers[0].field, QStringLiteral("How much is the mug?"));
        QVERIFY(r.answers[0].found);
        // Cancelled before the first question: nothing answered.
        std::atomic_bool cancel{true};
        options.cancel = &cancel;
        const FieldExtraction c = extractFields(doc, specs({QStringLiteral("price")}), options);
        QVERIFY(c.cancelled);
        QVERIFY(c.values.empty());
    }

    // A saved MHTML page: its file is MIME, so the Document's own text nodes are the model's nodes.
    void savedPageUsesTheDocument()
    {
        FOLIO_REQUIRE_DATA(m_tokcls);
        const QString mhtml = QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/webpages/walnut-lamp.mhtml");
        FOLIO_REQUIRE_DATA(mhtml);
        const Document doc = loadPage(mhtml);
        QVERIFY(!doc.words.empty());
        const MarkupFieldRun r = runMarkupLM(doc, m_tokcls, {});
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(!r.nodes.isEmpty());
        for (std::size_t n = 0; n < r.nodeWords.size(); ++n)
            QVERIFY(!r.nodeWords[n].empty());
        QVERIFY(r.xpaths.front().startsWith(QStringLiteral("/html")));
    }

    // folio-cli extract --model DIR / predict: the WebFormer JSON shapes.
    void cliExtractAndPredict()
    {
        FOLIO_REQUIRE_DATA(m_qa);
        int code = -1;
        nlohmann::json j = runCli({QStringLiteral("extract"), QStringLiteral("--model"), m_qa, QStringLiteral("--fields"),
                                   QStringLiteral("price,brand"), QStringLiteral("--no-fallback"), m_page}, &code);
        QCOMPARE(code, 0);
        QVERIFY(j.is_object());
        QCOMPARE(QString::fromStdString(j["model"].get<std::string>()), m_qa);
        QVERIFY(j["fields"].is_object() && j["missing"].is_array());
        for (const auto &[field, v] : j["fields"].items()) {
            if (field != "price" && field != "brand")
                continue; // currency / availability come along with price, as for WebFormer
            QCOMPARE(v["source"].get<std::string>(), std::string("model"));
            QVERIFY(v["span"].is_object());
            QVERIFY(v["span"]["xpath"].get<std::string>().rfind("/html/", 0) == 0);
            QVERIFY(v["confidence"].is_number());
        }
        QCOMPARE(int(j["fields"].contains("price") + j["fields"].contains("brand") + j["missing"].size()), 2);
        j = runCli({QStringLiteral("extract"), QStringLiteral("--checkpoint"), m_qa, QStringLiteral("--question"),
                    QStringLiteral("How much is it?"), m_page}, &code);
        QCOMPARE(code, 0);
        QVERIFY2(j["fields"].contains("How much is it?") || j["missing"][0] == "How much is it?", j.dump().c_str());
        // --question on a token classifier is a usage error.
        runCli({QStringLiteral("extract"), QStringLiteral("--checkpoint"), m_tokcls, QStringLiteral("--question"), QStringLiteral("q"), m_page}, &code);
        QCOMPARE(code, 2);

        j = runCli({QStringLiteral("predict"), QStringLiteral("--checkpoint"), m_tokcls, m_page}, &code);
        QCOMPARE(code, 0);
        QCOMPARE(j["model"].get<std::string>(), std::string("markuplm"));
        QVERIFY(j["nodes"].size() >= 10);
        for (const auto &n : j["nodes"])
            QVERIFY(n["label"].is_null() || QStringList({"O", "price", "name"}).contains(QString::fromStdString(n["label"].get<std::string>())));
        for (const auto &e : j["entities"])
            QVERIFY(!e["words"].empty() && e["confidence"].is_number());
        // --int8 (issue 35): the same nodes, from the dynamic-int8 copy (predict and extract).
        const nlohmann::json q = runCli({QStringLiteral("predict"), QStringLiteral("--checkpoint"), m_tokcls,
                                         QStringLiteral("--int8"), m_page}, &code);
        QCOMPARE(code, 0);
        QCOMPARE(q["nodes"].size(), j["nodes"].size());
        runCli({QStringLiteral("extract"), QStringLiteral("--checkpoint"), m_qa, QStringLiteral("--int8"),
                QStringLiteral("--question"), QStringLiteral("How much is it?"), m_page}, &code);
        QCOMPARE(code, 0);
        // A QA folder does not label nodes.
        runCli({QStringLiteral("predict"), QStringLiteral("--checkpoint"), m_qa, m_page}, &code);
        QCOMPARE(code, 2);
    }

    // Refused before loading, naming the file: a missing tokenizer file, a tokenizer without
    // tags_dict, a config whose model_type is unknown.
    void badFoldersAreRefused()
    {
        FOLIO_REQUIRE_DATA(m_tokcls);
        const Document doc = loadPage(m_page);
        struct Case
        {
            QString name, file;
            std::function<void(const QString &)> spoil;
        };
        const std::vector<Case> cases{
            {QStringLiteral("no-vocab"), QStringLiteral("vocab.json"), [](const QString &d) { QFile::remove(d + "/vocab.json"); }},
            {QStringLiteral("no-tags"), QStringLiteral("tokenizer_config.json"),
             [](const QString &d) {
                 std::ifstream in((d + "/tokenizer_config.json").toStdString());
                 nlohmann::json c = nlohmann::json::parse(in);
                 c.erase("tags_dict");
                 std::ofstream((d + "/tokenizer_config.json").toStdString()) << c.dump();
             }},
            {QStringLiteral("bad-type"), QStringLiteral("config.json"),
             [](const QString &d) {
                 std::ifstream in((d + "/config.json").toStdString());
                 nlohmann::json c = nlohmann::json::parse(in);
                 c["model_type"] = "markuplm-xl";
                 std::ofstream((d + "/config.json").toStdString()) << c.dump();
             }},
        };
        for (const Case &c : cases) {
            const QString dir = m_tmp.filePath(c.name);
            test::copyFolderFiles(m_tokcls, dir);
            c.spoil(dir);
            QString error;
            QVERIFY(!checkMarkupLMFolder(dir, &error));
            QVERIFY2(error.contains(dir + "/" + c.file), qPrintable(error));
            if (c.name == QLatin1String("bad-type"))
                continue; // not a MarkupLM folder for extractFields any more (checkpointModelType)
            FieldExtractionOptions options;
            options.checkpointDir = dir;
            const FieldExtraction e = extractFields(doc, specs({QStringLiteral("price")}), options);
            QVERIFY(!e.ok);
            QVERIFY2(e.error.contains(dir + "/" + c.file), qPrintable(e.error));
        }
    }
};

FOLIO_TEST_GUILESS_MAIN(TestMarkupLMFields)
#include "tst_markuplmfields.moc"
