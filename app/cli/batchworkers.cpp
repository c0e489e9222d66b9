// The process pool of `--jobs N` (batchworkers.h). Each worker is this folio-cli with the same
// arguments plus --batch-worker (and -q); it answers one JSON line per path written to its stdin.
// Paths are handed out one at a time, so a slow input never holds back the others.
#include "app/cli/batchworkers.h"
#include "app/cli/batchjournal.h"
#include "app/cli/commands.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QProcess>
#include <QTimer>

#include <deque>
#include <memory>

namespace folio::cli {

namespace {

struct Worker
{
    std::unique_ptr<QProcess> process;
    std::string current; // the input it is working on, empty when idle
    QByteArray buffer;
    bool answeredAny = false;
};

class WorkerPool
{
public:
    WorkerPool(const std::vector<std::string> &pending, BatchJournal *journal, BatchTally *tally, std::string label)
        : m_pending(pending.begin(), pending.end()), m_journal(journal), m_tally(tally), m_label(std::move(label))
    {
        const QStringList args = QCoreApplication::arguments();
        m_program = args.value(0);
        m_arguments << QStringLiteral("-q") << args.mid(1) << QStringLiteral("--batch-worker");
    }

    void run(int jobs)
    {
        for (int i = 0; i < jobs && std::size_t(i) < m_pending.size(); ++i)
            startWorker();
        QTimer poll;
        poll.setInterval(50);
        QObject::connect(&poll, &QTimer::timeout, [this] {
            if (cancelRequested() && !m_cancelled) {
                m_cancelled = true;
                for (auto &w : m_workers)
                    w->process->kill();
            }
        });
        poll.start();
        if (!m_workers.empty())
            m_loop.exec();
        if (!m_error.empty())
            throw CliError(m_error);
        if (m_cancelled)
            throw CliError("cancelled; the manifest lets a rerun resume", ExitCancelled);
    }

private:
    void startWorker()
    {
        auto w = std::make_shared<Worker>();
        w->process = std::make_unique<QProcess>();
        w->process->setProcessChannelMode(QProcess::SeparateChannels);
        w->process->setProcessEnvironment(QProcessEnvironment::systemEnvironment());
        w->process->setInputChannelMode(QProcess::ManagedInputChannel);
        w->process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        Worker *raw = w.get();
        QObject::connect(raw->process.get(), &QProcess::readyReadStandardOutput, [this, raw] { onOutput(raw); });
        QObject::connect(raw->process.get(), &QProcess::finished, [this, raw](int code, QProcess::ExitStatus status) {
            onFinished(raw, code, status);
        });
        QObject::connect(raw->process.get(), &QProcess::errorOccurred, [this, raw](QProcess::ProcessError e) {
            if (e != QProcess::FailedToStart)
                return; // crashes arrive through finished()
            if (m_error.empty())
                m_error = "cannot start a batch worker: " + raw->process->errorString().toStdString();
            m_cancelled = true;
            if (!raw->current.empty())
                m_pending.push_front(raw->current); // not run; a rerun with the manifest picks it up
            raw->current.clear();
            onFinished(raw, -1, QProcess::CrashExit);
        });
        m_workers.push_back(w);
        w->process->start(m_program, m_arguments);
        giveNext(raw);
    }

    void giveNext(Worker *w)
    {
        if (m_cancelled || m_pending.empty()) {
            w->current.clear();
            w->process->closeWriteChannel(); // the worker ends at the end of its input
            return;
        }
        w->current = m_pending.front();
        m_pending.pop_front();
        const QByteArray line = QByteArray::fromStdString(w->current) + '\n';
        w->process->write(line);
    }

    void onOutput(Worker *w)
    {
        w->buffer += w->process->readAllStandardOutput();
        for (qsizetype nl; (nl = w->buffer.indexOf('\n')) >= 0;) {
            const QByteArray line = w->buffer.left(nl);
            w->buffer.remove(0, nl + 1);
            if (w->current.empty() || m_cancelled)
                continue; // nothing was asked (cannot happen with a well-behaved worker)
            const nlohmann::json j = nlohmann::json::parse(line.toStdString(), nullptr, false);
            const bool ok = !j.is_discarded() && j.is_object() && j.value("ok", false);
            w->answeredAny = true;
            record(w->current, j.is_discarded() ? failureLine(w->current, "the worker's answer is not JSON") : line.toStdString(), ok);
            giveNext(w);
        }
    }

    void onFinished(Worker *w, int code, QProcess::ExitStatus status)
    {
        const std::string current = w->current;
        // Ctrl-C reaches the workers too: one may end (exit 3) before this process polls the flag.
        if (cancelRequested() || (status == QProcess::NormalExit && code == ExitCancelled))
            m_cancelled = true;
        if (!w->answeredAny && status == QProcess::NormalExit && code == ExitUsage && m_error.empty()) {
            m_error = "the batch workers refuse this command line (see their message above)";
            m_cancelled = true;
        } else if (!current.empty() && !m_cancelled) {
            const std::string how = status == QProcess::CrashExit ? "crashed" : "ended with exit code " + std::to_string(code);
            record(current, failureLine(current, "the worker process " + how + " while on this input"), false);
        }
        // Deleting the QProcess inside its own signal is not allowed: drop it from the next turn.
        for (auto it = m_workers.begin(); it != m_workers.end(); ++it)
            if (it->get() == w) {
                std::shared_ptr<Worker> keep = *it;
                m_workers.erase(it);
                QTimer::singleShot(0, [keep] {});
                break;
            }
        if (!current.empty() && !m_cancelled && m_error.empty() && !m_pending.empty())
            startWorker();
        if (m_workers.empty())
            m_loop.quit();
    }

    void record(const std::string &input, const std::string &line, bool ok)
    {
        try {
            m_journal->record(input, line, ok);
        } catch (const CliError &e) {
            if (m_error.empty())
                m_error = e.what();
            m_cancelled = true; // stop handing out work; the pool then winds down
            for (auto &w : m_workers)
                w->process->kill();
            return;
        }
        m_tally->count(ok);
        m_tally->report(m_label);
    }

    static std::string failureLine(const std::string &input, const std::string &error)
    {
        return batchLine(input, nullptr, -1, error);
    }

    std::deque<std::string> m_pending;
    BatchJournal *m_journal;
    BatchTally *m_tally;
    std::string m_label, m_error;
    QString m_program;
    QStringList m_arguments;
    std::vector<std::shared_ptr<Worker>> m_workers;
    QEventLoop m_loop;
    bool m_cancelled = false;
};

} // namespace

void runWithWorkers(const std::vector<std::string> &pending, int jobs, BatchJournal *journal, BatchTally *tally,
                    const std::string &progressLabel)
{
    WorkerPool pool(pending, journal, tally, progressLabel);
    pool.run(jobs);
}

} // namespace folio::cli
