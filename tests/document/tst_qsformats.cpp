// The question-summary formats (issue 14): govreport-qs, hibrids, qmsum, qs (new fields),
// qs-markdown / qs-html. Exact round trips (export -> import -> export, the same bytes) on every
// QMSum meeting of every split and on a hand-made scan-like document; strict validation with
// messages naming file and JSON path (dangling parent index, deep nesting, wrong types, huge
// strings, spans outside the transcript).
#include "document/formats/datasetformat.h"
#include "document/formats/datasetlimits.h"
#include "document/formats/qsdocument.h"
#include "document/html/htmlloader.h"
#include "document/qstree.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/resource.h>

using namespace folio;

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// A scan-like document: OCR paragraphs of words, three sections (1, 1.1, 2), words before the first.
DatasetItem sampleItem()
{
    DatasetItem item;
    item.name = QStringLiteral("report-1");
    Document &doc = item.document;
    doc.sourcePath = QStringLiteral("report.png");
    doc.kind = SourceKind::Image;
    doc.title = QStringLiteral("A report");
    doc.pages.push_back(Page{QSizeF(1000, 1000), QString(), 300});
    Node root;
    root.id = QStringLiteral("root");
    doc.addNode(root, -1);
    const QStringList paragraphs{QStringLiteral("Cover note before any heading"),
                                 QStringLiteral("1 Introduction"), QStringLiteral("The report covers rivers."),
                                 QStringLiteral("1.1 Scope"), QStringLiteral("Only northern rivers, sampled twice."),
                                 QStringLiteral("2 Results"), QStringLiteral("Most results agree <with> *earlier* work."),
                                 QStringLiteral("A second results paragraph.")};
    std::vector<int> paragraphStart;
    for (int p = 0; p < paragraphs.size(); ++p) {
        Node par;
        par.id = QStringLiteral("par%1").arg(p);
        par.kind = NodeKind::Paragraph;
        const int pn = doc.addNode(par, 0);
        Node line;
        line.id = par.id + QStringLiteral("/l0");
        line.kind = NodeKind::Line;
        const int ln = doc.addNode(line, pn);
        paragraphStart.push_back(int(doc.words.size()));
        for (const QString &t : paragraphs.at(p).split(QLatin1Char(' '))) {
            Node wn;
            wn.id = QStringLiteral("w%1").arg(doc.words.size());
            wn.kind = NodeKind::Word;
            wn.text = t;
            Word w;
            w.id = wn.id;
            w.text = t;
            w.box = QRectF(10, 10 + 20 * doc.words.size(), 50, 15);
            w.node = doc.addNode(wn, ln);
            doc.words.push_back(w);
        }
    }
    paragraphStart.push_back(int(doc.words.size()));
    auto section = [&](const QString &title, int level, int parent, int firstPar, int endPar) {
        Section s;
        s.title = title;
        s.level = level;
        s.parent = parent;
        s.firstWord = paragraphStart[size_t(firstPar)];
        s.endWord = paragraphStart[size_t(endPar)];
        if (parent >= 0)
            doc.sections[size_t(parent)].children.push_back(int(doc.sections.size()));
        doc.sections.push_back(s);
    };
    section(QStringLiteral("1 Introduction"), 1, -1, 1, 3);
    section(QStringLiteral("1.1 Scope"), 2, 0, 3, 5);
    section(QStringLiteral("2 Results"), 1, -1, 5, 8);
    doc.normaliseWordBoxes();
    Annotations &a = item.annotations;
    a.qsSummary = QStringLiteral("A report on rivers.");
    const QString q1 = qsedit::addChild(a, {}, QStringLiteral("What does it cover?"), QStringLiteral("Rivers."));
    const QString q11 = qsedit::addChild(a, q1, QStringLiteral("Which rivers?"), QStringLiteral("Northern ones."));
    const QString q2 = qsedit::addChild(a, {}, QStringLiteral("What was found?"), QStringLiteral("Agreement."));
    qsedit::attachWords(a, doc, q11, {QStringLiteral("w13"), QStringLiteral("w14")}); // "Only northern"
    qsedit::attachSection(a, doc, q2, 2);
    // A suggestion and a rejected item: the training layouts leave the rejected one out.
    QsNode suggested;
    suggested.question = QStringLiteral("Any caveats?");
    suggested.summary = QStringLiteral("Sampling was sparse.");
    suggested.state = ReviewState::Suggested;
    suggested.confidence = 0.62;
    suggested.source.kind = AnnotationSource::Model;
    suggested.source.checkpoint = QStringLiteral("qmsum-qs");
    QsNode rejected = suggested;
    rejected.question = QStringLiteral("Rejected question?");
    rejected.state = ReviewState::Rejected;
    a.qsRoots.back().children.push_back(suggested);
    a.qsRoots.back().children.push_back(rejected);
    qsAssignIds(a.qsRoots);
    return item;
}

QMap<QString, QByteArray> exportBytes(const QString &format, const std::vector<DatasetItem> &items, const QString &dir,
                                      QStringList *written, bool includeSuggestions = false)
{
    QString error;
    DatasetExportOptions options;
    options.includeSuggestions = includeSuggestions;
    written->clear();
    if (!createDatasetFormat(format)->exportItems(items, dir, options, written, &error)) {
        qWarning() << format << error;
        return {};
    }
    QMap<QString, QByteArray> out;
    for (const QString &w : *written)
        out.insert(QFileInfo(w).fileName(), readAll(w));
    return out;
}

bool importAll(const QString &format, const QStringList &files, std::vector<DatasetItem> *items, QString *error)
{
    items->clear();
    for (const QString &f : files) {
        std::vector<DatasetItem> part;
        if (!createDatasetFormat(format)->importFile(f, &part, error))
            return false;
        for (DatasetItem &i : part)
            items->push_back(std::move(i));
    }
    return true;
}

// export -> import -> export: the same bytes. Returns the imported items.
std::vector<DatasetItem> roundTrip(const QString &format, const std::vector<DatasetItem> &items, const QString &root,
                                   bool includeSuggestions = false)
{
    QStringList first, second;
    const QMap<QString, QByteArray> a = exportBytes(format, items, root + QStringLiteral("/a"), &first, includeSuggestions);
    std::vector<DatasetItem> back;
    QString error;
    if (a.isEmpty() || !importAll(format, first, &back, &error)) {
        qWarning() << "import failed:" << error;
        return {};
    }
    const QMap<QString, QByteArray> b = exportBytes(format, back, root + QStringLiteral("/b"), &second, includeSuggestions);
    if (a != b) {
        for (auto it = a.begin(); it != a.end(); ++it)
            if (b.value(it.key()) != it.value()) {
                const QByteArray other = b.value(it.key());
                int at = 0;
                while (at < it.value().size() && at < other.size() && it.value()[at] == other[at])
                    ++at;
                qWarning() << format << it.key() << "differs at byte" << at << ":" << it.value().mid(at, 80) << "vs" << other.mid(at, 80);
                break;
            }
        return {};
    }
    return back;
}

QString questions(const std::vector<QsNode> &roots)
{
    QStringList out;
    for (const QsItem &it : qsItems(roots))
        out << it.number + QLatin1Char(' ') + it.node->question;
    return out.join(QStringLiteral(" | "));
}

} // namespace

class TestQsFormats : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    QString importError(const QString &format, const QString &name, const QByteArray &bytes)
    {
        const QString path = m_dir.filePath(name);
        if (!writeFile(path, bytes))
            return QStringLiteral("cannot write");
        std::vector<DatasetItem> items;
        QString error;
        if (createDatasetFormat(format)->importFile(path, &items, &error))
            return QString();
        return error;
    }

private Q_SLOTS:
    void registered()
    {
        for (const QString &n : {QStringLiteral("govreport-qs"), QStringLiteral("hibrids"), QStringLiteral("qmsum"),
                                 QStringLiteral("qs-markdown"), QStringLiteral("qs-html")}) {
            QVERIFY2(datasetFormatNames().contains(n), qPrintable(n));
            QCOMPARE(createDatasetFormat(n)->name(), n);
        }
        QVERIFY(!createDatasetFormat(QStringLiteral("qs-markdown"))->canImport());
        QVERIFY(createDatasetFormat(QStringLiteral("govreport-qs"))->canImport());
    }

    void govreportRoundTrip()
    {
        const std::vector<DatasetItem> items{sampleItem()};
        const std::vector<DatasetItem> back = roundTrip(QStringLiteral("govreport-qs"), items, m_dir.filePath("gr"));
        QCOMPARE(back.size(), size_t(1));
        const Document &doc = back[0].document;
        QCOMPARE(back[0].name, QStringLiteral("report-1"));
        QCOMPARE(doc.title, QStringLiteral("A report"));
        // The cover note becomes an untitled first section; then 1, 1.1, 2 with their levels.
        QStringList titles;
        for (const Section &s : doc.sections)
            titles << QStringLiteral("%1:%2").arg(s.level).arg(s.title);
        QCOMPARE(titles, QStringList({"1:", "1:1 Introduction", "2:1.1 Scope", "1:2 Results"}));
        // Rejected and suggested items are not training data.
        QCOMPARE(questions(back[0].annotations.qsRoots),
                 QStringLiteral("1 What does it cover? | 1.1 Which rivers? | 2 What was found?"));
        QCOMPARE(back[0].annotations.qsSummary, QStringLiteral("A report on rivers."));
        // Evidence: "Which rivers?" had words w13-w14 (paragraph 4), "What was found?" section 2 (paragraphs 5-7).
        const std::vector<formats::QsParagraph> paragraphs = formats::documentParagraphs(doc);
        QCOMPARE(paragraphs.size(), size_t(8));
        QCOMPARE(paragraphs[6].text, QStringLiteral("Most results agree <with> *earlier* work."));
        const QHash<QString, int> index = qsWordIndex(doc);
        QCOMPARE(formats::evidenceParagraphs(doc, paragraphs, index, back[0].annotations.qsRoots[0].children[0]),
                 std::vector<int>({4}));
        QCOMPARE(formats::evidenceParagraphs(doc, paragraphs, index, back[0].annotations.qsRoots[1]), std::vector<int>({5, 6, 7}));
        // With suggestions asked for, the suggestion is written (and still no rejected item).
        QStringList written;
        const QByteArray withSuggestions =
            exportBytes(QStringLiteral("govreport-qs"), items, m_dir.filePath("gr-s"), &written, true).first();
        QVERIFY(withSuggestions.contains("Any caveats?"));
        QVERIFY(!withSuggestions.contains("Rejected question?"));
        QVERIFY(withSuggestions.contains("\"parent_pair_index\":2"));
    }

    void hibridsRoundTrip()
    {
        const std::vector<DatasetItem> items{sampleItem()};
        const std::vector<DatasetItem> back = roundTrip(QStringLiteral("hibrids"), items, m_dir.filePath("hb"), true);
        QCOMPARE(back.size(), size_t(1));
        const QByteArray line = readAll(m_dir.filePath("hb/a/data.hibrids.jsonl"));
        QVERIFY(line.contains("\"section_title\":\"A report\""));
        QVERIFY(line.contains("\"child_questions\""));
        QVERIFY(line.contains("\"answer\":\"Northern ones.\""));
        const Document &doc = back[0].document;
        QCOMPARE(doc.title, QStringLiteral("A report"));
        QCOMPARE(doc.sections.size(), size_t(3)); // the cover note is the root section's own paragraph
        QCOMPARE(doc.sections[1].parent, 0);
        QCOMPARE(formats::documentParagraphs(doc).front().section, -1);
        QCOMPARE(questions(back[0].annotations.qsRoots),
                 QStringLiteral("1 What does it cover? | 1.1 Which rivers? | 2 What was found? | 2.1 Any caveats?"));
    }

    void webPageParagraphsAreBlocks()
    {
        const QByteArray page = "<html><body><h1>Guide</h1><p>Hello <b>big</b> world.</p><h2>Setup</h2>"
                                "<p>Run <code>make</code> first.</p><ul><li>one</li><li>two</li></ul></body></html>";
        HtmlLoadResult r = loadHtmlBytes(page, QStringLiteral("guide.html"));
        QVERIFY2(r.ok, qPrintable(r.error));
        DatasetItem item;
        item.name = QStringLiteral("guide");
        item.document = r.document;
        QStringList texts;
        for (const formats::QsParagraph &p : formats::documentParagraphs(item.document))
            texts << QStringLiteral("%1:%2").arg(p.section).arg(p.text);
        QCOMPARE(texts, QStringList({"0:Guide", "0:Hello big world.", "1:Setup", "1:Run make first.", "1:one", "1:two"}));
        const std::vector<DatasetItem> back = roundTrip(QStringLiteral("govreport-qs"), {item}, m_dir.filePath("web"));
        QCOMPARE(back.size(), size_t(1));
        QCOMPARE(back[0].document.sections.size(), size_t(2));
        QCOMPARE(back[0].document.sections[1].level, 2);
    }

    void qsKeepsTheNewFields()
    {
        const std::vector<DatasetItem> items{sampleItem()};
        const std::vector<DatasetItem> back = roundTrip(QStringLiteral("qs"), items, m_dir.filePath("qs"));
        QCOMPARE(back.size(), size_t(1));
        const std::vector<QsItem> was = qsItems(items[0].annotations.qsRoots), now = qsItems(back[0].annotations.qsRoots);
        QCOMPARE(now.size(), was.size());
        for (size_t i = 0; i < was.size(); ++i) {
            const QsNode &a = *was[i].node, &b = *now[i].node;
            QCOMPARE(b.id, a.id);
            QCOMPARE(b.question, a.question);
            QCOMPARE(int(b.state), int(a.state));
            QCOMPARE(b.confidence, a.confidence);
            QCOMPARE(b.source.checkpoint, a.source.checkpoint);
            QVERIFY(b.evidenceSpans == a.evidenceSpans);
            QCOMPARE(b.evidenceSections, a.evidenceSections);
        }
        // A file without the new keys (as Folio wrote it before) reads and writes back unchanged.
        const QByteArray old = "{\"hierarchy\":[{\"children\":[],\"evidence\":[\"Intro\"],\"question\":\"Q?\",\"summary\":\"S\"}],"
                               "\"id\":\"d\",\"linearised\":\"R [L-] Q? S\",\"summary\":\"R\"}\n";
        const QString path = m_dir.filePath(QStringLiteral("old.qs.jsonl"));
        QVERIFY(writeFile(path, old));
        std::vector<DatasetItem> read;
        QString error;
        QVERIFY2(createDatasetFormat(QStringLiteral("qs"))->importFile(path, &read, &error), qPrintable(error));
        QStringList written;
        QCOMPARE(exportBytes(QStringLiteral("qs"), read, m_dir.filePath("qs-old"), &written).first(), old);
    }

    // Issue 36: a meeting whose first turn is "word " x 10 M (52 MB) took 3.7 GB before the
    // 1 M-word refusal; the words are counted now before any per-word structure is built.
    void qmsumHugeTurnRefusedEarly()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("meeting.json"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"meeting_transcripts\": [{\"speaker\": \"A\", \"content\": \"");
            f.write(QByteArray("word ").repeated(10'000'000));
            f.write("\"}]}");
        }
        rusage before{};
        getrusage(RUSAGE_SELF, &before);
        std::vector<DatasetItem> items;
        QString error;
        QVERIFY(!createDatasetFormat(QStringLiteral("qmsum"))->importFile(path, &items, &error));
        rusage after{};
        getrusage(RUSAGE_SELF, &after);
        const long growthMiB = (after.ru_maxrss - before.ru_maxrss) / 1024;
        qInfo("peak grew by %ld MiB (peak %ld MiB): %s", growthMiB, after.ru_maxrss / 1024, qPrintable(error));
        QVERIFY2(error.startsWith(path) && error.contains(QLatin1String("more than 1000000 words")), qPrintable(error));
        QVERIFY(items.empty());
        QVERIFY2(growthMiB < 600, qPrintable(QString::number(growthMiB)));
    }

    void qmsumEverySplitRoundTrips()
    {
        const QString root = test::sharedPath(QStringLiteral("data/qmsum/data/ALL"));
        FOLIO_REQUIRE_DATA(root);
        int meetings = 0, queries = 0, spans = 0;
        for (const QString &split : {QStringLiteral("train"), QStringLiteral("val"), QStringLiteral("test")}) {
            QDir d(QDir(root).filePath(split));
            QStringList files;
            for (const QString &f : d.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
                files << d.filePath(f);
            QVERIFY2(!files.isEmpty(), qPrintable(split));
            std::vector<DatasetItem> items;
            QString error;
            QVERIFY2(importAll(QStringLiteral("qmsum"), files, &items, &error), qPrintable(error));
            for (const DatasetItem &i : items)
                for (const QsItem &it : qsItems(i.annotations.qsRoots)) {
                    ++queries;
                    spans += int(it.node->evidenceSpans.size());
                }
            const std::vector<DatasetItem> back = roundTrip(QStringLiteral("qmsum"), items, m_dir.filePath("qmsum-" + split));
            QCOMPARE(back.size(), items.size());
            // The other layouts carry the same meetings exactly too.
            QVERIFY(!roundTrip(QStringLiteral("govreport-qs"), items, m_dir.filePath("qmsum-gr-" + split)).empty());
            QVERIFY(!roundTrip(QStringLiteral("hibrids"), items, m_dir.filePath("qmsum-hb-" + split)).empty());
            meetings += int(items.size());
        }
        qInfo() << "QMSum:" << meetings << "meetings," << queries << "queries," << spans << "evidence spans round-trip exactly";
        QVERIFY(meetings > 200 && spans > 1000);
    }

    void qmsumMeetingContent()
    {
        const QString path = test::sharedPath(QStringLiteral("data/qmsum/data/ALL/test/Bed003.json"));
        FOLIO_REQUIRE_DATA(path);
        std::vector<DatasetItem> items;
        QString error;
        QVERIFY2(createDatasetFormat(QStringLiteral("qmsum"))->importFile(path, &items, &error), qPrintable(error));
        const DatasetItem &m = items.front();
        QCOMPARE(m.name, QStringLiteral("Bed003"));
        QCOMPARE(formats::documentParagraphs(m.document).size(), size_t(1029));
        QCOMPARE(m.document.sections.size(), size_t(3));
        QCOMPARE(m.document.sections[1].title, QStringLiteral("Belief net Intentions"));
        QCOMPARE(m.document.words[size_t(m.document.sections[1].firstWord)].id, QStringLiteral("p65/w0"));
        // General queries at the top, the specific ones under the first.
        QVERIFY(m.annotations.qsRoots.size() >= 1);
        const QsNode &first = m.annotations.qsRoots.front();
        QVERIFY(first.question.startsWith(QLatin1String("Summarize")));
        QVERIFY(!first.children.empty());
        for (const QsNode &c : first.children)
            QVERIFY(c.children.empty());
    }

    void outlinesForPeople()
    {
        const std::vector<DatasetItem> items{sampleItem()};
        QStringList written;
        const QByteArray md = exportBytes(QStringLiteral("qs-markdown"), items, m_dir.filePath("md"), &written).first();
        QVERIFY(written.first().endsWith(QLatin1String(".md")));
        QVERIFY2(md.contains("- **1 What does it cover?** Rivers."), md.constData());
        QVERIFY(md.contains("  - **1.1 Which rivers?** Northern ones."));
        QVERIFY(md.contains("Only northern")); // the evidence words quoted
        QVERIFY(md.contains("Section: 2 Results"));
        QVERIFY(md.contains("*(suggested, 62 %)*"));
        QVERIFY(!md.contains("Rejected question"));
        std::vector<DatasetItem> marked = items;
        marked[0].annotations.qsSummary = QStringLiteral("Rivers <and> *lakes*");
        const QByteArray html = exportBytes(QStringLiteral("qs-html"), marked, m_dir.filePath("html"), &written).first();
        QVERIFY(html.startsWith("<!DOCTYPE html>"));
        QVERIFY(html.contains("Rivers &lt;and&gt; *lakes*"));
        QVERIFY(!html.contains("<and>"));
        QVERIFY(html.contains("<blockquote>Only northern</blockquote>"));
        const QByteArray md2 = exportBytes(QStringLiteral("qs-markdown"), marked, m_dir.filePath("md2"), &written).first();
        QVERIFY(md2.contains("Rivers \\<and\\> \\*lakes\\*"));
        QCOMPARE(html.count("<ul>"), html.count("</ul>"));
        QString error;
        std::vector<DatasetItem> none;
        QVERIFY(!createDatasetFormat(QStringLiteral("qs-html"))->importFile(written.first(), &none, &error));
        QVERIFY2(error.contains(QLatin1String("export-only")), qPrintable(error));
    }

    void badInput_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        const QByteArray sections = "\"document_sections\":[{\"title\":\"A\",\"depth\":1,\"paragraphs\":[\"one\",\"two\"]}]";
        QTest::newRow("dangling parent") << "govreport-qs"
            << QByteArray("{\"doc_id\":\"d\"," + sections + ",\"question_summary_pairs\":[{\"question\":\"Q\",\"summary\":\"S\","
                          "\"parent_pair_index\":-1},{\"question\":\"Q2\",\"summary\":\"S\",\"parent_pair_index\":5}]}\n")
            << ":1: $.question_summary_pairs[1].parent_pair_index: 5 does not point at an earlier pair";
        QTest::newRow("self parent") << "govreport-qs"
            << QByteArray("{\"doc_id\":\"d\"," + sections + ",\"question_summary_pairs\":[{\"question\":\"Q\",\"summary\":\"S\","
                          "\"parent_pair_index\":0}]}\n")
            << "$.question_summary_pairs[0].parent_pair_index: 0 does not point";
        QTest::newRow("depth jump") << "govreport-qs"
            << QByteArray("{\"doc_id\":\"d\",\"document_sections\":[{\"title\":\"A\",\"depth\":1,\"paragraphs\":[]},"
                          "{\"title\":\"B\",\"depth\":3,\"paragraphs\":[]}],\"question_summary_pairs\":[]}\n")
            << "$.document_sections[1].depth: level 3 is more than one below";
        QTest::newRow("depth as string") << "govreport-qs"
            << QByteArray("{\"doc_id\":\"d\",\"document_sections\":[{\"title\":\"A\",\"depth\":\"1\",\"paragraphs\":[]}],"
                          "\"question_summary_pairs\":[]}\n")
            << "$.document_sections[0].depth: expected an integer";
        QTest::newRow("alignment outside") << "govreport-qs"
            << QByteArray("{\"doc_id\":\"d\"," + sections + ",\"question_summary_pairs\":[{\"question\":\"Q\",\"summary\":\"S\","
                          "\"parent_pair_index\":-1,\"paragraph_alignment\":[1,2]}]}\n")
            << "paragraph_alignment[1]: paragraph 2 does not exist (2 paragraphs)";
        QByteArray chain = "{\"doc_id\":\"d\",\"document_sections\":[],\"question_summary_pairs\":[";
        for (int i = 0; i < 70; ++i)
            chain += (i ? "," : "") + QByteArray("{\"question\":\"Q\",\"summary\":\"S\",\"parent_pair_index\":") + QByteArray::number(i - 1) + "}";
        QTest::newRow("deep parent chain") << "govreport-qs" << chain + "]}\n" << "$.question_summary_pairs[64]: pair at level 65";
        QTest::newRow("missing pairs") << "govreport-qs" << QByteArray("{\"doc_id\":\"d\",\"document_sections\":[]}\n")
                                       << "question_summary_pairs";
        QTest::newRow("huge question") << "govreport-qs"
            << QByteArray("{\"doc_id\":\"d\",\"document_sections\":[],\"question_summary_pairs\":[{\"question\":\"" +
                          QByteArray(DatasetLimits::maxStringChars + 10, 'q') + "\",\"summary\":\"S\",\"parent_pair_index\":-1}]}\n")
            << "qs.nodes[0]";
        QByteArray deepSections = "{\"doc_id\":\"d\",\"section\":{\"section_title\":\"T\",\"paragraphs\":[],\"subsections\":";
        QByteArray close;
        for (int i = 0; i < 100; ++i) {
            deepSections += "[{\"section_title\":\"S\",\"paragraphs\":[\"p\"],\"subsections\":";
            close += "}]";
        }
        QTest::newRow("deep sections") << "hibrids" << deepSections + "[]" + close + "},\"questions\":[]}\n"
                                       << "sections nested deeper than 64 levels";
        QByteArray deepQuestions = "{\"doc_id\":\"d\",\"section\":{\"section_title\":\"T\",\"paragraphs\":[],\"subsections\":[]},\"questions\":";
        close.clear();
        for (int i = 0; i < 100; ++i) {
            deepQuestions += "[{\"question\":\"Q\",\"answer\":\"A\",\"child_questions\":";
            close += "}]";
        }
        QTest::newRow("deep questions") << "hibrids" << deepQuestions + "[]" + close + "}\n" << "questions nested deeper than 64 levels";
        QTest::newRow("answer not a string") << "hibrids"
            << QByteArray("{\"doc_id\":\"d\",\"section\":{\"section_title\":\"T\",\"paragraphs\":[],\"subsections\":[]},"
                          "\"questions\":[{\"question\":\"Q\",\"answer\":7}]}\n")
            << "$.questions[0].answer";
        const QByteArray turns = "\"meeting_transcripts\":[{\"speaker\":\"A\",\"content\":\"hi\"},{\"speaker\":\"B\",\"content\":\"yes\"}]";
        QTest::newRow("span outside") << "qmsum"
            << QByteArray("{" + turns + ",\"topic_list\":[{\"topic\":\"T\",\"relevant_text_span\":[[\"0\",\"2\"]]}]}")
            << "$.topic_list[0].relevant_text_span[0]: span [0, 2] is not within the 2 turns";
        QTest::newRow("span reversed") << "qmsum"
            << QByteArray("{" + turns + ",\"specific_query_list\":[{\"query\":\"Q\",\"answer\":\"A\",\"relevant_text_span\":[[1,0]]}]}")
            << "$.specific_query_list[0].relevant_text_span[0]: span [1, 0]";
        QTest::newRow("span not a number") << "qmsum"
            << QByteArray("{" + turns + ",\"topic_list\":[{\"topic\":\"T\",\"relevant_text_span\":[[\"a\",\"1\"]]}]}")
            << "$.topic_list[0].relevant_text_span[0][0]: expected a turn number";
        QTest::newRow("turn not an object") << "qmsum" << QByteArray("{\"meeting_transcripts\":[\"hello\"]}")
                                            << "$.meeting_transcripts[0]";
        QTest::newRow("not a meeting") << "qmsum" << QByteArray("{\"something\":[]}") << "meeting_transcripts";
        QTest::newRow("qs bad state") << "qs"
            << QByteArray("{\"id\":\"d\",\"summary\":\"R\",\"hierarchy\":[{\"question\":\"Q\",\"summary\":\"S\",\"children\":[],"
                          "\"state\":\"bogus\"}]}\n")
            << ":1: $.hierarchy[0]: unknown state \"bogus\"";
    }

    void badInput()
    {
        QFETCH(QString, format);
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        const QString name = QStringLiteral("bad-%1.json").arg(QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')));
        const QString error = importError(format, name, content);
        QVERIFY2(!error.isEmpty(), "accepted");
        QVERIFY2(error.contains(m_dir.filePath(name)), qPrintable(error));
        QVERIFY2(error.contains(expected), qPrintable(error.left(400)));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestQsFormats)
#include "tst_qsformats.moc"
