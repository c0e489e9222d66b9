// The simulated annotator counts what the annotation workspace records (issue 47): a page's
// hand-made suggestions fixed into its gold labels, edit by edit, against hand-counted numbers; the
// same fixes applied through a real AnnotationSession (project on disk, undo stack) record exactly as
// many undo steps as the simulation counts and end in the same labels, entity ids included; the same
// on real FUNSD pages whose gold labels were spoilt the ways a model errs.
#include "document/formats/funsd.h"
#include "document/project/project.h"
#include "pipeline/labelling/pagecorrection.h"
#include "ui/annotation/annotationsession.h"
#include "tests/common/testdata.h"
#include "tests/common/wordrowdocument.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace folio;
using namespace folio::labelling;

namespace {

Document lineDocument(int words)
{
    return testing::wordRowDocument(QStringLiteral("form.png"), words, 1);
}

Entity entity(const QString &id, const QString &label, const QStringList &words, ReviewState state)
{
    Entity e;
    e.id = id;
    e.label = label;
    e.wordIds = words;
    e.state = state;
    if (state == ReviewState::Suggested) {
        e.source.kind = AnnotationSource::Model;
        e.source.checkpoint = QStringLiteral("ckpt");
        e.confidence = 0.7;
    }
    return e;
}

Link link(const QString &id, const QString &from, const QString &to, ReviewState state)
{
    Link l;
    l.id = id;
    l.from = from;
    l.to = to;
    l.state = state;
    if (state == ReviewState::Suggested)
        l.source.kind = AnnotationSource::Model;
    return l;
}

// Gold: Q1 [w1 w2] -> A1 [w3], H [w4 w5], Q2 [w6] -> A2 [w7 w8]; w9 is no field.
Annotations goldOfLine()
{
    Annotations g;
    g.entities = {entity("q1", "QUESTION", {"w1", "w2"}, ReviewState::Accepted),
                  entity("a1", "ANSWER", {"w3"}, ReviewState::Accepted),
                  entity("h", "HEADER", {"w4", "w5"}, ReviewState::Accepted),
                  entity("q2", "QUESTION", {"w6"}, ReviewState::Accepted),
                  entity("a2", "ANSWER", {"w7", "w8"}, ReviewState::Accepted)};
    g.links = {link("g1", "q1", "a1", ReviewState::Accepted), link("g2", "q2", "a2", ReviewState::Accepted)};
    return g;
}

// What a model might suggest: Q1 right; A1 labelled QUESTION; the header cut in two; Q2 and A2 run
// together as one QUESTION; w9 an ANSWER; one link the wrong way round.
Annotations suggestionsOfLine()
{
    Annotations s;
    s.entities = {entity("m1", "QUESTION", {"w1", "w2"}, ReviewState::Suggested),
                  entity("m2", "QUESTION", {"w3"}, ReviewState::Suggested),
                  entity("m3", "HEADER", {"w4"}, ReviewState::Suggested),
                  entity("m4", "HEADER", {"w5"}, ReviewState::Suggested),
                  entity("m5", "QUESTION", {"w6", "w7", "w8"}, ReviewState::Suggested),
                  entity("m6", "ANSWER", {"w9"}, ReviewState::Suggested)};
    s.links = {link("m7", "m2", "m1", ReviewState::Suggested)};
    return s;
}

// The session's edits, as the GUI makes them (a word selection, then a label).
class SessionEditor : public AnnotationEditor
{
public:
    explicit SessionEditor(AnnotationSession *s) : m_s(s) {}
    const Annotations &current() const override { return m_s->annotations(); }
    bool labelWords(const QStringList &w, const QString &label) override
    {
        m_s->setSelectedWords(w);
        return m_s->assignLabel(label);
    }
    bool relabel(const QString &id, const QString &label) override { return m_s->relabel(id, label); }
    bool mergeEntities(const QStringList &ids) override { return m_s->mergeEntities(ids); }
    bool rejectSuggestion(const QString &id) override { return m_s->rejectSuggestion(id); }
    bool deleteEntity(const QString &id) override { return m_s->deleteEntity(id); }
    bool addLink(const QString &f, const QString &t) override { return m_s->addLink(f, t); }
    bool deleteLink(const QString &id) override { return m_s->deleteLink(id); }
    bool rejectLink(const QString &id) override { return m_s->rejectLink(id); }
    bool acceptLink(const QString &id) override { return m_s->acceptLink(id); }
    bool acceptAllSuggestions() override { return m_s->acceptAllSuggestions(); }

private:
    AnnotationSession *m_s;
};

QString describe(const Annotations &a)
{
    QStringList out;
    for (const Entity &e : a.entities)
        out << QStringLiteral("%1:%2:%3:%4").arg(e.id, e.label, e.wordIds.join(QLatin1Char(','))).arg(int(e.state));
    for (const Link &l : a.links)
        out << QStringLiteral("%1:%2>%3:%4").arg(l.id, l.from, l.to).arg(int(l.state));
    return out.join(QLatin1Char(' '));
}

EditCounts failed()
{
    EditCounts c;
    c.label = -1000;
    return c;
}

// Fixes `start` into `target` in memory and through a session over a project on disk; both must
// agree step for step. Returns the counts; on any disagreement (printed) counts that match nothing.
EditCounts fixBothWays(const Document &doc, const Annotations &start, const Annotations &target, const QString &dir)
{
    static int projects = 0;
    QString error;
    const QString path = QDir(dir).filePath(QStringLiteral("p%1.folio").arg(++projects));
    auto project = Project::create(path, &error);
    if (!project) {
        qWarning() << error;
        return failed();
    }
    const qint64 id = project->addDocument(doc, start, &error);
    AnnotationSession session;
    session.setProject(project.get());
    if (id < 0 || !session.openDocument(id)) {
        qWarning() << "cannot open the document:" << error;
        return failed();
    }
    MemoryEditor memory(session.document(), session.annotations()); // what the session loaded
    const EditCounts counted = correctPage(memory, session.document(), target);
    SessionEditor gui(&session);
    const EditCounts recorded = correctPage(gui, session.document(), target);
    if (memory.steps() != counted.total() || session.undoStack()->count() != recorded.total()
        || recorded.total() != counted.total() || describe(memory.current()) != describe(session.annotations())) {
        qWarning() << "memory" << memory.steps() << counted.total() << describe(memory.current());
        qWarning() << "session" << session.undoStack()->count() << recorded.total() << describe(session.annotations());
        return failed();
    }
    // What the session saved is what the screen shows.
    Annotations stored;
    if (!project->loadAnnotations(id, &stored, &error) || describe(stored) != describe(session.annotations())) {
        qWarning() << "stored differs:" << error << describe(stored);
        return failed();
    }
    return counted;
}

} // namespace

class TestLabellingSession : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void handCountedFixes()
    {
        const Document doc = lineDocument(9);
        const Annotations target = labellingTarget(doc, goldOfLine(), {"QUESTION", "ANSWER", "HEADER"});
        MemoryEditor editor(doc, suggestionsOfLine());
        const EditCounts c = correctPage(editor, doc, target);
        // By hand: A1 relabelled; the two header halves merged; w6 labelled QUESTION (taken out of
        // m5), then m5 = [w7 w8] relabelled ANSWER; w9 rejected; the reversed link rejected; the two
        // gold links added; Q1 accepted with "accept all".
        QCOMPARE(c.relabel, 2);
        QCOMPARE(c.merge, 1);
        QCOMPARE(c.label, 1);
        QCOMPARE(c.remove, 1);
        QCOMPARE(c.removeLink, 1);
        QCOMPARE(c.addLink, 2);
        QCOMPARE(c.accept, 1);
        QCOMPARE(c.total(), 9);
        QCOMPARE(editor.steps(), 9);
        QString difference;
        QVERIFY2(sameLabelling(editor.current(), target, &difference), qPrintable(difference));

        // From nothing: five fields labelled, two links drawn.
        MemoryEditor blank(doc, Annotations());
        const EditCounts b = correctPage(blank, doc, target);
        QCOMPARE(b.label, 5);
        QCOMPARE(b.addLink, 2);
        QCOMPARE(b.total(), 7);
        QVERIFY(sameLabelling(blank.current(), target));

        // Perfect suggestions: one "accept all".
        Annotations perfect = target;
        for (Entity &e : perfect.entities)
            e.state = ReviewState::Suggested;
        for (Link &l : perfect.links)
            l.state = ReviewState::Suggested;
        MemoryEditor good(doc, perfect);
        QCOMPARE(correctPage(good, doc, target).total(), 1);
    }

    void targetKeepsLabelledNonBlankWords()
    {
        Document doc = lineDocument(4);
        doc.words[2].text = QStringLiteral("  "); // w3: blank, a model never sees it
        Annotations gold;
        gold.entities = {entity("a", "QUESTION", {"w1", "w3"}, ReviewState::Accepted),
                         entity("b", "OTHER", {"w2"}, ReviewState::Accepted),
                         entity("c", "ANSWER", {"w3"}, ReviewState::Accepted),
                         entity("d", "ANSWER", {"w4"}, ReviewState::Accepted)};
        gold.links = {link("l1", "a", "b", ReviewState::Accepted), link("l2", "a", "d", ReviewState::Accepted),
                      link("l3", "a", "d", ReviewState::Accepted)};
        const Annotations t = labellingTarget(doc, gold, {"QUESTION", "ANSWER", "HEADER"});
        QCOMPARE(int(t.entities.size()), 2); // OTHER and the blank-only entity are not labelled
        QCOMPARE(t.entities[0].wordIds, QStringList{"w1"});
        QCOMPARE(int(t.links.size()), 1);    // the link to OTHER goes, the duplicate too
    }

    void sessionRecordsWhatTheSimulationCounts()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const Document doc = lineDocument(9);
        const Annotations target = labellingTarget(doc, goldOfLine(), {"QUESTION", "ANSWER", "HEADER"});
        QCOMPARE(fixBothWays(doc, suggestionsOfLine(), target, dir.path()).total(), 9);
        QCOMPARE(fixBothWays(doc, Annotations(), target, dir.path()).total(), 7);
        // A page the user had started: an accepted wrong entity is deleted, not rejected.
        Annotations started = suggestionsOfLine();
        started.entities[5].state = ReviewState::Accepted;
        const EditCounts c = fixBothWays(doc, started, target, dir.path());
        QCOMPARE(c.total(), 9);
        QCOMPARE(c.remove, 1);
    }

    void funsdPagesSpoiltAsModelsErr()
    {
        const QString root = folio::test::sharedPath(QStringLiteral("data/funsd/dataset"));
        FOLIO_REQUIRE_DATA(root);
        const QStringList files = funsdSplitFiles(root, QStringLiteral("train"));
        QVERIFY(files.size() >= 3);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QStringList labels{"QUESTION", "ANSWER", "HEADER"};
        for (int f = 0; f < 3; ++f) {
            Document doc;
            Annotations gold;
            QString error;
            QVERIFY2(importFunsdFile(files[f], FunsdWordOrder::Annotation, &doc, &gold, &error), qPrintable(error));
            const Annotations target = labellingTarget(doc, gold, labels);
            QVERIFY(target.entities.size() > 3);
            // Spoil deterministically: every 3rd entity relabelled, every 4th split word by word,
            // every 5th run together with the next, every 7th dropped; links suggested, one reversed.
            Annotations spoilt;
            int n = 0;
            for (size_t i = 0; i < target.entities.size(); ++i) {
                Entity e = target.entities[i];
                e.id = QStringLiteral("m%1").arg(n++);
                e.state = ReviewState::Suggested;
                e.source.kind = AnnotationSource::Model;
                if (i % 7 == 6)
                    continue;
                if (i % 3 == 2)
                    e.label = labels[(labels.indexOf(e.label) + 1) % 3];
                if (i % 5 == 4 && i + 1 < target.entities.size()) {
                    e.wordIds += target.entities[i + 1].wordIds;
                    spoilt.entities.push_back(e);
                    ++i;
                    continue;
                }
                if (i % 4 == 3 && e.wordIds.size() > 1) {
                    for (const QString &w : e.wordIds) {
                        Entity part = e;
                        part.id = QStringLiteral("m%1").arg(n++);
                        part.wordIds = {w};
                        spoilt.entities.push_back(part);
                    }
                    continue;
                }
                spoilt.entities.push_back(e);
            }
            if (spoilt.entities.size() > 2) {
                spoilt.links = {link("ml1", spoilt.entities[1].id, spoilt.entities[0].id, ReviewState::Suggested),
                                link("ml2", spoilt.entities[0].id, spoilt.entities[2].id, ReviewState::Suggested)};
            }
            MemoryEditor memory(doc, spoilt);
            const EditCounts counted = correctPage(memory, doc, target);
            QVERIFY(counted.total() > 3);
            QVERIFY(sameLabelling(memory.current(), target));
            const EditCounts recorded = fixBothWays(doc, spoilt, target, dir.path());
            QCOMPARE(recorded.total(), counted.total());
            QCOMPARE(recorded.merge, counted.merge);
            QCOMPARE(recorded.relabel, counted.relabel);
            QCOMPARE(recorded.label, counted.label);
            QVERIFY(counted.merge > 0);
            QVERIFY(counted.relabel > 0);
        }
    }
};

FOLIO_TEST_MAIN(TestLabellingSession)
#include "tst_labellingsession.moc"
