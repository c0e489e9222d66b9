// Crash survival of the real folio binary (issue 50): folio runs under Xvfb (offscreen when Xvfb is
// not installed, said in the log) with a scripted labelling session (FOLIO_TEST_SCRIPT,
// app/gui/testscript.h): labels, question-summary items, field corrections, word text fixes,
// document / page / dock changes. It is killed with SIGKILL at seeded random points (after k
// acknowledged actions plus a random delay, so sometimes in the middle of the next edit), started
// again without arguments, and:
//   - every edit acknowledged before the kill is in the project (opened again: integrity check,
//     every document loads), nothing else changed what the acknowledged edits made;
//   - it reopens the project, the document and page of the last acknowledged move, the layout
//     (the Attention dock open or closed as left), and says so ("recovered ..." names them);
//   - text typed into a question and not committed is shown after the kill (to copy back);
//   - a Train on Project run killed after its first epoch is offered for resuming; Resume Training
//     continues it (epoch 1 in the final history is the killed run's) and finishes it;
//   - the same for a Train on Project run that starts from a Hugging Face folder (a tiny LayoutLMv3):
//     killed once its first epoch is saved, offered, resumed from <out>/last (its step count and
//     epoch 1's loss go on from the killed run's) and finished;
//   - a clean quit leaves nothing to recover.
// The seeded kill list and what each round did are printed (RELIABILITY.md has a run's numbers).
#include "document/formats/funsd.h"
#include "document/project/project.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <functional>
#include <random>

#include <csignal>
#include <sys/types.h>

using namespace folio;

namespace {

// One acknowledged (or sent) edit and how to find it in the project.
struct Edit
{
    QJsonObject action;
    qint64 document = -1;
};

struct Run
{
    QStringList lines; // "folio-script ..." lines, the prefix removed
    QString output;    // everything, for messages
    bool killed = false;
    bool finished = false;
    int acks = 0;
};

int ackCount(const QStringList &lines)
{
    int n = 0;
    for (const QString &l : lines)
        n += l.startsWith(QLatin1String("ack ")) ? 1 : 0;
    return n;
}

QJsonObject lastState(const QStringList &lines)
{
    for (auto it = lines.crbegin(); it != lines.crend(); ++it)
        if (it->startsWith(QLatin1String("state ")))
            return QJsonDocument::fromJson(it->mid(6).toUtf8()).object();
    return {};
}

QString recoveredLine(const QStringList &lines)
{
    for (const QString &l : lines)
        if (l.startsWith(QLatin1String("recovered ")))
            return l.mid(10);
    return {};
}

} // namespace

class TestCrashSurvival : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QProcess m_xvfb;
    QString m_display; // empty: offscreen
    QString m_project;
    QList<qint64> m_ids;          // the project's documents, in order
    QHash<qint64, QStringList> m_words; // their word ids
    QHash<qint64, int> m_pages;
    QHash<qint64, int> m_nextWord; // the next unused word of each document
    std::mt19937 m_rng{50};       // the seeded kill list
    QList<Edit> m_acked;          // every edit acknowledged so far, over all rounds
    qint64 m_currentDoc = -1;
    int m_currentPage = 0;
    bool m_attentionOpen = false;
    int m_editNumber = 0;

    bool startXvfb()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("Xvfb")).isEmpty())
            return false;
        for (int n = 140; n < 180; ++n) {
            if (QFileInfo::exists(QStringLiteral("/tmp/.X%1-lock").arg(n)) || QFileInfo::exists(QStringLiteral("/tmp/.X11-unix/X%1").arg(n)))
                continue;
            m_xvfb.setProcessChannelMode(QProcess::MergedChannels);
            m_xvfb.start(QStringLiteral("Xvfb"), {QStringLiteral(":%1").arg(n), QStringLiteral("-screen"), QStringLiteral("0"),
                                                   QStringLiteral("1600x1000x24"), QStringLiteral("-nolisten"), QStringLiteral("tcp")});
            if (!m_xvfb.waitForStarted(5000))
                continue;
            QElapsedTimer t;
            t.start();
            while (t.elapsed() < 10000 && m_xvfb.state() == QProcess::Running && !QFileInfo::exists(QStringLiteral("/tmp/.X11-unix/X%1").arg(n)))
                QThread::msleep(50);
            if (m_xvfb.state() == QProcess::Running) {
                m_display = QStringLiteral(":%1").arg(n);
                return true;
            }
            m_xvfb.kill();
            m_xvfb.waitForFinished();
        }
        return false;
    }

    // Runs folio with `actions`; `killNow` (looked at every few ms with the lines so far) sends SIGKILL.
    Run runFolio(const QStringList &args, const QJsonArray &actions, int interval, const std::function<bool(const Run &)> &killNow,
                 int timeoutMs = 60000)
    {
        static int scriptNumber = 0;
        const QString script = m_dir.filePath(QStringLiteral("script%1.json").arg(++scriptNumber));
        QFile f(script);
        if (f.open(QIODevice::WriteOnly))
            f.write(QJsonDocument(QJsonObject{{QStringLiteral("interval"), interval}, {QStringLiteral("actions"), actions}}).toJson());
        f.close();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (m_display.isEmpty()) {
            env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        } else {
            env.insert(QStringLiteral("DISPLAY"), m_display);
            env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
        }
        env.insert(QStringLiteral("QTWEBENGINE_DISABLE_SANDBOX"), QStringLiteral("1"));
        env.insert(QStringLiteral("FOLIO_NO_DIALOGS"), QStringLiteral("1"));
        env.insert(QStringLiteral("OPENBLAS_NUM_THREADS"), QStringLiteral("1"));
        env.insert(QStringLiteral("FOLIO_TEST_SCRIPT"), script);
        const QString home = m_dir.filePath(QStringLiteral("home"));
        env.insert(QStringLiteral("HOME"), home);
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), home + QStringLiteral("/cache"));
        QProcess folio;
        folio.setProcessEnvironment(env);
        folio.setProcessChannelMode(QProcess::SeparateChannels);
        folio.start(QStringLiteral(FOLIO_GUI_PATH), args);
        Run run;
        if (!folio.waitForStarted(10000)) {
            run.output = QStringLiteral("folio did not start: ") + folio.errorString();
            return run;
        }
        QElapsedTimer clock;
        clock.start();
        QByteArray pending;
        while (clock.elapsed() < timeoutMs) {
            folio.waitForReadyRead(5);
            pending += folio.readAllStandardOutput();
            run.output += QString::fromUtf8(folio.readAllStandardError());
            int nl;
            while ((nl = pending.indexOf('\n')) >= 0) {
                const QString line = QString::fromUtf8(pending.left(nl));
                pending.remove(0, nl + 1);
                run.output += line + QLatin1Char('\n');
                if (line.startsWith(QLatin1String("folio-script ")))
                    run.lines << line.mid(13);
            }
            run.acks = ackCount(run.lines);
            if (folio.state() != QProcess::Running) {
                run.finished = true;
                break;
            }
            if (killNow(run)) {
                ::kill(pid_t(folio.processId()), SIGKILL);
                run.killed = true;
                break;
            }
        }
        if (!run.killed && !run.finished) {
            ::kill(pid_t(folio.processId()), SIGKILL);
            run.output += QStringLiteral("\n(timed out after %1 ms)").arg(timeoutMs);
        }
        folio.waitForFinished(10000);
        // Lines written before the kill and still in the pipe count as acknowledged: folio said them.
        pending += folio.readAllStandardOutput();
        for (const QByteArray &l : pending.split('\n'))
            if (l.startsWith("folio-script "))
                run.lines << QString::fromUtf8(l.mid(13));
        run.acks = ackCount(run.lines);
        return run;
    }

    QStringList takeWords(qint64 doc, int n)
    {
        QStringList out;
        const QStringList &all = m_words[doc];
        for (int i = 0; i < n && m_nextWord[doc] < all.size(); ++i)
            out << all.at(m_nextWord[doc]++);
        return out;
    }

    // A random action on the document shown at that point (`doc`, updated by "open").
    QJsonObject randomAction(qint64 *doc)
    {
        const int kind = std::uniform_int_distribution<int>(0, 9)(m_rng);
        ++m_editNumber;
        if (kind == 0) {
            const int row = std::uniform_int_distribution<int>(0, int(m_ids.size()) - 1)(m_rng);
            *doc = m_ids.at(row);
            return {{QStringLiteral("do"), QStringLiteral("open")}, {QStringLiteral("row"), row}};
        }
        if (kind == 1 && m_pages.value(*doc) > 1)
            return {{QStringLiteral("do"), QStringLiteral("page")},
                    {QStringLiteral("page"), std::uniform_int_distribution<int>(0, m_pages.value(*doc) - 1)(m_rng)}};
        if (kind == 2)
            return {{QStringLiteral("do"), QStringLiteral("dock")}, {QStringLiteral("name"), QStringLiteral("attentionDock")},
                    {QStringLiteral("visible"), bool(m_rng() & 1)}};
        if (kind <= 4) {
            const QStringList w = takeWords(*doc, 2);
            if (w.size() == 2)
                return {{QStringLiteral("do"), QStringLiteral("label")}, {QStringLiteral("words"), QJsonArray::fromStringList(w)},
                        {QStringLiteral("label"), (m_rng() & 1) ? QStringLiteral("QUESTION") : QStringLiteral("ANSWER")}};
        }
        if (kind == 5 || kind == 6)
            return {{QStringLiteral("do"), QStringLiteral("qs")}, {QStringLiteral("question"), QStringLiteral("Crash question %1?").arg(m_editNumber)},
                    {QStringLiteral("summary"), QStringLiteral("Summary %1.").arg(m_editNumber)}};
        if (kind == 7) {
            const QStringList w = takeWords(*doc, 1);
            if (w.size() == 1)
                return {{QStringLiteral("do"), QStringLiteral("field")}, {QStringLiteral("field"), QStringLiteral("field%1").arg(m_editNumber)},
                        {QStringLiteral("words"), QJsonArray::fromStringList(w)}};
        }
        const QStringList w = takeWords(*doc, 1);
        if (w.size() == 1)
            return {{QStringLiteral("do"), QStringLiteral("word")}, {QStringLiteral("word"), w.first()},
                    {QStringLiteral("text"), QStringLiteral("fixed%1").arg(m_editNumber)}};
        return {{QStringLiteral("do"), QStringLiteral("qs")}, {QStringLiteral("question"), QStringLiteral("Crash question %1?").arg(m_editNumber)},
                {QStringLiteral("summary"), QStringLiteral("Summary %1.").arg(m_editNumber)}};
    }

    // Every acknowledged edit is in the project; false + *why naming the first one missing.
    bool projectHoldsEdits(QString *why)
    {
        QString error;
        auto project = Project::open(m_project, &error, Project::Mode::ReadOnly); // runs the integrity check
        if (!project) {
            *why = QStringLiteral("the project does not open after the kill: ") + error;
            return false;
        }
        QHash<qint64, Document> docs;
        QHash<qint64, Annotations> anns;
        for (qint64 id : m_ids) {
            if (!project->loadDocument(id, &docs[id], &anns[id], &error)) {
                *why = QStringLiteral("document %1 does not load: %2").arg(id).arg(error);
                return false;
            }
        }
        for (const Edit &e : m_acked) {
            const QString what = e.action.value(QStringLiteral("do")).toString();
            const Annotations &a = anns[e.document];
            const Document &d = docs[e.document];
            const QStringList words = e.action.value(QStringLiteral("words")).toVariant().toStringList();
            bool found = false;
            if (what == QLatin1String("label")) {
                QStringList wanted = words; // the session puts them in reading order
                wanted.sort();
                for (const Entity &en : a.entities) {
                    QStringList have = en.wordIds;
                    have.sort();
                    found = found || (en.label == e.action.value(QStringLiteral("label")).toString() && have == wanted);
                }
            } else if (what == QLatin1String("qs")) {
                std::function<bool(const std::vector<QsNode> &)> has = [&](const std::vector<QsNode> &nodes) {
                    for (const QsNode &n : nodes)
                        if ((n.question == e.action.value(QStringLiteral("question")).toString()
                             && n.summary == e.action.value(QStringLiteral("summary")).toString())
                            || has(n.children))
                            return true;
                    return false;
                };
                found = has(a.qsRoots);
            } else if (what == QLatin1String("field")) {
                for (const FieldValue &v : a.fields)
                    found = found || (v.field == e.action.value(QStringLiteral("field")).toString() && v.wordIds == words
                                      && v.state == ReviewState::Accepted);
            } else if (what == QLatin1String("word")) {
                for (const Word &w : d.words)
                    found = found || (w.id == e.action.value(QStringLiteral("word")).toString()
                                      && w.text == e.action.value(QStringLiteral("text")).toString());
            } else {
                found = true; // moves: checked against the reopened window
            }
            if (!found) {
                *why = QStringLiteral("acknowledged edit missing from document %1: %2")
                           .arg(e.document)
                           .arg(QString::fromUtf8(QJsonDocument(e.action).toJson(QJsonDocument::Compact)));
                return false;
            }
        }
        return true;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(QFileInfo(QStringLiteral(FOLIO_GUI_PATH)).isExecutable());
        const QString funsd = test::sharedPath(QStringLiteral("data/funsd/dataset"));
        FOLIO_REQUIRE_DATA(funsd);
        if (startXvfb())
            qInfo("folio runs under Xvfb %s", qPrintable(m_display));
        else
            qInfo("Xvfb is not installed: folio runs on the offscreen platform");
        // Four labelled FUNSD training pages (they train) and a two-page form of our own.
        m_project = m_dir.filePath(QStringLiteral("crash.folio"));
        QString error;
        auto project = Project::create(m_project, &error);
        QVERIFY2(project, qPrintable(error));
        for (const QString &file : funsdSplitFiles(funsd, QStringLiteral("train")).mid(0, 4)) {
            Document doc;
            Annotations a;
            QVERIFY2(importFunsdFile(file, FunsdWordOrder::Reading, &doc, &a, &error), qPrintable(error));
            for (Entity &e : a.entities) {
                e.label = e.label.toUpper();
                e.state = ReviewState::Accepted;
            }
            // Words the script edits are taken from the end of the page: the start keeps FUNSD's labels.
            const qint64 id = project->addDocument(doc, a, &error);
            QVERIFY2(id > 0, qPrintable(error));
            m_ids << id;
            QStringList ids;
            for (int i = int(doc.words.size()) - 1; i >= int(doc.words.size()) / 2; --i)
                ids << doc.words[size_t(i)].id;
            m_words.insert(id, ids);
            m_pages.insert(id, int(doc.pages.size()));
        }
        Document form;
        form.sourcePath = m_dir.filePath(QStringLiteral("two-pages.png"));
        form.kind = SourceKind::Image;
        Node root;
        root.kind = NodeKind::Root;
        root.id = QStringLiteral("root");
        form.addNode(root, -1);
        for (int p = 0; p < 2; ++p) {
            Page page;
            page.size = QSizeF(1000, 1400);
            form.pages.push_back(page);
        }
        QStringList formWords;
        for (int i = 0; i < 80; ++i) {
            Word w;
            w.id = QStringLiteral("t%1").arg(i);
            w.text = QStringLiteral("word%1").arg(i);
            w.page = i % 2;
            w.box = QRectF(20 + 110 * (i / 2 % 8), 30 + 40 * (i / 16), 100, 30);
            Node n;
            n.id = w.id;
            n.kind = NodeKind::Word;
            n.text = w.text;
            w.node = form.addNode(n, 0);
            form.words.push_back(w);
            formWords << w.id;
        }
        form.normaliseWordBoxes();
        const qint64 formId = project->addDocument(form, Annotations(), &error);
        QVERIFY2(formId > 0, qPrintable(error));
        m_ids << formId;
        m_words.insert(formId, formWords);
        m_pages.insert(formId, 2);
        m_currentDoc = m_ids.first();
        // Not the first start of this user: no sample project when there is nothing to recover.
        QDir().mkpath(m_dir.filePath(QStringLiteral("home/config/Folio")));
        QFile conf(m_dir.filePath(QStringLiteral("home/config/Folio/Folio.conf")));
        QVERIFY(conf.open(QIODevice::WriteOnly));
        conf.write("[help]\nsampleProjectShown=true\n");
    }

    void cleanupTestCase()
    {
        if (m_xvfb.state() == QProcess::Running) {
            m_xvfb.terminate();
            m_xvfb.waitForFinished(5000);
        }
    }

    // Rounds of scripted edits, each killed at a seeded random point, each start recovering the last.
    void killedSessionsKeepEveryAcknowledgedEdit()
    {
        QElapsedTimer total;
        total.start();
        const int rounds = 8;
        int killedMidEdit = 0;
        for (int round = 0; round < rounds; ++round) {
            // This round's actions, decided before it runs (what the user does next).
            QJsonArray actions{QJsonObject{{QStringLiteral("do"), QStringLiteral("report")}}};
            QList<Edit> planned;
            qint64 doc = m_currentDoc;
            if (round == 0 || std::uniform_int_distribution<int>(0, 2)(m_rng) == 0) {
                // Start on the two-page form now and then: pages to move between.
                const int row = round == 0 ? 0 : int(m_ids.size()) - 1;
                doc = m_ids.at(row);
                actions.append(QJsonObject{{QStringLiteral("do"), QStringLiteral("open")}, {QStringLiteral("row"), row}});
                planned << Edit{actions.last().toObject(), doc};
            }
            const int count = std::uniform_int_distribution<int>(6, 12)(m_rng);
            for (int i = 0; i < count; ++i) {
                const QJsonObject a = randomAction(&doc);
                planned << Edit{a, doc};
                actions.append(a);
            }
            const int interval = std::uniform_int_distribution<int>(5, 40)(m_rng);
            const int killAfter = std::uniform_int_distribution<int>(1, int(planned.size()))(m_rng); // acks (the report's too)
            const int delayMs = std::uniform_int_distribution<int>(0, 40)(m_rng);
            QElapsedTimer sinceAck;
            int seenAcks = 0;
            const Run run = runFolio(round == 0 ? QStringList{QStringLiteral("--project"), m_project} : QStringList{}, actions, interval,
                                     [&](const Run &r) {
                                         if (r.acks != seenAcks) {
                                             seenAcks = r.acks;
                                             sinceAck.start();
                                         }
                                         return r.acks >= killAfter + 1 && sinceAck.elapsed() >= delayMs;
                                     });
            QVERIFY2(run.killed, qPrintable(QStringLiteral("round %1: not killed\n%2").arg(round).arg(run.output)));
            for (const QString &l : run.lines)
                QVERIFY2(!l.startsWith(QLatin1String("error")) && !l.startsWith(QLatin1String("failed")),
                         qPrintable(QStringLiteral("round %1: %2\n%3").arg(round).arg(l, run.output)));
            // What this start recovered: the project, document, page and dock of the last acknowledged move.
            const QJsonObject state = lastState(run.lines);
            const QString recovered = recoveredLine(run.lines);
            if (round > 0) {
                QVERIFY2(!recovered.isEmpty(), qPrintable(QStringLiteral("round %1: no recovery message\n%2").arg(round).arg(run.output)));
                QVERIFY2(recovered.contains(QFileInfo(m_project).fileName()) && recovered.contains(QStringLiteral("window layout")),
                         qPrintable(recovered));
                QCOMPARE(QFileInfo(state.value(QStringLiteral("project")).toString()).absoluteFilePath(), QFileInfo(m_project).absoluteFilePath());
                QCOMPARE(qint64(state.value(QStringLiteral("document")).toDouble()), m_currentDoc);
                QCOMPARE(state.value(QStringLiteral("page")).toInt(), m_currentPage);
                QCOMPARE(state.value(QStringLiteral("docks")).toObject().value(QStringLiteral("attentionDock")).toBool(), m_attentionOpen);
                QVERIFY(state.value(QStringLiteral("banner")).toBool());
            }
            // The acknowledged actions (after the report) become the truth.
            const int acked = run.acks - 1;
            for (int i = 0; i < acked && i < planned.size(); ++i) {
                const Edit &e = planned.at(i);
                const QString what = e.action.value(QStringLiteral("do")).toString();
                if (what == QLatin1String("open")) {
                    m_currentDoc = e.document;
                    m_currentPage = 0;
                } else if (what == QLatin1String("page")) {
                    m_currentPage = e.action.value(QStringLiteral("page")).toInt();
                } else if (what == QLatin1String("dock")) {
                    m_attentionOpen = e.action.value(QStringLiteral("visible")).toBool();
                } else {
                    m_acked << e;
                }
            }
            if (acked < planned.size() && delayMs >= interval)
                ++killedMidEdit; // killed while the next action may have been running
            qInfo("round %d: %d actions, %d ms apart, killed %d ms after ack %d (%d acknowledged); %d edits acknowledged so far",
                  round, int(planned.size()), interval, delayMs, killAfter, acked, int(m_acked.size()));
            QString why;
            QVERIFY2(projectHoldsEdits(&why), qPrintable(QStringLiteral("round %1: %2").arg(round).arg(why)));
        }
        // The last start recovers too, and a clean quit leaves nothing to recover.
        const Run last = runFolio({}, QJsonArray{QJsonObject{{QStringLiteral("do"), QStringLiteral("report")}},
                                                QJsonObject{{QStringLiteral("do"), QStringLiteral("quit")}}},
                                  10, [](const Run &) { return false; });
        QVERIFY2(last.finished && !recoveredLine(last.lines).isEmpty(), qPrintable(last.output));
        QCOMPARE(qint64(lastState(last.lines).value(QStringLiteral("document")).toDouble()), m_currentDoc);
        const QString marker = m_dir.filePath(QStringLiteral("home/data/Folio/Folio/session.json"));
        QVERIFY2(!QFile::exists(marker), qPrintable(marker + QStringLiteral(" is still there after a clean quit")));
        const Run fresh = runFolio({}, QJsonArray{QJsonObject{{QStringLiteral("do"), QStringLiteral("report")}},
                                                 QJsonObject{{QStringLiteral("do"), QStringLiteral("quit")}}},
                                   10, [](const Run &) { return false; });
        QVERIFY2(fresh.finished && recoveredLine(fresh.lines).isEmpty(), qPrintable(fresh.output));
        QVERIFY(!lastState(fresh.lines).value(QStringLiteral("banner")).toBool());
        QString why;
        QVERIFY2(projectHoldsEdits(&why), qPrintable(why));
        qInfo("%d kill rounds, %d acknowledged edits all present, %d kills within an action's interval, %lld ms",
              rounds, int(m_acked.size()), killedMidEdit, total.elapsed());
    }

    // Keys typed into a question of the Questions dock, not committed: shown after the kill to copy back.
    void unsavedQuestionTextIsShownAfterTheKill()
    {
        const QString typed = QStringLiteral("Who signs the form");
        const QJsonObject base{{QStringLiteral("do"), QStringLiteral("qs")}, {QStringLiteral("question"), QStringLiteral("Draft base?")},
                               {QStringLiteral("summary"), QStringLiteral("Base.")}};
        QElapsedTimer sinceTyped;
        bool done = false;
        const Run run = runFolio({QStringLiteral("--project"), m_project},
                                 QJsonArray{QJsonObject{{QStringLiteral("do"), QStringLiteral("report")}}, base,
                                                QJsonObject{{QStringLiteral("do"), QStringLiteral("qsdraft")}, {QStringLiteral("text"), typed}}},
                                 10, [&](const Run &r) {
                                     if (!done && r.acks >= 3) {
                                         done = true;
                                         sinceTyped.start();
                                     }
                                     return done && sinceTyped.elapsed() >= 600; // the draft is written 300 ms after the last key
                                 });
        QVERIFY2(run.killed && run.acks == 3, qPrintable(run.lines.join(QLatin1Char('\n')) + QLatin1Char('\n') + run.output.right(3000)));
        m_acked << Edit{base, qint64(lastState(run.lines).value(QStringLiteral("document")).toDouble())};
        const Run after = runFolio({}, QJsonArray{QJsonObject{{QStringLiteral("do"), QStringLiteral("report")}},
                                                 QJsonObject{{QStringLiteral("do"), QStringLiteral("quit")}}},
                                   10, [](const Run &) { return false; });
        const QString recovered = recoveredLine(after.lines);
        QVERIFY2(recovered.contains(QStringLiteral("\u201c") + typed + QStringLiteral("\u201d")), qPrintable(after.output));
        QString why;
        QVERIFY2(projectHoldsEdits(&why), qPrintable(why));
    }

    // Train on Project killed after its first epoch: the next start offers to resume it; resumed, it finishes.
    void interruptedTrainingIsOfferedAndResumes()
    {
        QElapsedTimer total;
        total.start();
        const QString out = m_dir.filePath(QStringLiteral("models/crash"));
        const Run training = runFolio({QStringLiteral("--project"), m_project},
                                      QJsonArray{QJsonObject{{QStringLiteral("do"), QStringLiteral("train")},
                                                             {QStringLiteral("out"), out}, {QStringLiteral("epochs"), 3}}},
                                      10, [&](const Run &) { return QFile::exists(out + QStringLiteral("/last/state.json")); }, 240000);
        QVERIFY2(training.killed, qPrintable(training.output));
        const qint64 killedAt = total.elapsed();
        QFile killedState(out + QStringLiteral("/last/state.json"));
        QVERIFY(killedState.open(QIODevice::ReadOnly));
        const QJsonArray killedHistory = QJsonDocument::fromJson(killedState.readAll()).object().value(QStringLiteral("history")).toArray();
        QCOMPARE(killedHistory.size(), 1);
        QVERIFY(!QFile::exists(out + QStringLiteral("/config.json")) || QFile::exists(out + QStringLiteral("/last/state.json")));
        const Run resumed = runFolio({}, QJsonArray{QJsonObject{{QStringLiteral("do"), QStringLiteral("report")}},
                                                   QJsonObject{{QStringLiteral("do"), QStringLiteral("resume")}},
                                                   QJsonObject{{QStringLiteral("do"), QStringLiteral("waittrain")}, {QStringLiteral("out"), out}},
                                                   QJsonObject{{QStringLiteral("do"), QStringLiteral("quit")}}},
                                     10, [](const Run &) { return false; }, 300000);
        const QString recovered = recoveredLine(resumed.lines);
        QVERIFY2(recovered.contains(QStringLiteral("Resume Training")) && recovered.contains(QStringLiteral("of 3")),
                 qPrintable(resumed.output));
        QVERIFY2(resumed.finished && ackCount(resumed.lines) == 4, qPrintable(resumed.output));
        QVERIFY(QFile::exists(out + QStringLiteral("/config.json")));
        QVERIFY(QFile::exists(out + QStringLiteral("/model.safetensors")));
        // The resumed run went on from the saved epoch: its history has every epoch once.
        QFile folioJson(out + QStringLiteral("/folio.json"));
        QVERIFY(folioJson.open(QIODevice::ReadOnly));
        const QJsonObject card = QJsonDocument::fromJson(folioJson.readAll()).object();
        // Resumed, not started again: epoch 1 is the killed run's (same loss, same seconds), 2 and 3 follow.
        const QJsonArray history = card.value(QStringLiteral("history")).toArray();
        QCOMPARE(history.size(), 3);
        QCOMPARE(history.at(0).toObject(), killedHistory.at(0).toObject());
        QCOMPARE(history.at(2).toObject().value(QStringLiteral("epoch")).toInt(), 3);
        qInfo("training killed after epoch 1 at %lld ms, resumed and finished at %lld ms; folio.json history: %s", killedAt,
              total.elapsed(), QJsonDocument(card.value(QStringLiteral("history")).toArray()).toJson(QJsonDocument::Compact).constData());
        QString why;
        QVERIFY2(projectHoldsEdits(&why), qPrintable(why));
    }

    // Train on Project from a Hugging Face folder ("Start from", issue 46) killed once its first epoch is
    // saved: the next start offers it; Resume Training continues the fine-tune and it finishes.
    void interruptedHfFineTuneIsOfferedAndResumes()
    {
        const QString tiny = test::sharedPath(QStringLiteral("fixtures/parity-next/layoutlmv3_pipeline/checkpoint"));
        FOLIO_REQUIRE_DATA(tiny);
        const QString out = m_dir.filePath(QStringLiteral("models/hfcrash"));
        const QString statePath = out + QStringLiteral("/last/trainer_state.json");
        const Run training = runFolio({QStringLiteral("--project"), m_project},
                                      QJsonArray{QJsonObject{{QStringLiteral("do"), QStringLiteral("trainhf")}, {QStringLiteral("init"), tiny},
                                                             {QStringLiteral("out"), out}, {QStringLiteral("epochs"), 3}}},
                                      10, [&](const Run &) { return QFile::exists(statePath); }, 240000);
        QVERIFY2(training.killed, qPrintable(training.output));
        QFile killedState(statePath);
        QVERIFY(killedState.open(QIODevice::ReadOnly));
        const QJsonObject killed = QJsonDocument::fromJson(killedState.readAll()).object();
        const qint64 killedStep = qint64(killed.value(QStringLiteral("global_step")).toDouble());
        const qint64 totalSteps = qint64(killed.value(QStringLiteral("total_steps")).toDouble());
        const QJsonArray killedLoss = killed.value(QStringLiteral("loss_per_epoch")).toArray();
        QVERIFY2(killedStep > 0 && totalSteps > killedStep && killedLoss.size() == 1, qPrintable(QJsonDocument(killed).toJson()));
        // Not finished: the model card (it follows every epoch) has epoch 1 only.
        QFile killedCard(out + QStringLiteral("/README.md"));
        QVERIFY(killedCard.open(QIODevice::ReadOnly));
        const QString killedText = QString::fromUtf8(killedCard.readAll());
        QVERIFY2(killedText.contains(QRegularExpression(QStringLiteral("^\\| 1 \\| "), QRegularExpression::MultilineOption))
                     && !killedText.contains(QRegularExpression(QStringLiteral("^\\| 2 \\| "), QRegularExpression::MultilineOption)),
                 qPrintable(killedText));

        const Run resumed = runFolio({}, QJsonArray{QJsonObject{{QStringLiteral("do"), QStringLiteral("report")}},
                                                   QJsonObject{{QStringLiteral("do"), QStringLiteral("resume")}},
                                                   QJsonObject{{QStringLiteral("do"), QStringLiteral("waittrainend")}},
                                                   QJsonObject{{QStringLiteral("do"), QStringLiteral("quit")}}},
                                     10, [](const Run &) { return false; }, 300000);
        const QString recovered = recoveredLine(resumed.lines);
        QVERIFY2(recovered.contains(QStringLiteral("Resume Training"))
                     && recovered.contains(QStringLiteral("fine-tune of checkpoint into hfcrash was interrupted at step %1 of %2").arg(killedStep).arg(totalSteps)),
                 qPrintable(resumed.output));
        QVERIFY2(resumed.finished && ackCount(resumed.lines) == 4, qPrintable(resumed.output));
        // Finished: the Hugging Face folder and its model card; the resume state removed.
        QVERIFY2(QFile::exists(out + QStringLiteral("/config.json")) && QFile::exists(out + QStringLiteral("/model.safetensors")),
                 qPrintable(resumed.output));
        QVERIFY(!QFile::exists(statePath));
        QFile card(out + QStringLiteral("/README.md"));
        QVERIFY(card.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(card.readAll());
        // Resumed, not started again: every epoch once, epoch 1's loss the killed run's.
        for (int e = 1; e <= 3; ++e)
            QVERIFY2(text.contains(QRegularExpression(QStringLiteral("^\\| %1 \\| ").arg(e), QRegularExpression::MultilineOption)),
                     qPrintable(text));
        QVERIFY(!text.contains(QRegularExpression(QStringLiteral("^\\| 4 \\| "), QRegularExpression::MultilineOption)));
        const QRegularExpressionMatch first = QRegularExpression(QStringLiteral("^\\| 1 \\| ([0-9.]+) \\|"), QRegularExpression::MultilineOption).match(text);
        QVERIFY2(first.hasMatch(), qPrintable(text));
        QVERIFY2(qAbs(first.captured(1).toDouble() - killedLoss.at(0).toDouble()) < 1e-4,
                 qPrintable(QStringLiteral("epoch 1 loss %1 after the resume, %2 in the killed run").arg(first.captured(1)).arg(killedLoss.at(0).toDouble())));
        qInfo("Hugging Face fine-tune killed at step %lld of %lld, resumed and finished", killedStep, totalSteps);
        QString why;
        QVERIFY2(projectHoldsEdits(&why), qPrintable(why));
    }
};

FOLIO_TEST_MAIN(TestCrashSurvival)
#include "tst_crashsurvival.moc"
