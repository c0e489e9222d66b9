#include "pipeline/hub/hubsha256.h"

#include <openssl/evp.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace folio::hub {

namespace {
constexpr qint64 kBlockBytes = 1 << 20;
constexpr int kBlocks = 8; // at most 8 MB waiting for the hash
}

struct Sha256Pipe::Impl
{
    struct Piece
    {
        int block = 0;
        qint64 size = 0;
    };

    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    std::unique_ptr<char[]> storage; // kBlocks x kBlockBytes, allocated at the first add()
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<int> free;           // blocks not queued nor being hashed
    std::deque<Piece> queue;
    int held = -1;     // the block block() handed out, until addBlock()
    bool busy = false; // the worker hashes a block outside the queue
    bool stop = false;
    std::thread worker;

    char *block(int i) const { return storage.get() + qint64(i) * kBlockBytes; }

    int takeFree()
    {
        if (!storage)
            storage.reset(new char[size_t(kBlocks * kBlockBytes)]);
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return !free.empty(); });
        const int b = free.back(); // the block hashed last: its pages are the warmest
        free.pop_back();
        return b;
    }

    void queueBlock(int b, qint64 size)
    {
        {
            std::lock_guard<std::mutex> lock(mutex);
            queue.push_back({b, size});
        }
        changed.notify_all();
    }

    void run()
    {
        std::unique_lock<std::mutex> lock(mutex);
        for (;;) {
            changed.wait(lock, [&] { return stop || !queue.empty(); });
            if (queue.empty())
                return; // stop with nothing left
            const Piece piece = queue.front();
            queue.pop_front();
            busy = true;
            lock.unlock();
            EVP_DigestUpdate(ctx, block(piece.block), static_cast<size_t>(piece.size));
            lock.lock();
            busy = false;
            free.push_back(piece.block);
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
    for (int i = kBlocks - 1; i >= 0; --i)
        m_impl->free.push_back(i);
    m_impl->worker = std::thread([this] { m_impl->run(); });
}

Sha256Pipe::~Sha256Pipe()
{
    {
        std::lock_guard<std::mutex> lock(m_impl->mutex);
        m_impl->stop = true;
        for (const Impl::Piece &p : m_impl->queue)
            m_impl->free.push_back(p.block);
        m_impl->queue.clear();
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
    while (size > 0) {
        const qint64 n = std::min(size, kBlockBytes);
        const int b = m_impl->held >= 0 ? std::exchange(m_impl->held, -1) : m_impl->takeFree();
        std::memcpy(m_impl->block(b), data, size_t(n)); // outside the lock: the worker hashes meanwhile
        m_impl->queueBlock(b, n);
        data += n;
        size -= n;
    }
}

char *Sha256Pipe::block(qint64 *capacity)
{
    if (m_impl->held < 0)
        m_impl->held = m_impl->takeFree();
    *capacity = kBlockBytes;
    return m_impl->block(m_impl->held);
}

void Sha256Pipe::addBlock(qint64 size)
{
    if (m_impl->held < 0 || size <= 0)
        return;
    m_impl->queueBlock(std::exchange(m_impl->held, -1), std::min(size, kBlockBytes));
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
