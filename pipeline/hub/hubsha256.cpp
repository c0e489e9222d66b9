#include "pipeline/hub/hubsha256.h"

#include <openssl/evp.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace folio::hub {

namespace {
constexpr qint64 kMaxQueued = 8ll << 20;
}

struct Sha256Pipe::Impl
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<QByteArray> queue;
    qint64 queued = 0;
    bool busy = false; // the worker holds a piece outside the queue
    bool stop = false;
    std::thread worker;

    void run()
    {
        std::unique_lock<std::mutex> lock(mutex);
        for (;;) {
            changed.wait(lock, [&] { return stop || !queue.empty(); });
            if (queue.empty())
                return; // stop with nothing left
            QByteArray piece = std::move(queue.front());
            queue.pop_front();
            busy = true;
            lock.unlock();
            EVP_DigestUpdate(ctx, piece.constData(), static_cast<size_t>(piece.size()));
            lock.lock();
            busy = false;
            queued -= piece.size();
            changed.notify_all();
        }
    }

    void drain()
    {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return queue.empty() && !busy; });
    }
};

Sha256Pipe::Sha256Pipe() : m_impl(new Impl)
{
    EVP_DigestInit_ex(m_impl->ctx, EVP_sha256(), nullptr);
    m_impl->worker = std::thread([this] { m_impl->run(); });
}

Sha256Pipe::~Sha256Pipe()
{
    {
        std::lock_guard<std::mutex> lock(m_impl->mutex);
        m_impl->stop = true;
        m_impl->queue.clear();
        m_impl->queued = 0;
    }
    m_impl->changed.notify_all();
    m_impl->worker.join();
    EVP_MD_CTX_free(m_impl->ctx);
}

void Sha256Pipe::reset()
{
    m_impl->drain();
    EVP_DigestInit_ex(m_impl->ctx, EVP_sha256(), nullptr);
}

void Sha256Pipe::add(const char *data, qint64 size)
{
    if (size <= 0)
        return;
    QByteArray piece(data, int(size));
    std::unique_lock<std::mutex> lock(m_impl->mutex);
    m_impl->changed.wait(lock, [&] { return m_impl->queued < kMaxQueued; });
    m_impl->queued += piece.size();
    m_impl->queue.push_back(std::move(piece));
    m_impl->changed.notify_all();
}

QString Sha256Pipe::hex()
{
    m_impl->drain();
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    EVP_DigestFinal_ex(m_impl->ctx, digest, &n);
    return QString::fromLatin1(QByteArray(reinterpret_cast<const char *>(digest), int(n)).toHex());
}

} // namespace folio::hub
