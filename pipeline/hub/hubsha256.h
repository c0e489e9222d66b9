#pragma once
// sha256 of a download computed beside it (internal to pipeline/hub): add() copies each piece to a
// bounded queue (8 MB) that a thread of its own hashes with OpenSSL (the SHA extensions where the
// CPU has them), so checking an LFS file costs the transfer next to nothing on a machine with a
// core to spare. hex() waits for the queue and gives the digest in lowercase hex.

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
    void add(const char *data, qint64 size); // copies; waits while 8 MB are queued
    QString hex();                           // the digest of everything added since reset()

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace folio::hub
