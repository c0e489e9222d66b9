#pragma once
// sha256 of a download computed beside it (internal to pipeline/hub): add() copies each piece into
// one of 8 blocks of 1 MB allocated once and reused (no allocation and no fresh page per piece:
// those page faults cost more than the copy), which a thread of its own hashes with OpenSSL (the
// SHA extensions where the CPU has them), so checking an LFS file costs the transfer little on a
// machine with a core to spare. hex() waits for the queue and gives the digest in lowercase hex.

#include <QByteArray>
#include <QString>

#include <memory>

namespace folio::hub {

class Sha256Pipe
{
public:
    Sha256Pipe();
    ~Sha256Pipe();
    Sha256Pipe(const Sha256Pipe &) = delete;
    Sha256Pipe &operator=(const Sha256Pipe &) = delete;

    void reset();                            // start over (waits for what is queued)
    void add(const char *data, qint64 size); // copies into a free block of its own; waits while all 8 are queued
    // Without the copy: a free block to read into (waits for one; the same block again until
    // addBlock), then addBlock(n) queues its first n bytes (n <= *capacity).
    char *block(qint64 *capacity);
    void addBlock(qint64 size);
    QString hex();                           // the digest of everything added since reset()

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace folio::hub
