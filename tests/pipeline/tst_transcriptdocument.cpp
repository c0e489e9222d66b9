// Meeting transcripts (QMSum) open as Documents: turns as paragraphs, topics as sections, the
// queries as the gold hierarchy; the file is recognised by content through loadDocumentFile.
#include "pipeline/documentsource.h"
#include "tests/common/testdata.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace folio;
using namespace folio::pipeline;

class TestTranscriptDocument : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &bytes) { return test::writeTestFile(m_dir, name, bytes); }

private Q_SLOTS:
    void realMeetingTopicsBecomeSections()
    {
        const QString path = test::sharedPath(QStringLiteral("data/qmsum/data/ALL/test/Bed003.json"));
        FOLIO_REQUIRE_DATA(path);
        const LoadedDocument d = loadDocumentFile(path);
        QVERIFY2(d.ok, qPrintable(d.error));
        QCOMPARE(d.kind, FileKind::Transcript);
        const Document &doc = d.document;
        QCOMPARE(doc.title, QStringLiteral("Bed003"));
        QCOMPARE(int(doc.nodes.size()), 1 + 1029); // root + one paragraph per turn
        QCOMPARE(doc.nodes[1].text, QStringLiteral("Nice ."));
        QCOMPARE(doc.nodes[1].attributes.front().second, QStringLiteral("Grad C"));
        QCOMPARE(doc.words.front().text, QStringLiteral("Grad"));
        QCOMPARE(doc.words[1].text, QStringLiteral("C:"));
        QStringList titles;
        for (const Section &s : doc.sections)
            titles << s.title;
        QCOMPARE(titles, QStringList({"Meeting preliminaries", "Belief net Intentions", "Belief net structure"}));
        // Topic 2 starts at turn 65; sections tile the transcript from its first word.
        QCOMPARE(doc.sections[0].firstWord, 0);
        QCOMPARE(doc.words[size_t(doc.sections[1].firstWord)].id, QStringLiteral("p65/w0"));
        QCOMPARE(doc.sections[0].endWord, doc.sections[1].firstWord);
        QCOMPARE(doc.sections[2].endWord, int(doc.words.size()));
        for (const Section &s : doc.sections)
            QCOMPARE(s.level, 1);
        // The queries: general ones at the top, specific ones under the first with their turns.
        QVERIFY(!d.annotations.qsRoots.empty());
        QVERIFY(!d.annotations.qsRoots.front().children.empty());
        QVERIFY(!d.annotations.qsRoots.front().children.front().evidenceSpans.empty());
    }

    void topicsOutOfOrderAndMissing()
    {
        const QByteArray json = R"({"meeting_transcripts": [
            {"speaker": "A", "content": "hello there"}, {"speaker": "B", "content": "hi"},
            {"speaker": "A", "content": "let us start"}, {"speaker": "B", "content": "fine"}],
          "topic_list": [{"topic": "Later", "relevant_text_span": [["2", "3"]]},
                         {"topic": "Opening", "relevant_text_span": [["0", "1"]]}]})";
        const LoadedDocument d = loadDocumentFile(write(QStringLiteral("m.json"), json));
        QVERIFY2(d.ok, qPrintable(d.error));
        QCOMPARE(d.document.sections.size(), size_t(2));
        QCOMPARE(d.document.sections[0].title, QStringLiteral("Opening"));
        QCOMPARE(d.document.sections[1].firstWord, 5); // "A: hello there" (3) + "B: hi" (2)
        const QByteArray noTopics = R"({"meeting_transcripts": [{"speaker": "A", "content": "x y"}]})";
        const LoadedDocument e = loadDocumentFile(write(QStringLiteral("n.json"), noTopics));
        QVERIFY2(e.ok, qPrintable(e.error));
        QVERIFY(e.document.sections.empty()); // no topics: no sections, the turns are all there
        QCOMPARE(e.document.words.size(), size_t(3)); // "A:" "x" "y"
    }

    void badTranscriptsAreRefused()
    {
        const QByteArray outside = R"({"meeting_transcripts": [{"speaker": "A", "content": "x"}],
          "topic_list": [{"topic": "T", "relevant_text_span": [["0", "5"]]}]})";
        const QString path = write(QStringLiteral("bad.json"), outside);
        const LoadedDocument d = loadDocumentFile(path);
        QVERIFY(!d.ok);
        QVERIFY2(d.error.contains(path) && d.error.contains(QLatin1String("$.topic_list[0]")), qPrintable(d.error));
        const LoadedDocument other = loadDocumentFile(write(QStringLiteral("other.json"), R"({"something": 1})"));
        QVERIFY(!other.ok);
        QVERIFY2(other.error.contains(QLatin1String("QMSum")), qPrintable(other.error));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestTranscriptDocument)
#include "tst_transcriptdocument.moc"
