// pipeline::QsSummarizer, the question-summary facade the GUI's QsWorker and folio-cli share: the
// shipped drafter on a small sectioned document (one item per section, each with its section and
// word spans inside it, progress per section, items as they are drafted), below an item (evidence
// inside that item's words, no section keys), cancel before and during a run, a refused folder that
// leaves the loaded model in place, the shipped seq2seq checkpoint through the same call, and the
// tree's three shapes (qstrees.h) converted into one another.
#include "document/qstree.h"
#include "pipeline/qs/qssummarizer.h"
#include "pipeline/qs/qstrees.h"
#include "pipeline/shippedmodels.h"
#include "tests/common/sectioneddocument.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>

using namespace folio;
using namespace folio::pipeline;

namespace {

const QStringList kTitles{QStringLiteral("Tomatoes"), QStringLiteral("Pruning roses"), QStringLiteral("Compost")};

// Three top-level sections of a few sentences each (heading words first).
Document gardenDocument()
{
    const QStringList bodies{
        QStringLiteral("Tomatoes need full sun and deep watering twice a week. Plant tomatoes after the last frost. "
                       "Stake the tomato plants early so the stems do not break under the fruit."),
        QStringLiteral("Prune roses in late winter before the buds open. Cut each cane just above an outward facing bud. "
                       "Remove dead wood and crossing canes so air moves through the bush. Feed the roses after pruning."),
        QStringLiteral("Compost turns kitchen scraps into rich soil. Mix green scraps with dry leaves in equal parts. "
                       "Turn the compost heap every two weeks to let air in. The compost is ready when it smells of earth.")};
    Document doc;
    doc.title = QStringLiteral("Garden notes");
    for (int k = 0; k < kTitles.size(); ++k)
        testing::addSection(doc, kTitles[k], -1, bodies[k] + QLatin1Char(' ') + bodies[k]);
    return doc;
}

int countNodes(const std::vector<QsNode> &nodes)
{
    int n = 0;
    for (const QsNode &node : nodes)
        n += 1 + countNodes(node.children);
    return n;
}

} // namespace

class TestQsSummarizer : public QObject
{
    Q_OBJECT

    QString drafterDir() const
    {
        const QString dir = shippedQsDrafterDir();
        if (dir.isEmpty())
            qFatal("the shipped drafter resources/models/qs-drafter is missing from the checkout");
        return dir;
    }

private Q_SLOTS:
    void draftsTheTreeTheEditorShowsWithEvidence()
    {
        const Document doc = gardenDocument();
        QsSummarizer qs;
        QString error;
        QVERIFY2(qs.load(drafterDir(), &error), qPrintable(error));
        QVERIFY(qs.isDrafter() && !qs.isInt8());
        QCOMPARE(qs.checkpointName(), QDir(drafterDir()).dirName());
        int progressCalls = 0, lastDone = -1, lastTotal = -1, drafted = 0;
        const QsResult r = qs.generate(
            doc, Annotations{}, QString(), QsSettings{},
            [&](int done, int total) {
                ++progressCalls;
                lastDone = done;
                lastTotal = total;
            },
            nullptr, [&](const DraftItem &) { ++drafted; });
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(!r.cancelled);
        QCOMPARE(r.checkpoint, QDir(drafterDir()).dirName());
        QVERIFY(!r.rootSummary.isEmpty());
        QCOMPARE(int(r.roots.size()), 3); // one item per section
        QVERIFY(progressCalls >= 1);
        QCOMPARE(lastDone, lastTotal);
        QCOMPARE(drafted, countNodes(r.roots));
        QCOMPARE(drafted, int(r.draft.items.size()));
        QCOMPARE(r.questionsWritten, 0); // templates only
        const QHash<QString, int> index = qsWordIndex(doc);
        for (int k = 0; k < 3; ++k) {
            const QsNode &n = r.roots[std::size_t(k)];
            QVERIFY(!n.question.isEmpty() && !n.summary.isEmpty());
            QVERIFY(n.confidence >= 0.0 && n.confidence <= 1.0);
            QCOMPARE(n.evidenceSections, QStringList{qsSectionKey(doc, k)});
            QCOMPARE(qsResolveSection(doc, n.evidenceSections.first()), k);
            QVERIFY(!n.evidenceSpans.empty());
            for (const QsEvidenceSpan &span : n.evidenceSpans) {
                int first = -1, last = -1;
                QVERIFY(qsResolveSpan(index, span, &first, &last));
                QVERIFY2(first >= doc.sections[std::size_t(k)].firstWord && last < doc.sections[std::size_t(k)].endWord,
                         qPrintable(span.text));
                QVERIFY(n.summary.contains(span.text.left(20)));
            }
        }
        // The same tree as the drafter's own shape.
        const inference::QsHierarchy fromNodes = qsHierarchyFromNodes(r.rootSummary, r.roots);
        const inference::QsHierarchy fromDraft = qsHierarchyFromDraft(r.draft);
        QCOMPARE(fromNodes.items.size(), fromDraft.items.size());
        for (std::size_t i = 0; i < fromNodes.items.size(); ++i) {
            QCOMPARE(fromNodes.items[i].depth, fromDraft.items[i].depth);
            QCOMPARE(fromNodes.items[i].question, QString::fromStdString(fromDraft.items[i].question).simplified().toStdString());
        }
        // Settings reach the drafter.
        QsSettings one;
        one.maxItems = 1;
        const QsResult limited = qs.generate(doc, Annotations{}, QString(), one);
        QVERIFY(limited.ok);
        QCOMPARE(countNodes(limited.roots), 1);
    }

    void draftsBelowAnItemFromItsEvidence()
    {
        const Document doc = gardenDocument();
        QsSummarizer qs;
        QString error;
        QVERIFY2(qs.load(drafterDir(), &error), qPrintable(error));
        Annotations a;
        const QsResult whole = qs.generate(doc, a, QString());
        QVERIFY(whole.ok);
        a.qsSummary = whole.rootSummary;
        a.qsRoots = whole.roots;
        qsAssignIds(a.qsRoots);
        const QsNode &compost = a.qsRoots[2];
        const std::vector<int> words = qsEvidenceWords(doc, qsWordIndex(doc), compost);
        QVERIFY(!words.empty());
        const QsResult below = qs.generate(doc, a, compost.id);
        QVERIFY2(below.ok, qPrintable(below.error));
        QVERIFY(!below.rootSummary.isEmpty());
        QCOMPARE(qsInputBelow(doc, a, compost.id).id, compost.question);
        const QHash<QString, int> index = qsWordIndex(doc);
        int spans = 0;
        for (const QsItem &item : qsItems(below.roots)) {
            QVERIFY(item.node->evidenceSections.isEmpty()); // a part of the document has no sections of its own
            for (const QsEvidenceSpan &span : item.node->evidenceSpans) {
                int first = -1, last = -1;
                QVERIFY(qsResolveSpan(index, span, &first, &last));
                QVERIFY(first >= doc.sections[2].firstWord && last < doc.sections[2].endWord); // inside Compost
                ++spans;
            }
        }
        QVERIFY(!below.roots.empty());
        QVERIFY(spans > 0);
        // An unknown item: the whole document again.
        QCOMPARE(qsInputBelow(doc, a, QStringLiteral("nope")).text(), qsInputFromDocument(doc).text());
    }

    void cancelStopsTheRun()
    {
        const Document doc = gardenDocument();
        QsSummarizer qs;
        QString error;
        QVERIFY2(qs.load(drafterDir(), &error), qPrintable(error));
        std::atomic_bool cancel{true};
        const QsResult before = qs.generate(doc, Annotations{}, QString(), QsSettings{}, {}, &cancel);
        QVERIFY(before.cancelled);
        QVERIFY(!before.ok);
        QVERIFY(before.roots.empty());
        // Cancelled from the first progress report: no further section is read.
        cancel = false;
        int calls = 0, drafted = 0;
        const QsResult during = qs.generate(
            doc, Annotations{}, QString(), QsSettings{},
            [&](int, int) {
                ++calls;
                cancel = true;
            },
            &cancel, [&](const DraftItem &) { ++drafted; });
        QVERIFY(during.cancelled);
        QVERIFY(!during.ok);
        QCOMPARE(calls, 1);
        QVERIFY(drafted < 3);
        // The summarizer still works afterwards.
        cancel = false;
        QVERIFY(qs.generate(doc, Annotations{}, QString(), QsSettings{}, {}, &cancel).ok);
    }

    void refusedFolderKeepsTheLoadedModel()
    {
        QsSummarizer qs;
        QString error;
        QVERIFY(!qs.isLoaded());
        const QsResult none = qs.generate(gardenDocument(), Annotations{}, QString());
        QVERIFY(!none.ok && !none.error.isEmpty());
        QVERIFY2(qs.load(drafterDir(), &error), qPrintable(error));
        QTemporaryDir empty;
        QVERIFY(!qs.load(empty.path(), &error));
        QVERIFY2(error.contains(empty.path()), qPrintable(error));
        QVERIFY(qs.isDrafter());
        QCOMPARE(qs.checkpointDir(), drafterDir());
        error.clear();
        QVERIFY(!qs.setQuestionModel(empty.path(), &error));
        QVERIFY2(error.contains(QDir(empty.path()).dirName()), qPrintable(error));
        QVERIFY(qs.questionModel().isEmpty());
        QVERIFY(qs.generate(gardenDocument(), Annotations{}, QString()).ok);
    }

    void seq2seqThroughTheSameCall()
    {
        const QString dir = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/qmsum-qs");
        FOLIO_REQUIRE_DATA(dir);
        const Document doc = gardenDocument();
        QsSummarizer qs;
        QString error;
        QVERIFY2(qs.load(dir, &error), qPrintable(error));
        QVERIFY(!qs.isDrafter() && qs.generator());
        QsSettings settings;
        settings.maxLength = 24;
        QCOMPARE(qs.generationSettings(settings).maxLength, 24);
        int steps = 0, maxTotal = 0;
        const QsResult r = qs.generate(doc, Annotations{}, QString(), settings, [&](int, int total) {
            ++steps;
            maxTotal = std::max(maxTotal, total);
        });
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(steps > 0);
        QVERIFY2(maxTotal > 0 && maxTotal <= 24, qPrintable(QString::number(maxTotal)));
        QVERIFY(!r.generated.text.isEmpty());
        QVERIFY(!r.int8);
        // The editor's tree is the parsed tree, converted.
        const std::vector<QsNode> nodes = qsNodesFromHierarchy(r.generated.parse.tree);
        QCOMPARE(countNodes(r.roots), countNodes(nodes));
        QCOMPARE(r.rootSummary, QString::fromStdString(r.generated.parse.tree.rootSummary));
        std::atomic_bool cancel{false};
        const QsResult cancelled = qs.generate(doc, Annotations{}, QString(), settings, [&](int, int) { cancel = true; }, &cancel);
        QVERIFY(cancelled.cancelled);
        QVERIFY(!cancelled.ok);
    }

    void treeShapesConvert()
    {
        inference::QsHierarchy h;
        h.rootSummary = "All of it.";
        const int depths[] = {1, 2, 2, 3, 1, 2};
        for (int i = 0; i < 6; ++i)
            h.items.push_back({"Q" + std::to_string(i) + "?", "S  " + std::to_string(i) + ".", depths[i]});
        const std::vector<QsNode> roots = qsNodesFromHierarchy(h);
        QCOMPARE(int(roots.size()), 2);
        QCOMPARE(int(roots[0].children.size()), 2);
        QCOMPARE(roots[0].children[1].children[0].question, QStringLiteral("Q3?"));
        QCOMPARE(roots[1].children[0].summary, QStringLiteral("S  5."));
        const inference::QsHierarchy back = qsHierarchyFromNodes(QString::fromStdString(h.rootSummary), roots);
        QCOMPARE(back.rootSummary, h.rootSummary);
        QCOMPARE(back.items.size(), h.items.size());
        for (std::size_t i = 0; i < h.items.size(); ++i) {
            QCOMPARE(back.items[i].depth, h.items[i].depth);
            QCOMPARE(back.items[i].question, h.items[i].question);
            QCOMPARE(back.items[i].summary, "S " + std::to_string(i) + "."); // simplified
        }
        // Drafted items nest by depth, their evidence mapped through the part's words.
        Document doc;
        for (int i = 0; i < 6; ++i) {
            Word w;
            w.id = QStringLiteral("w%1").arg(i);
            w.text = QStringLiteral("word");
            doc.words.push_back(w);
        }
        DraftSource src;
        DraftSection sec;
        sec.sentences.push_back({QStringLiteral("word word"), {}, 0, 1});
        src.sections.push_back(sec);
        QsDraft draft;
        draft.items.push_back({QStringLiteral("A?"), QStringLiteral("a"), 1, 0, {{0, 0}}});
        draft.items.push_back({QStringLiteral("B?"), QStringLiteral("b"), 2, 0, {{0, 0}}});
        draft.items.push_back({QStringLiteral("C?"), QStringLiteral("c"), 1, 0, {}});
        const std::vector<QsNode> drafted = qsNodesFromDraft(src, draft, doc, {4, 5});
        QCOMPARE(int(drafted.size()), 2);
        QCOMPARE(drafted[0].children[0].question, QStringLiteral("B?"));
        QCOMPARE(drafted[0].evidenceSpans.size(), std::size_t(1));
        QCOMPARE(drafted[0].evidenceSpans[0].firstWord, QStringLiteral("w4"));
        QCOMPARE(drafted[0].evidenceSpans[0].lastWord, QStringLiteral("w5"));
        QCOMPARE(qsHierarchyFromDraft(draft).items[1].depth, 2);
    }
};

FOLIO_TEST_MAIN(TestQsSummarizer)
#include "tst_qssummarizer.moc"
