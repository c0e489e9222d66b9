#pragma once
// Where a batch's lines go (batch.h): --out (or stdout) and the --manifest that makes the run
// resumable. Each finished input is written to the out file and flushed to disk (fsync) before
// the manifest records it with the out file's new length; reopening cuts the out file back to the
// last recorded length, so a line is never written twice nor lost, whenever the run was killed.
#include <QFile>
#include <QString>

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace folio::cli {

class BatchJournal
{
public:
    // Opens (creating or resuming) the out file and the manifest; throws CliError when they cannot
    // be written, when the manifest belongs to another command, out file or input set (`inputs`,
    // the expanded list: the manifest records a hash of it), or when the out file is shorter than
    // the manifest says (it was changed by someone else). An out file that is the manifest itself
    // (same file after resolving links) is refused with ExitUsage before either is opened.
    BatchJournal(const std::string &command, const std::string &outPath, const std::string &manifestPath,
                 const std::vector<std::string> &inputs);
    ~BatchJournal();

    // Inputs are keyed by their UTF-8 form (bytes that are not UTF-8 become U+FFFD) as written.
    static std::string key(const std::string &input);
    bool done(const std::string &input) const { return m_done.count(key(input)) != 0; }
    std::size_t doneCount() const { return m_done.size(); }
    // One input's line; `ok` is recorded in the manifest too.
    void record(const std::string &input, const std::string &jsonLine, bool ok);

private:
    void openManifest(const std::string &command, const std::string &inputSet, std::size_t inputCount);
    void appendManifestLine(const std::string &line);

    std::string m_outPath, m_manifestPath;
    std::unique_ptr<QFile> m_out, m_manifest;
    std::set<std::string> m_done;
};

} // namespace folio::cli
