#include "widgets/stallsampler.h"

#include "widgets/stallwatchdog.h"

#include <QFile>
#include <QSaveFile>
#include <QTextStream>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <csignal>
#include <execinfo.h>
#include <pthread.h>
#endif

namespace folio {

namespace {

constexpr int kMaxFrames = 48;
constexpr int kMaxSamples = 20000;

struct Sample
{
    double processMs = 0;
    double lateMs = 0;
    int frames = 0;
    void *stack[kMaxFrames];
};

// The one sampler's state the signal handler reaches (a handler takes no arguments).
std::vector<Sample> *g_samples = nullptr;
std::atomic<int> g_slot{-1};    // the sample the handler fills, -1 when none is asked for
std::atomic<bool> g_filled{false};

qint64 steadyNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

#if defined(__linux__)
const int kSignal = SIGRTMIN + 5;

void onSampleSignal(int)
{
    const int slot = g_slot.load();
    if (slot >= 0 && g_samples) {
        Sample &s = (*g_samples)[size_t(slot)];
        s.frames = backtrace(s.stack, kMaxFrames);
        g_filled.store(true);
    }
}
#endif

} // namespace

struct StallSampler::Impl
{
    int thresholdMs = 30;
    std::vector<Sample> samples;
    std::atomic<int> used{0};
    std::atomic<qint64> lastTickNs{0};
    std::atomic<bool> stop{false};
    std::thread watcher;
#if defined(__linux__)
    pthread_t gui{};
    struct sigaction previous {};
#endif

    void watch()
    {
#if defined(__linux__)
        qint64 lastSampleNs = 0;
        while (!stop.load()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            const qint64 now = steadyNs();
            const qint64 last = lastTickNs.load();
            const double lateMs = double(now - last) / 1e6;
            if (last == 0 || lateMs < thresholdMs || double(now - lastSampleNs) / 1e6 < thresholdMs)
                continue;
            const int slot = used.load();
            if (slot >= kMaxSamples)
                return;
            samples[size_t(slot)].processMs = StallWatchdog::processMs();
            samples[size_t(slot)].lateMs = lateMs;
            g_filled.store(false);
            g_slot.store(slot);
            pthread_kill(gui, kSignal);
            for (int i = 0; i < 200 && !g_filled.load(); ++i) // the handler runs within microseconds
                std::this_thread::sleep_for(std::chrono::microseconds(250));
            g_slot.store(-1);
            if (g_filled.load())
                used.store(slot + 1);
            lastSampleNs = steadyNs();
        }
#endif
    }
};

StallSampler::StallSampler(StallWatchdog *dog, int thresholdMs)
    : m_impl(std::make_unique<Impl>())
{
    m_impl->thresholdMs = qMax(5, thresholdMs);
#if defined(__linux__)
    if (g_samples) // one sampler per process
        return;
    m_impl->samples.resize(kMaxSamples);
    g_samples = &m_impl->samples;
    void *prime[2];
    backtrace(prime, 2); // loads the unwinder now, not inside the handler
    m_impl->gui = pthread_self();
    struct sigaction action {};
    action.sa_handler = onSampleSignal;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    sigaction(kSignal, &action, &m_impl->previous);
    connect(dog, &StallWatchdog::ticked, this, [this] { m_impl->lastTickNs.store(steadyNs()); });
    m_impl->watcher = std::thread([this] { m_impl->watch(); });
#else
    Q_UNUSED(dog);
#endif
}

StallSampler::~StallSampler()
{
    m_impl->stop.store(true);
    if (m_impl->watcher.joinable())
        m_impl->watcher.join();
#if defined(__linux__)
    if (g_samples == &m_impl->samples) {
        sigaction(kSignal, &m_impl->previous, nullptr);
        g_samples = nullptr;
    }
#endif
}

int StallSampler::samples() const
{
    return m_impl->used.load();
}

bool StallSampler::writeTrace(const QString &path, QString *error)
{
    m_impl->stop.store(true);
    if (m_impl->watcher.joinable())
        m_impl->watcher.join();
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QStringLiteral("%1: cannot write the stall trace (%2)").arg(path, f.errorString());
        return false;
    }
    QTextStream out(&f);
    out << "# folio stall trace: one stack per sample of a GUI thread " << m_impl->thresholdMs << "+ ms late\n";
    for (int i = 0; i < m_impl->used.load(); ++i) {
        const Sample &s = m_impl->samples[size_t(i)];
        out << "sample " << QString::number(s.processMs, 'f', 1) << " late " << QString::number(s.lateMs, 'f', 1);
        for (int k = 0; k < s.frames; ++k)
            out << ' ' << QString::number(quintptr(s.stack[k]), 16);
        out << '\n';
    }
    QFile maps(QStringLiteral("/proc/self/maps"));
    if (maps.open(QIODevice::ReadOnly))
        for (const QByteArray &line : maps.readAll().split('\n'))
            if (line.contains(" r-xp ") || line.contains(" r-x"))
                out << "map " << QString::fromLocal8Bit(line) << '\n';
    out.flush();
    if (!f.commit()) {
        if (error)
            *error = QStringLiteral("%1: cannot write the stall trace (%2)").arg(path, f.errorString());
        return false;
    }
    return true;
}

} // namespace folio
