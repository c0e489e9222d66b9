#pragma once
// StallSampler: where the GUI thread is while it stalls (issue 34's 50 ms aim). A watcher thread
// checks every 5 ms when the GUI thread last ticked (StallWatchdog::ticked); once it is `thresholdMs`
// late, it interrupts the GUI thread with a signal whose handler records the thread's stack
// (glibc backtrace), again every `thresholdMs` while the stall lasts. At the end the stacks are
// written as text with the process's executable mappings, for symbolising offline:
//
//   FOLIO_STALL_TRACE=/tmp/stalls.txt folio ...      (app/gui/main.cpp; needs FOLIO_STALL_REPORT too)
//   python3 bench/symbolize_stalls.py /tmp/stalls.txt
//
// A diagnostic: off unless asked for; Linux only (a no-op elsewhere).

#include <QObject>
#include <QString>

#include <memory>

namespace folio {

class StallWatchdog;

class StallSampler : public QObject
{
    Q_OBJECT
public:
    // Call from the GUI thread; `dog` must tick (started) for samples to be taken.
    StallSampler(StallWatchdog *dog, int thresholdMs = 30);
    ~StallSampler() override;

    // Stops sampling and writes the stacks taken so far. False with `error` when the file cannot be written.
    bool writeTrace(const QString &path, QString *error = nullptr);
    int samples() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace folio
