// The annotation edits' rules (document/annotationedits.h), which the GUI's AnnotationSession and the
// simulated annotator both apply, on a five-word document built by hand.
#include "document/annotationedits.h"

#include "tests/common/testdata.h"

#include <QTest>

using namespace folio;

namespace {

Document fiveWords()
{
    Document d;
    for (int i = 0; i < 5; ++i) {
        Word w;
        w.id = QStringLiteral("w%1").arg(i);
        w.text = QStringLiteral("t%1").arg(i);
        d.words.push_back(w);
    }
    return d;
}

Entity entity(const QString &id, const QString &label, const QStringList &words, ReviewState state = ReviewState::Accepted)
{
    Entity e;
    e.id = id;
    e.label = label;
    e.wordIds = words;
    e.state = state;
    return e;
}

Link link(const QString &id, const QString &from, const QString &to, ReviewState state = ReviewState::Accepted)
{
    Link l;
    l.id = id;
    l.from = from;
    l.to = to;
    l.state = state;
    return l;
}

} // namespace

class TestAnnotationEdits : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readingOrderDropsUnknownAndRepeats()
    {
        const Document d = fiveWords();
        QCOMPARE(edits::inReadingOrder(d, {"w3", "x", "w1", "w3"}), QStringList({"w1", "w3"}));
    }

    void labellingWordsSplitsThemOffOtherEntities()
    {
        const Document d = fiveWords();
        Annotations a;
        a.entities = {entity("a", "question", {"w0", "w1"}), entity("b", "answer", {"w2"})};
        a.links = {link("l", "a", "b")};
        QString id;
        QVERIFY(edits::labelWords(d, a, {"w2", "w1"}, "header", &id));
        // w1 left a; b emptied and went, with its link; the new entity holds w1, w2 in reading order.
        QCOMPARE(int(a.entities.size()), 2);
        QCOMPARE(a.entity("a")->wordIds, QStringList({"w0"}));
        QVERIFY(!a.entity("b"));
        QVERIFY(a.links.empty());
        QCOMPARE(a.entity(id)->wordIds, QStringList({"w1", "w2"}));
        QCOMPARE(a.entity(id)->label, QStringLiteral("header"));
    }

    void labellingAnEntitysExactWordsKeepsItsIdAndLinks()
    {
        const Document d = fiveWords();
        Annotations a;
        a.entities = {entity("a", "question", {"w0", "w1"}, ReviewState::Suggested), entity("b", "answer", {"w2"})};
        a.links = {link("l", "a", "b")};
        QString id;
        QVERIFY(edits::labelWords(d, a, {"w1", "w0"}, "header", &id));
        QCOMPARE(id, QStringLiteral("a"));
        QCOMPARE(a.entity("a")->state, ReviewState::Accepted);
        QCOMPARE(int(a.links.size()), 1);
        QVERIFY(!edits::labelWords(d, a, {"nope"}, "header"));
    }

    void mergeMovesLinksAndDropsSelfLinks()
    {
        const Document d = fiveWords();
        Annotations a;
        a.entities = {entity("a", "question", {"w3"}), entity("b", "answer", {"w1"}), entity("c", "answer", {"w4"})};
        a.links = {link("l1", "a", "b"), link("l2", "b", "c")};
        QVERIFY(edits::mergeEntities(d, a, {"a", "b"}));
        QCOMPARE(int(a.entities.size()), 2);
        QCOMPARE(a.entity("a")->wordIds, QStringList({"w1", "w3"}));
        QCOMPARE(a.entity("a")->label, QStringLiteral("question"));
        QCOMPARE(int(a.links.size()), 1);
        QCOMPARE(a.links.front().from, QStringLiteral("a"));
        QCOMPARE(a.links.front().to, QStringLiteral("c"));
        QVERIFY(!edits::mergeEntities(d, a, {"a", "gone"}));
    }

    void splitGivesOneEntityPerWord()
    {
        Annotations a;
        // Many entities, so that adding the parts reallocates the list the split entity lives in.
        for (int i = 0; i < 3; ++i)
            a.entities.push_back(entity(QStringLiteral("x%1").arg(i), "other", {QStringLiteral("w%1").arg(i)}));
        a.entities.push_back(entity("s", "answer", {"w3", "w4", "w5", "w6", "w7", "w8", "w9"}, ReviewState::Suggested));
        a.entities.shrink_to_fit();
        QVERIFY(edits::splitEntity(a, "s"));
        QCOMPARE(int(a.entities.size()), 10);
        for (const Entity &e : a.entities) {
            QCOMPARE(e.wordIds.size(), 1);
            if (!e.id.startsWith(QLatin1Char('x')))
                QCOMPARE(e.label, QStringLiteral("answer"));
        }
        QCOMPARE(a.entity("s")->state, ReviewState::Accepted);
        QVERIFY(!edits::splitEntity(a, "s")); // one word left: nothing to split
    }

    void relabelIsANoOpWhenNothingChanges()
    {
        Annotations a;
        a.entities = {entity("a", "question", {"w0"})};
        QVERIFY(!edits::relabel(a, "a", "question"));
        QVERIFY(edits::relabel(a, "a", "answer"));
        QVERIFY(!edits::relabel(a, "missing", "answer"));
    }

    void suggestionsAcceptedAndRejectedWithTheirLinks()
    {
        Annotations a;
        a.entities = {entity("a", "question", {"w0"}, ReviewState::Suggested), entity("b", "answer", {"w1"}),
                      entity("c", "answer", {"w2"}, ReviewState::Suggested)};
        a.links = {link("l1", "a", "b", ReviewState::Suggested), link("l2", "c", "b", ReviewState::Suggested)};
        QVERIFY(edits::acceptSuggestion(a, "a"));
        QCOMPARE(a.links[0].state, ReviewState::Accepted); // the other end was accepted already
        QVERIFY(!edits::acceptSuggestion(a, "a"));
        QVERIFY(edits::rejectSuggestion(a, "c"));
        QCOMPARE(a.entity("c")->state, ReviewState::Rejected); // kept, so a re-run can tell it was seen
        QCOMPARE(a.links[1].state, ReviewState::Rejected);
    }

    void linksAddedOnceAcceptedAndRejected()
    {
        Annotations a;
        a.entities = {entity("a", "question", {"w0"}, ReviewState::Suggested), entity("b", "answer", {"w1"})};
        QVERIFY(edits::addLink(a, "a", "b"));
        QVERIFY(!edits::addLink(a, "a", "b"));
        QVERIFY(!edits::addLink(a, "a", "a"));
        QVERIFY(!edits::addLink(a, "a", "missing"));
        a.links.front().state = ReviewState::Suggested;
        QVERIFY(!edits::rejectLink(a, "missing"));
        QVERIFY(edits::acceptLink(a, a.links.front().id));
        QCOMPARE(a.entity("a")->state, ReviewState::Accepted);
        QVERIFY(!edits::rejectLink(a, a.links.front().id)); // no longer a suggestion
        QVERIFY(edits::deleteLink(a, a.links.front().id));
        QVERIFY(a.links.empty());
    }

    void acceptAllCountsEntities()
    {
        Annotations a;
        QCOMPARE(edits::acceptAllSuggestions(a), 0);
        a.entities = {entity("a", "question", {"w0"}, ReviewState::Suggested), entity("b", "answer", {"w1"}, ReviewState::Suggested)};
        a.links = {link("l", "a", "b", ReviewState::Suggested)};
        QCOMPARE(edits::acceptAllSuggestions(a), 2);
        QCOMPARE(a.links.front().state, ReviewState::Accepted);
        QVERIFY(edits::deleteEntity(a, "a"));
        QVERIFY(a.links.empty());
        QVERIFY(!edits::deleteEntity(a, "a"));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestAnnotationEdits)
#include "tst_annotationedits.moc"
