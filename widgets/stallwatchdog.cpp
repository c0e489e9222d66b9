#include "widgets/stallwatchdog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <unistd.h>

namespace folio {

namespace {

// Seconds the process had run when `base` was taken, from /proc (Linux); -1 elsewhere.
double processAgeAtBaseSeconds()
{
    QFile stat(QStringLiteral("/proc/self/stat"));
    QFile uptime(QStringLiteral("/proc/uptime"));
    if (!stat.open(QIODevice::ReadOnly) || !uptime.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray s = stat.readAll();
    const int close = int(s.lastIndexOf(')')); // the command name may hold spaces
    const QList<QByteArray> fields = s.mid(close + 2).split(' ');
    // Field 22 of /proc/self/stat (starttime, clock ticks after boot) is index 19 after the name.
    if (fields.size() < 20)
        return -1;
    const double started = fields[19].toDouble() / double(sysconf(_SC_CLK_TCK));
    const double now = uptime.readAll().split(' ').value(0).toDouble();
    return now > started ? now - started : -1;
}

struct ProcessClock
{
    QElapsedTimer timer;
    double ageAtStartMs = 0;
    ProcessClock()
    {
        timer.start();
        const double age = processAgeAtBaseSeconds();
        ageAtStartMs = age > 0 ? age * 1000.0 : 0;
    }
};

ProcessClock &processClock()
{
    static ProcessClock clock;
    return clock;
}

} // namespace

StallWatchdog::StallWatchdog(QObject *parent, int intervalMs)
    : QObject(parent), m_interval(qMax(1, intervalMs))
{
    processClock();
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(m_interval);
    connect(&m_timer, &QTimer::timeout, this, &StallWatchdog::tick);
}

double StallWatchdog::processMs()
{
    const ProcessClock &c = processClock();
    return c.ageAtStartMs + double(c.timer.nsecsElapsed()) / 1e6;
}

void StallWatchdog::start()
{
    m_clock.start();
    m_lastNs = 0;
    m_phaseAtLastTick = m_phase;
    m_changes.clear();
    m_timer.start();
}

void StallWatchdog::stop()
{
    m_timer.stop();
}

void StallWatchdog::setPhase(const QString &phase)
{
    if (phase == m_phase)
        return;
    const double now = processMs();
    m_phases[m_phase].endMs = now;
    m_phase = phase;
    m_changes.append({m_clock.isValid() ? m_clock.nsecsElapsed() : 0, phase});
    PhaseStats &p = m_phases[phase];
    if (p.startMs == 0)
        p.startMs = now;
    mark(QStringLiteral("phase: ") + phase);
}

void StallWatchdog::mark(const QString &event)
{
    m_events.append({processMs(), event});
}

double StallWatchdog::eventMs(const QString &prefix) const
{
    for (const auto &e : m_events)
        if (e.second.startsWith(prefix))
            return e.first;
    return -1;
}

void StallWatchdog::tick()
{
    const qint64 now = m_clock.nsecsElapsed();
    const double gap = double(now - m_lastNs) / 1e6;
    m_lastNs = now;
    ++m_ticks;
    const double stall = qMax(0.0, gap - m_interval);
    // Charged to the phase that held most of the gap (a phase set just before blocking work owns
    // it; one set just after the thread woke up does not).
    QString owner = m_phaseAtLastTick;
    qint64 ownerNs = -1, from = now - qint64(gap * 1e6);
    QString current = m_phaseAtLastTick;
    for (const auto &change : m_changes) {
        const qint64 held = qMax<qint64>(0, change.first - from);
        if (held > ownerNs) {
            ownerNs = held;
            owner = current;
        }
        from = qMax(from, change.first);
        current = change.second;
    }
    if (now - from > ownerNs)
        owner = current;
    m_changes.clear();
    m_phaseAtLastTick = m_phase;
    const QString where = owner;
    PhaseStats &p = m_phases[owner];
    if (stall > p.longest)
        p.longest = stall;
    if (stall > 50) {
        ++p.over50;
        p.stalledMs += stall;
    }
    if (stall > m_longest) {
        m_longest = stall;
        m_longestPhase = where;
    }
    Q_EMIT ticked();
}

QJsonObject StallWatchdog::report() const
{
    QJsonObject phases;
    for (auto it = m_phases.cbegin(); it != m_phases.cend(); ++it)
        phases.insert(it.key(), QJsonObject{{QStringLiteral("longestStallMs"), qRound(it->longest * 10) / 10.0},
                                            {QStringLiteral("stallsOver50ms"), it->over50},
                                            {QStringLiteral("stalledMsOver50"), qRound(it->stalledMs)}});
    QJsonArray events;
    for (const auto &e : m_events)
        events.append(QJsonObject{{QStringLiteral("ms"), qRound(e.first * 10) / 10.0}, {QStringLiteral("event"), e.second}});
    return QJsonObject{{QStringLiteral("intervalMs"), m_interval},
                       {QStringLiteral("ticks"), m_ticks},
                       {QStringLiteral("longestStallMs"), qRound(m_longest * 10) / 10.0},
                       {QStringLiteral("longestStallPhase"), m_longestPhase},
                       {QStringLiteral("phases"), phases},
                       {QStringLiteral("events"), events}};
}

bool StallWatchdog::writeReport(const QString &path, QString *error) const
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(report()).toJson()) < 0 || !f.commit()) {
        if (error)
            *error = QStringLiteral("%1: cannot write the stall report (%2)").arg(path, f.errorString());
        return false;
    }
    return true;
}

} // namespace folio
