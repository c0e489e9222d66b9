// The question-summary hierarchy data model (document/qstree.h): ids, flat view and numbering,
// the editor's edits, evidence spans and sections, the "evidence missing" flag, merging a
// generated hierarchy, the JSON form (new fields and files written before them) and the limits.
#include "document/documentjson.h"
#include "document/formats/datasetlimits.h"
#include "document/qstree.h"
#include "tests/common/testdata.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace folio;

class TestQsTree : public QObject
{
    Q_OBJECT

    // Six words "w0".."w5" in two sections: "Intro" (heading node n0, words 0..2) and "Body" (no node, words 3..5).
    static Document sampleDocument()
    {
        Document d;
        d.pages.push_back(Page{});
        Node n;
        n.id = QStringLiteral("n0");
        d.nodes.push_back(n);
        for (int i = 0; i < 6; ++i) {
            Word w;
            w.id = QStringLiteral("w%1").arg(i);
            w.text = QStringLiteral("t%1").arg(i);
            d.words.push_back(w);
        }
        Section intro;
        intro.title = QStringLiteral("Intro");
        intro.level = 1;
        intro.node = 0;
        intro.firstWord = 0;
        intro.endWord = 3;
        Section body;
        body.title = QStringLiteral("Body");
        body.level = 1;
        body.firstWord = 3;
        body.endWord = 6;
        d.sections = {intro, body};
        return d;
    }

    static QStringList numbers(const Annotations &a)
    {
        QStringList out;
        for (const QsItem &it : qsItems(a.qsRoots)) out << it.number + QLatin1Char('=') + it.node->question;
        return out;
    }

private Q_SLOTS:
    void buildNumberAndMove()
    {
        Annotations a;
        const QString q1 = qsedit::addChild(a, {}, QStringLiteral("A"));
        const QString q2 = qsedit::addChild(a, q1, QStringLiteral("B"));
        const QString q3 = qsedit::addSibling(a, q2, QStringLiteral("C"));
        const QString q4 = qsedit::addSibling(a, q1, QStringLiteral("D"));
        QCOMPARE(QStringList({q1, q2, q3, q4}), QStringList({"q1", "q2", "q3", "q4"}));
        QCOMPARE(numbers(a), QStringList({"1=A", "1.1=B", "1.2=C", "2=D"}));
        const std::vector<QsItem> items = qsItems(a.qsRoots);
        QCOMPARE(items[2].parentId, q1);
        QCOMPARE(items[2].order, 1);
        QCOMPARE(items[2].depth, 2);
        QVERIFY(qsedit::demote(a, q3));            // C under B
        QCOMPARE(numbers(a), QStringList({"1=A", "1.1=B", "1.1.1=C", "2=D"}));
        QVERIFY(qsedit::promote(a, q3));           // back after B
        QVERIFY(qsedit::promote(a, q3));           // after A, top level
        QCOMPARE(numbers(a), QStringList({"1=A", "1.1=B", "2=C", "3=D"}));
        QVERIFY(!qsedit::promote(a, q3));          // already top level
        QVERIFY(!qsedit::demote(a, q2));           // no previous sibling
        QVERIFY(qsedit::moveDown(a, q3));
        QVERIFY(!qsedit::moveDown(a, q3));
        QVERIFY(qsedit::moveUp(a, q4));
        QVERIFY(!qsedit::moveUp(a, q4));
        QCOMPARE(numbers(a), QStringList({"1=D", "2=A", "2.1=B", "3=C"}));
        QVERIFY(qsedit::move(a, q1, q4, 0));       // reparent with its subtree
        QCOMPARE(numbers(a), QStringList({"1=D", "1.1=A", "1.1.1=B", "2=C"}));
        QVERIFY(!qsedit::move(a, q4, q2, 0));      // into its own subtree
        QVERIFY(!qsedit::move(a, q4, q4, 0));
        QVERIFY(!qsedit::move(a, QStringLiteral("nope"), {}, 0));
        QVERIFY(qsedit::remove(a, q1));            // with B
        QCOMPARE(numbers(a), QStringList({"1=D", "2=C"}));
        QVERIFY(qsFind(a.qsRoots, q2) == nullptr);
        QCOMPARE(qsFreshId(a.qsRoots), QStringLiteral("q5")); // ids are never reused while larger ones live
        QVERIFY(qsedit::addChild(a, QStringLiteral("missing")).isEmpty());
    }

    void editTextMarksSuggestionsEdited()
    {
        Annotations a;
        QsNode n;
        n.id = QStringLiteral("q1");
        n.question = QStringLiteral("Q?");
        n.source = {AnnotationSource::Model, QStringLiteral("qmsum-qs")};
        n.state = ReviewState::Suggested;
        a.qsRoots = {n, n, n};
        a.qsRoots[1].id = QStringLiteral("q2");
        a.qsRoots[2].id = QStringLiteral("q3");
        QVERIFY(!qsedit::setText(a, QStringLiteral("q1"), QStringLiteral("Q?"), {})); // unchanged
        QVERIFY(qsedit::setText(a, QStringLiteral("q1"), QStringLiteral("Q2?"), QStringLiteral("S")));
        QCOMPARE(a.qsRoots[0].state, ReviewState::Edited);
        QVERIFY(qsedit::accept(a, QStringLiteral("q2")));
        QVERIFY(!qsedit::accept(a, QStringLiteral("q2"))); // no longer a suggestion
        QVERIFY(qsedit::reject(a, QStringLiteral("q3")));
        QCOMPARE(a.qsRoots[1].state, ReviewState::Accepted);
        QCOMPARE(a.qsRoots[2].state, ReviewState::Rejected);
    }

    void evidenceAndMissingFlag()
    {
        Document d = sampleDocument();
        Annotations a;
        const QString q = qsedit::addChild(a, {}, QStringLiteral("Q?"));
        QVERIFY(qsedit::attachWords(a, d, q, {QStringLiteral("w4"), QStringLiteral("w1"), QStringLiteral("w2"), QStringLiteral("zz")}));
        const QsNode *n = qsFind(a.qsRoots, q);
        QCOMPARE(int(n->evidenceSpans.size()), 2); // w1..w2 and w4..w4
        QCOMPARE(n->evidenceSpans[0], (QsEvidenceSpan{QStringLiteral("w1"), QStringLiteral("w2"), QStringLiteral("t1 t2")}));
        QCOMPARE(n->evidenceSpans[1].firstWord, QStringLiteral("w4"));
        QVERIFY(!qsedit::attachWords(a, d, q, {QStringLiteral("w1")})); // already evidence
        QVERIFY(qsedit::attachSection(a, d, q, 0));
        QVERIFY(qsedit::attachSection(a, d, q, 1));
        QVERIFY(!qsedit::attachSection(a, d, q, 1));
        QVERIFY(!qsedit::attachSection(a, d, q, 7));
        n = qsFind(a.qsRoots, q);
        QCOMPARE(n->evidenceSections, QStringList({"node:n0", "word:w3"}));
        QCOMPARE(qsEvidenceSectionIndices(d, *n), std::vector<int>({0, 1}));
        QCOMPARE(qsEvidenceWords(d, qsWordIndex(d), *n), std::vector<int>({0, 1, 2, 3, 4, 5}));
        QCOMPARE(qsUpdateEvidenceFlags(a, d), 0);
        // A re-OCR gives the words of the second section new ids: flagged, not dropped.
        for (int i = 3; i < 6; ++i) d.words[size_t(i)].id = QStringLiteral("x%1").arg(i);
        QCOMPARE(qsUpdateEvidenceFlags(a, d), 1);
        n = qsFind(a.qsRoots, q);
        QVERIFY(n->evidenceMissing);
        QCOMPARE(int(n->evidenceSpans.size()), 2);
        QCOMPARE(qsEvidenceWords(d, qsWordIndex(d), *n), std::vector<int>({0, 1, 2})); // what still resolves
        QVERIFY(qsedit::clearEvidence(a, q));
        QCOMPARE(qsUpdateEvidenceFlags(a, d), 0);
        QVERIFY(!qsFind(a.qsRoots, q)->evidenceMissing);
    }

    void oldTitlesResolve()
    {
        const Document d = sampleDocument();
        QCOMPARE(qsResolveSection(d, QStringLiteral("Body")), 1);       // a plain title, as older files hold
        QCOMPARE(qsResolveSection(d, QStringLiteral("title:Intro")), 0);
        QCOMPARE(qsResolveSection(d, QStringLiteral("node:gone")), -1);
        QCOMPARE(qsResolveSection(d, QStringLiteral("Nowhere")), -1);
        QCOMPARE(qsSectionKey(d, 5), QString());
    }

    void mergeKeepsDecisions()
    {
        Annotations a;
        const QString mine = qsedit::addChild(a, {}, QStringLiteral("Mine?"));
        QsNode g1;
        g1.question = QStringLiteral("What?");
        QsNode g2;
        g2.question = QStringLiteral("Why?");
        QsNode how;
        how.question = QStringLiteral("How?");
        g2.children.push_back(how);
        const AnnotationSource model{AnnotationSource::Model, QStringLiteral("qmsum-qs")};
        QCOMPARE(qsedit::mergeGenerated(a, QStringLiteral("Root."), {g1, g2}, model), 3);
        QCOMPARE(a.qsSummary, QStringLiteral("Root."));
        QCOMPARE(numbers(a), QStringList({"1=Mine?", "2=What?", "3=Why?", "3.1=How?"}));
        const std::vector<QsItem> items = qsItems(a.qsRoots);
        QCOMPARE(items[1].node->state, ReviewState::Suggested);
        QCOMPARE(items[1].node->source.checkpoint, QStringLiteral("qmsum-qs"));
        QVERIFY(qsedit::setText(a, items[1].node->id, QStringLiteral("What exactly?"), {})); // edited
        const QString why = items[2].node->id;
        QVERIFY(qsedit::reject(a, why));
        // A second run: the edited and rejected items and the user's stay, the pending one (How?, under the rejected Why?) goes.
        QsNode g3;
        g3.question = QStringLiteral("why?"); // the rejected question is not offered again
        QsNode g4;
        g4.question = QStringLiteral("When?");
        QCOMPARE(qsedit::mergeGenerated(a, QStringLiteral("Other root."), {g3, g4}, model), 1);
        QCOMPARE(a.qsSummary, QStringLiteral("Root.")); // not overwritten
        QCOMPARE(numbers(a), QStringList({"1=Mine?", "2=What exactly?", "3=Why?", "4=When?"}));
        // Regenerate below one item: the rest stays.
        QsNode g5;
        g5.question = QStringLiteral("Sub?");
        QCOMPARE(qsedit::mergeGenerated(a, {}, {g5}, model, mine), 1);
        QCOMPARE(numbers(a), QStringList({"1=Mine?", "1.1=Sub?", "2=What exactly?", "3=Why?", "4=When?"}));
        QCOMPARE(qsedit::mergeGenerated(a, {}, {g5}, model, QStringLiteral("q999")), 0);
        QSet<QString> ids;
        for (const QsItem &it : qsItems(a.qsRoots)) ids.insert(it.node->id);
        QCOMPARE(ids.size(), 5);
    }

    // Entity predictions (no hierarchy) leave the hierarchy alone; predicted items arrive as suggestions.
    void modelAnnotationsMerge()
    {
        Annotations a;
        const QString mine = qsedit::addChild(a, {}, QStringLiteral("Mine?"));
        Annotations entitiesOnly;
        Entity e;
        e.id = QStringLiteral("e1");
        e.label = QStringLiteral("ANSWER");
        e.wordIds = {QStringLiteral("w1")};
        e.source = {AnnotationSource::Model, QStringLiteral("tagger")};
        entitiesOnly.entities.push_back(e);
        mergeModelAnnotations(a, entitiesOnly);
        QCOMPARE(numbers(a), QStringList({"1=Mine?"}));
        QCOMPARE(int(a.entities.size()), 1);
        Annotations predicted;
        predicted.qsSummary = QStringLiteral("Root.");
        QsNode p;
        p.question = QStringLiteral("Predicted?");
        p.source = {AnnotationSource::Model, QStringLiteral("qs")};
        predicted.qsRoots.push_back(p);
        mergeModelAnnotations(a, predicted);
        QCOMPARE(numbers(a), QStringList({"1=Mine?", "2=Predicted?"}));
        QCOMPARE(a.qsRoots[1].state, ReviewState::Suggested);
        QCOMPARE(a.qsRoots[1].source.checkpoint, QStringLiteral("qs"));
        QCOMPARE(a.qsRoots[0].id, mine);
        QCOMPARE(a.qsSummary, QStringLiteral("Root."));
    }

    void jsonRoundTripWithNewFields()
    {
        Annotations a;
        const Document d = sampleDocument();
        const QString q = qsedit::addChild(a, {}, QStringLiteral("Q?"), QStringLiteral("S."));
        QVERIFY(qsedit::attachWords(a, d, q, {QStringLiteral("w1")}));
        QVERIFY(qsedit::attachSection(a, d, q, 1));
        QsNode model;
        model.id = QStringLiteral("q7");
        model.question = QStringLiteral("M?");
        model.source = {AnnotationSource::Model, QStringLiteral("ckpt")};
        model.confidence = 0.25;
        model.state = ReviewState::Suggested;
        model.evidenceMissing = true;
        a.qsRoots[0].children.push_back(model);
        const QJsonObject o = annotationsToJsonObject(a);
        Annotations back;
        QString error;
        QVERIFY2(annotationsFromJsonObject(o, &back, &error), qPrintable(error));
        QCOMPARE(QJsonDocument(annotationsToJsonObject(back)).toJson(), QJsonDocument(o).toJson());
        const QsNode &m = back.qsRoots[0].children[0];
        QCOMPARE(m.id, QStringLiteral("q7"));
        QCOMPARE(m.confidence, 0.25);
        QCOMPARE(m.state, ReviewState::Suggested);
        QVERIFY(m.evidenceMissing);
        QCOMPARE(back.qsRoots[0].evidenceSpans[0].text, QStringLiteral("t1"));
    }

    void oldJsonAndBadInput()
    {
        // A file written before ids and spans: read, then given ids in pre-order.
        const QByteArray old = R"({"qs": {"summary": "R", "nodes": [{"question": "A?", "summary": "a", "evidence": ["Intro"],
                                   "children": [{"question": "B?", "summary": "b", "evidence": [], "children": []}]}]}})";
        Annotations a;
        QString error;
        QVERIFY2(annotationsFromJsonObject(QJsonDocument::fromJson(old).object(), &a, &error), qPrintable(error));
        QVERIFY(a.qsRoots[0].id.isEmpty());
        QCOMPARE(qsAssignIds(a.qsRoots), 2);
        QCOMPARE(a.qsRoots[0].children[0].id, QStringLiteral("q2"));
        QCOMPARE(qsResolveSection(sampleDocument(), a.qsRoots[0].evidenceSections[0]), 0);
        const char *bad[] = {
            R"({"qs": {"nodes": [{"question": "A", "state": "maybe"}]}})",
            R"({"qs": {"nodes": [{"question": "A", "spans": [{"first": "w1"}]}]}})",
            R"({"qs": {"nodes": [{"question": "A", "spans": "w1"}]}})",
            R"({"qs": {"nodes": [{"question": "A", "evidenceMissing": "yes"}]}})",
            R"({"qs": {"nodes": [{"question": "A", "confidence": "high"}]}})",
        };
        for (const char *json : bad) {
            error.clear();
            QVERIFY2(!annotationsFromJsonObject(QJsonDocument::fromJson(json).object(), &a, &error), json);
            QVERIFY2(error.contains(QLatin1String("annotations.qs.nodes[0]")), qPrintable(error));
        }
        // Duplicated ids are renumbered.
        std::vector<QsNode> dup(2);
        dup[0].id = dup[1].id = QStringLiteral("q1");
        QCOMPARE(qsAssignIds(dup), 1);
        QCOMPARE(dup[1].id, QStringLiteral("q2"));
    }

    void limitsRefuseEdits()
    {
        Annotations a;
        QString parent = qsedit::addChild(a, {});
        for (int d = 2; d <= DatasetLimits::maxQsDepth; ++d)
            parent = qsedit::addChild(a, parent);
        QVERIFY(!parent.isEmpty());
        QCOMPARE(qsDepth(a.qsRoots), DatasetLimits::maxQsDepth);
        QVERIFY(qsedit::addChild(a, parent).isEmpty()); // one level too deep: refused, nothing stored
        QCOMPARE(qsDepth(a.qsRoots), DatasetLimits::maxQsDepth);
        const QString huge(DatasetLimits::maxStringChars + 1, QLatin1Char('x'));
        QVERIFY(!qsedit::setText(a, parent, huge, {}));
        QVERIFY(qsFind(a.qsRoots, parent)->question.isEmpty());
        QString error;
        Annotations tooBig = a;
        tooBig.qsRoots[0].question = huge;
        QVERIFY(!qsWithinLimits(tooBig, &error));
        QVERIFY2(error.contains(QLatin1String("qs.nodes[0].question")), qPrintable(error));
        // A second top-level chain of depth 2 moved under the deepest item would pass the limit.
        const QString other = qsedit::addChild(a, {});
        qsedit::addChild(a, other);
        QVERIFY(!qsedit::move(a, other, qsItems(a.qsRoots)[DatasetLimits::maxQsDepth - 2].node->id, -1));
    }

    // 500 items: the flat view and a lookup stay fast (the editor rebuilds from them).
    void fiveHundredItems()
    {
        Annotations a;
        QString last;
        for (int i = 0; i < 100; ++i) {
            last = qsedit::addChild(a, {}, QStringLiteral("Q%1?").arg(i));
            for (int k = 0; k < 4; ++k) qsedit::addChild(a, last, QStringLiteral("Q%1.%2?").arg(i).arg(k));
        }
        QElapsedTimer t;
        t.start();
        const std::vector<QsItem> items = qsItems(a.qsRoots);
        QCOMPARE(int(items.size()), 500);
        QCOMPARE(items.back().number, QStringLiteral("100.4"));
        QVERIFY(qsFind(a.qsRoots, items.back().node->id) == items.back().node);
        QVERIFY2(t.elapsed() < 500, qPrintable(QString::number(t.elapsed())));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestQsTree)
#include "tst_qstree.moc"
