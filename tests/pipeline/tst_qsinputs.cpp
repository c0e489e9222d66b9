// Question-summary inputs without a model: Document sections -> QsInput (implicit section, nesting),
// the QMSum reader (topics as sections, general answer as root, specific queries as children with
// evidence; malformed files refused naming the file), the lead / oracle-shape baselines, score
// averaging, samples from a .folio project, and qsSource's per-section token quota with a real SentencePiece vocabulary.
#include "pipeline/qs/qmsum.h"
#include "pipeline/qs/qsbaselines.h"
#include "pipeline/qs/qsinputs.h"
#include "pipeline/qs/qsproject.h"
#include "document/project/project.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace folio;

class TestQsInputs : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    // A file in the temporary folder (an empty path when it could not be written: the reads fail).
    QString write(const QString &name, const QByteArray &bytes) { return test::writeTestFile(m_dir, name, bytes); }

    static Document wordsDocument(int words)
    {
        Document d;
        d.title = QStringLiteral("Report");
        Page page;
        page.size = QSizeF(800, 1000);
        d.pages.push_back(page);
        for (int i = 0; i < words; ++i) {
            Word w;
            w.id = QString::number(i);
            w.text = QStringLiteral("w%1").arg(i);
            d.words.push_back(w);
        }
        return d;
    }

    static QJsonObject meetingJson()
    {
        QJsonArray turns;
        for (int i = 0; i < 6; ++i)
            turns.append(QJsonObject{{"speaker", QStringLiteral("S%1").arg(i % 2)},
                                     {"content", QStringLiteral("Turn %1 talks about item %1. More words here.").arg(i)}});
        return QJsonObject{
            {"meeting_transcripts", turns},
            {"topic_list", QJsonArray{QJsonObject{{"topic", "Opening"}, {"relevant_text_span", QJsonArray{QJsonArray{"0", "1"}}}},
                                      QJsonObject{{"topic", "Budget"}, {"relevant_text_span", QJsonArray{QJsonArray{"2", "5"}}}}}},
            {"general_query_list", QJsonArray{QJsonObject{{"query", "Summarize"}, {"answer", "They met."}},
                                              QJsonObject{{"query", "Summarize again"}, {"answer", "Second."}}}},
            {"specific_query_list",
             QJsonArray{QJsonObject{{"query", "What about the budget?"}, {"answer", "It grew."},
                                    {"relevant_text_span", QJsonArray{QJsonArray{"3", "4"}}}},
                        QJsonObject{{"query", "Who opened?"}, {"answer", "S0 did."},
                                    {"relevant_text_span", QJsonArray{QJsonArray{"0", "0"}}}}}}};
    }

private Q_SLOTS:
    void documentWithoutSectionsIsOneSection()
    {
        const pipeline::QsInput in = pipeline::qsInputFromDocument(wordsDocument(250), 100);
        QCOMPARE(in.sections.size(), std::size_t(1));
        QCOMPARE(in.sections[0].title, QStringLiteral("Report"));
        QCOMPARE(in.sections[0].paragraphs.size(), 3); // 100 + 100 + 50 words
        QVERIFY(in.sections[0].paragraphs[2].startsWith(QStringLiteral("w200 ")));
    }

    void documentSectionsKeepNesting()
    {
        Document d = wordsDocument(30);
        Section a;
        a.title = QStringLiteral(" Intro ");
        a.firstWord = 0;
        a.endWord = 10;
        Section b;
        b.title = QStringLiteral("Details");
        b.parent = 0;
        b.firstWord = 10;
        b.endWord = 30;
        d.sections = {a, b};
        pipeline::QsInput in = pipeline::qsInputFromDocument(d);
        QCOMPARE(in.sections.size(), std::size_t(2));
        QCOMPARE(in.sections[0].title, QStringLiteral("Intro"));
        QCOMPARE(in.sections[1].parent, 0);
        QCOMPARE(in.sections[1].paragraphs.join(' ').split(' ').size(), 20);
        // Words before the first section become an implicit first section; parents shift by one.
        d.sections[0].firstWord = 4;
        in = pipeline::qsInputFromDocument(d);
        QCOMPARE(in.sections.size(), std::size_t(3));
        QCOMPARE(in.sections[0].paragraphs, QStringList{QStringLiteral("w0 w1 w2 w3")});
        QCOMPARE(in.sections[2].parent, 1);
        // The lead baseline follows the nesting: depths 1, 1, 2.
        const inference::QsHierarchy lead = pipeline::leadBaseline(in);
        QCOMPARE(lead.items.size(), std::size_t(3));
        QCOMPARE(lead.items[2].depth, 2);
        QCOMPARE(QString::fromStdString(lead.items[1].question), QStringLiteral("What was said about Intro?"));
    }

    void qmsumMeetingReads()
    {
        const QString path = write(QStringLiteral("m1.json"), QJsonDocument(meetingJson()).toJson());
        QVERIFY(pipeline::looksLikeQmsum(path));
        pipeline::QmsumMeeting m;
        QString error;
        QVERIFY2(pipeline::readQmsumMeeting(path, &m, &error), qPrintable(error));
        QCOMPARE(m.id, QStringLiteral("m1"));
        QCOMPARE(m.turns.size(), 6);
        QCOMPARE(m.turns[1], QStringLiteral("S1: Turn 1 talks about item 1. More words here."));
        QCOMPARE(m.input.sections.size(), std::size_t(2));
        QCOMPARE(m.input.sections[1].title, QStringLiteral("Budget"));
        QCOMPARE(m.input.sections[1].paragraphs.size(), 4);
        QCOMPARE(m.reference.rootSummary, std::string("They met."));
        QCOMPARE(m.extraGeneral, QStringList{QStringLiteral("Second.")});
        QCOMPARE(m.reference.items.size(), std::size_t(2));
        QCOMPARE(m.reference.items[0].question, std::string("What about the budget?"));
        QCOMPARE(m.evidence[0], (std::vector<std::pair<int, int>>{{3, 4}}));

        // Oracle shape: the reference's item count and depths, questions from the overlapping topic.
        const inference::QsHierarchy oracle = pipeline::oracleShapeBaseline(m, 1);
        QCOMPARE(oracle.items.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(oracle.items[0].question), QStringLiteral("What was said about Budget?"));
        QCOMPARE(QString::fromStdString(oracle.items[0].summary), QStringLiteral("S1: Turn 3 talks about item 3."));
        QCOMPARE(QString::fromStdString(oracle.items[1].question), QStringLiteral("What was said about Opening?"));
    }

    void qmsumSplitAndScores()
    {
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("data/ALL/test")));
        for (const char *name : {"a.json", "b.json", "c.json"})
            write(QStringLiteral("data/ALL/test/") + name, QJsonDocument(meetingJson()).toJson());
        std::vector<pipeline::QmsumMeeting> ms;
        QString error;
        QVERIFY2(pipeline::readQmsumSplit(m_dir.path(), QStringLiteral("test"), &ms, &error, 2), qPrintable(error));
        QCOMPARE(ms.size(), std::size_t(2));
        QCOMPARE(ms[1].id, QStringLiteral("b"));
        QVERIFY(!pipeline::readQmsumSplit(m_dir.path(), QStringLiteral("val"), &ms, &error));
        QVERIFY2(error.contains(QStringLiteral("no 'val' split")), qPrintable(error));

        // The reference scored against itself is perfect; the mean of perfect and lead lies between.
        const std::string target = inference::linearizeQsTarget(ms[0].reference);
        pipeline::QsScoreMean mean;
        mean.add(inference::scoreQs(target, target));
        const inference::QsScores lead =
            inference::scoreQs(target, inference::linearizeQsTarget(pipeline::leadBaseline(ms[0].input)));
        mean.add(lead);
        QCOMPARE(mean.count(), 2);
        QVERIFY(lead.rouge1.fmeasure < 0.9);
        QVERIFY(qAbs(mean.mean().rouge1.fmeasure - (1.0 + lead.rouge1.fmeasure) / 2) < 1e-9);
        QVERIFY(qAbs(mean.mean().questionBleu4 - (inference::scoreQs(target, target).questionBleu4 + lead.questionBleu4) / 2) < 1e-9);
    }

    void qmsumBadInput_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << QByteArray("{ nope") << QStringLiteral("not a JSON object");
        QTest::newRow("no transcript") << QByteArray("{\"topic_list\": []}") << QStringLiteral("no meeting_transcripts");
        QJsonObject o = meetingJson();
        QJsonArray topics = o.value("topic_list").toArray();
        topics[1] = QJsonObject{{"topic", "Budget"}, {"relevant_text_span", QJsonArray{QJsonArray{"2", "9"}}}};
        o["topic_list"] = topics;
        QTest::newRow("span past the end") << QJsonDocument(o).toJson() << QStringLiteral("topic 1: span");
        o = meetingJson();
        QJsonArray specific = o.value("specific_query_list").toArray();
        specific[0] = QJsonObject{{"query", "q"}, {"answer", "a"}, {"relevant_text_span", QJsonArray{QJsonArray{"4", "3"}}}};
        o["specific_query_list"] = specific;
        QTest::newRow("reversed span") << QJsonDocument(o).toJson() << QStringLiteral("specific query 0: span");
        // Issue 36: counted before any per-word structure (one turn of 1,000,001 words, 6 MB).
        const QByteArray many = "{\"meeting_transcripts\": [{\"speaker\": \"A\", \"content\": \"" + QByteArray("w ").repeated(1000000)
                                + "\"}]}";
        QTest::newRow("1,000,001 words") << many << QStringLiteral("turn 0: the transcript has more than 1000000 words");
    }

    void qmsumBadInput()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        const QString path = write(QStringLiteral("bad.json"), bytes);
        pipeline::QmsumMeeting m;
        QString error;
        QVERIFY(!pipeline::readQmsumMeeting(path, &m, &error));
        QVERIFY2(error.startsWith(path) && error.contains(message), qPrintable(error));
        QVERIFY(!pipeline::readQmsumMeeting(m_dir.filePath(QStringLiteral("absent.json")), &m, &error));
        QVERIFY2(error.contains(QStringLiteral("absent.json")), qPrintable(error));
    }

    void projectSamples()
    {
        const QString path = m_dir.filePath(QStringLiteral("qs.folio"));
        QString error;
        {
            std::unique_ptr<Project> project = Project::create(path, &error);
            QVERIFY2(project, qPrintable(error));
            NewProjectDocument withTree;
            withTree.document = wordsDocument(12);
            withTree.name = QStringLiteral("report-a");
            withTree.document.sourcePath = QStringLiteral("report-a.html");
            withTree.annotations.qsSummary = QStringLiteral("The report in short.");
            QsNode child;
            child.question = QStringLiteral("Why?");
            child.summary = QStringLiteral("Because.");
            QsNode node;
            node.question = QStringLiteral("What is it?");
            node.summary = QStringLiteral("A report.");
            node.children = {child};
            withTree.annotations.qsRoots = {node};
            NewProjectDocument plain;
            plain.document = wordsDocument(5);
            plain.name = QStringLiteral("no-tree");
            plain.document.sourcePath = QStringLiteral("no-tree.html");
            std::vector<qint64> ids;
            QVERIFY2(project->addDocuments({withTree, plain}, &ids, &error), qPrintable(error));
        }
        std::vector<pipeline::QmsumMeeting> samples;
        QVERIFY2(pipeline::readQsProject(path, &samples, &error), qPrintable(error));
        QCOMPARE(samples.size(), std::size_t(1)); // the document without a tree is skipped
        const pipeline::QmsumMeeting &m = samples[0];
        QCOMPARE(m.id, QStringLiteral("report-a"));
        QCOMPARE(m.reference.rootSummary, std::string("The report in short."));
        QCOMPARE(m.reference.items.size(), std::size_t(2));
        QCOMPARE(m.reference.items[1].question, std::string("Why?"));
        QCOMPARE(m.reference.items[1].depth, 2);
        QCOMPARE(m.input.sections.size(), std::size_t(1));
        QCOMPARE(m.evidence.size(), std::size_t(2));

        const QString junk = write(QStringLiteral("junk.folio"), QByteArray("not a database"));
        QVERIFY(!pipeline::readQsProject(junk, &samples, &error));
        QVERIFY2(error.contains(QStringLiteral("junk.folio")), qPrintable(error));
    }

    void sourceQuotaKeepsEverySection()
    {
        pipeline::QsVocabulary v;
        v.tokenizer = inference::makeSentencePieceTokenizer(FOLIO_SOURCE_DIR "/resources/models/funsd-layout/spm.model");
        v.pad = v.tokenizer->padId();
        // Round trip through the vocabulary (specials dropped).
        const std::vector<std::int64_t> ids = pipeline::encodeQsText(v, QStringLiteral("the date of the report"));
        QVERIFY(!ids.empty());
        std::vector<std::int64_t> withSpecials = ids;
        withSpecials.insert(withSpecials.begin(), v.markers.bos);
        QCOMPARE(pipeline::decodeQsText(v, withSpecials), QStringLiteral("the date of the report"));

        pipeline::QsInput in;
        for (int s = 0; s < 3; ++s) {
            pipeline::QsSectionText sec;
            sec.title = QStringLiteral("section %1").arg(s);
            for (int p = 0; p < (s == 1 ? 2 : 40); ++p)
                sec.paragraphs << QStringLiteral("the date of the report is in the name field");
            in.sections.push_back(sec);
        }
        long dropped = -1;
        const inference::HibridsSource src = pipeline::qsSource(v, in, 256, &dropped);
        QVERIFY(int(src.ids.size()) <= 256);
        QVERIFY(dropped > 0);
        QCOMPARE(src.sectionsKept, 3); // every section keeps a share; the short one is whole
        // The short middle section is kept whole: its chunk is the largest possible for it.
        const std::int64_t shortChunk = src.chunkSizes[2];
        QVERIFY2(shortChunk >= 2 * std::int64_t(ids.size()), qPrintable(QString::number(shortChunk)));
        QCOMPARE(src.tokenToSection.size(), src.ids.size());
        // A document that fits loses nothing.
        in.sections.resize(1);
        in.sections[0].paragraphs = in.sections[0].paragraphs.mid(0, 2);
        pipeline::qsSource(v, in, 256, &dropped);
        QCOMPARE(dropped, 0L);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestQsInputs)
#include "tst_qsinputs.moc"
