#pragma once
// StallWatchdog: how long the GUI thread stops answering. A QTimer ticking every `intervalMs` in the
// thread it lives in; a tick that comes late by more than the interval is a stall of that much. The
// longest stall is kept overall and per phase (what the application said it was doing), with
// timestamped events (window usable, page drawn ...) for start-up and open timings.
//
//   StallWatchdog dog;                  // in the GUI thread
//   dog.start();
//   dog.setPhase("open sample-form.png"); ... dog.mark("first page drawn");
//   dog.writeReport("/tmp/stalls.json", &error); // {"longestStallMs":..., "phases":{...}, "events":[...]}
//
// Times are milliseconds since the process started (from /proc on Linux, else since the first
// StallWatchdog), so "launch -> usable window" includes library loading before main().

#include <QElapsedTimer>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QObject>
#include <QString>
#include <QTimer>

namespace folio {

class StallWatchdog : public QObject
{
    Q_OBJECT
public:
    explicit StallWatchdog(QObject *parent = nullptr, int intervalMs = 10);

    void start();
    void stop();
    // Later stalls are charged to this phase (a stall that spans a change: to the phase that held
    // most of it).
    void setPhase(const QString &phase);
    QString phase() const { return m_phase; }
    // A timestamped event.
    void mark(const QString &event);
    // Milliseconds since the process started.
    static double processMs();

    double longestStallMs() const { return m_longest; }
    QString longestStallPhase() const { return m_longestPhase; }
    double longestStallMs(const QString &phase) const { return m_phases.value(phase).longest; }
    int ticks() const { return m_ticks; }
    // The first event whose text starts with `prefix`: its time, or -1.
    double eventMs(const QString &prefix) const;

    QJsonObject report() const;
    bool writeReport(const QString &path, QString *error = nullptr) const;

Q_SIGNALS:
    void ticked(); // every tick (tests and callers that poll for a state)

private:
    void tick();

    struct PhaseStats
    {
        double longest = 0;  // ms
        double stalledMs = 0; // sum of stalls over 50 ms
        int over50 = 0;
        double startMs = 0, endMs = 0;
    };
    QTimer m_timer;
    QElapsedTimer m_clock;
    int m_interval;
    qint64 m_lastNs = 0;
    QString m_phase = QStringLiteral("start");
    QString m_phaseAtLastTick = QStringLiteral("start");
    QMap<QString, PhaseStats> m_phases;
    QList<QPair<qint64, QString>> m_changes; // phase changes since the last tick (ns, new phase)
    QList<QPair<double, QString>> m_events;
    double m_longest = 0;
    QString m_longestPhase;
    int m_ticks = 0;
};

} // namespace folio
