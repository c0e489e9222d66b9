// The out file and manifest of a batch (batchjournal.h).
// Manifest lines (JSON): a header {"folio_batch_manifest": 1, "command": ..., "out": <absolute out>,
// "inputs": <sha256 of the sorted input keys>, "input_count": n} then one
// {"input": ..., "ok": bool, "out_bytes": <out file length after its line>} per input.
#include "app/cli/batchjournal.h"
#include "app/cli/commands.h"

#include <nlohmann/json.hpp>

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>
#include <sys/stat.h>
#include <unistd.h>

namespace folio::cli {

namespace {

constexpr qint64 kMaxManifestBytes = 512LL * 1024 * 1024;

void syncToDisk(QFile &f, const std::string &what)
{
    if (!f.flush() || ::fsync(f.handle()) != 0)
        throw CliError(what + ": cannot write to disk (" + f.errorString().toStdString() + ")");
}

QString qpath(const std::string &p) { return QFile::decodeName(QByteArray::fromStdString(p)); }

// The same file after resolving: equal cleaned absolute paths, equal canonical paths (links), or,
// when both exist, the same device and inode (hard links, bind mounts).
bool sameFile(const std::string &a, const std::string &b)
{
    const QFileInfo ia(qpath(a)), ib(qpath(b));
    if (QDir::cleanPath(ia.absoluteFilePath()) == QDir::cleanPath(ib.absoluteFilePath()))
        return true;
    const QString ca = ia.canonicalFilePath(), cb = ib.canonicalFilePath();
    if (!ca.isEmpty() && ca == cb)
        return true;
    struct stat sa{}, sb{};
    return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

// What identifies a batch's input set in its manifest: the SHA-256 of its sorted input keys.
std::string inputSetHash(const std::vector<std::string> &inputs)
{
    std::vector<std::string> keys;
    keys.reserve(inputs.size());
    for (const std::string &in : inputs)
        keys.push_back(BatchJournal::key(in));
    std::sort(keys.begin(), keys.end());
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const std::string &k : keys) {
        hash.addData(QByteArrayView(k.data(), qsizetype(k.size())));
        hash.addData(QByteArrayView("\n", 1));
    }
    return hash.result().toHex().toStdString();
}

} // namespace

BatchJournal::BatchJournal(const std::string &command, const std::string &outPath, const std::string &manifestPath,
                           const std::vector<std::string> &inputs)
    : m_outPath(outPath), m_manifestPath(manifestPath)
{
    if (!outPath.empty() && !manifestPath.empty() && sameFile(outPath, manifestPath))
        throw CliError("--out " + outPath + " is the --manifest " + manifestPath +
                           ": results and manifest records would be mixed in one file; give them different files",
                       ExitUsage);
    if (!outPath.empty()) {
        m_out = std::make_unique<QFile>(qpath(outPath));
        // Without a manifest a batch starts afresh; with one, the out file is resumed below.
        const QIODevice::OpenMode mode = manifestPath.empty() ? QIODevice::WriteOnly | QIODevice::Truncate
                                                              : QIODevice::ReadWrite;
        if (!m_out->open(mode))
            throw CliError(outPath + ": cannot write the batch output (" + m_out->errorString().toStdString() + ")");
    }
    if (!manifestPath.empty())
        openManifest(command, inputSetHash(inputs), inputs.size());
}

BatchJournal::~BatchJournal() = default;

std::string BatchJournal::key(const std::string &input)
{
    return QString::fromUtf8(QByteArray::fromStdString(input)).toStdString();
}

void BatchJournal::openManifest(const std::string &command, const std::string &inputSet, std::size_t inputCount)
{
    if (!m_out)
        throw CliError("--manifest needs --out: a resumed run appends to its out file", ExitUsage);
    m_manifest = std::make_unique<QFile>(qpath(m_manifestPath));
    if (!m_manifest->open(QIODevice::ReadWrite))
        throw CliError(m_manifestPath + ": cannot open the manifest (" + m_manifest->errorString().toStdString() + ")");
    if (m_manifest->size() > kMaxManifestBytes)
        throw CliError(m_manifestPath + ": a manifest over 512 MiB");
    const std::string absOut = QFileInfo(qpath(m_outPath)).absoluteFilePath().toStdString();
    const QByteArray text = m_manifest->readAll();
    qint64 goodBytes = 0, outBytes = 0;
    bool header = false;
    int lineNo = 0;
    for (qint64 start = 0; start < text.size();) {
        const qint64 end = text.indexOf('\n', start);
        if (end < 0)
            break; // a line cut by a kill: dropped below
        ++lineNo;
        const nlohmann::json j = nlohmann::json::parse(text.mid(start, end - start).toStdString(), nullptr, false);
        if (j.is_discarded() || !j.is_object())
            throw CliError(m_manifestPath + ": line " + std::to_string(lineNo) + " is not a manifest entry");
        if (!header) {
            if (j.value("folio_batch_manifest", 0) != 1)
                throw CliError(m_manifestPath + ": not a folio-cli batch manifest");
            if (j.value("command", std::string()) != command || j.value("out", std::string()) != absOut)
                throw CliError(m_manifestPath + ": the manifest of another run (" + j.value("command", std::string()) +
                               " writing " + j.value("out", std::string()) + ")");
            // Manifests written before the input set was recorded carry no "inputs": resumed as they are.
            if (j.contains("inputs") && j.value("inputs", std::string()) != inputSet)
                throw CliError(m_manifestPath + ": the manifest of a run on another set of inputs (" +
                               std::to_string(j.value("input_count", 0)) +
                               " input(s), not these); resuming it would mix both sets in " + m_outPath +
                               ". Give this run its own --manifest and --out, or remove both to start again");
            header = true;
        } else {
            if (!j.contains("input") || !j["input"].is_string() || !j.contains("out_bytes") || !j["out_bytes"].is_number_integer())
                throw CliError(m_manifestPath + ": line " + std::to_string(lineNo) + " is not a manifest entry");
            m_done.insert(j["input"].get<std::string>());
            outBytes = j["out_bytes"].get<qint64>();
        }
        goodBytes = end + 1;
        start = end + 1;
    }
    if (goodBytes < text.size() && !m_manifest->resize(goodBytes))
        throw CliError(m_manifestPath + ": cannot cut off its unfinished last line");
    if (m_out->size() < outBytes)
        throw CliError(m_outPath + ": shorter than its manifest " + m_manifestPath + " records (" +
                       std::to_string(outBytes) + " bytes); was it changed? Remove both to start again");
    if (m_out->size() > outBytes && !m_out->resize(outBytes)) // a line written after the last manifest entry
        throw CliError(m_outPath + ": cannot cut it back to what the manifest records");
    m_out->seek(outBytes);
    m_manifest->seek(goodBytes);
    if (!header)
        appendManifestLine(nlohmann::json{{"folio_batch_manifest", 1},
                                          {"command", command},
                                          {"out", absOut},
                                          {"inputs", inputSet},
                                          {"input_count", inputCount}}
                               .dump());
    if (!m_done.empty() && !quiet())
        std::fprintf(stderr, "folio-cli: resuming %s: %zu input(s) already done\n", m_manifestPath.c_str(), m_done.size());
}

void BatchJournal::appendManifestLine(const std::string &line)
{
    const std::string withNewline = line + '\n';
    if (m_manifest->write(withNewline.data(), qint64(withNewline.size())) != qint64(withNewline.size()))
        throw CliError(m_manifestPath + ": cannot write (" + m_manifest->errorString().toStdString() + ")");
    syncToDisk(*m_manifest, m_manifestPath);
}

void BatchJournal::record(const std::string &input, const std::string &jsonLine, bool ok)
{
    const std::string withNewline = jsonLine + '\n';
    if (m_out) {
        if (m_out->write(withNewline.data(), qint64(withNewline.size())) != qint64(withNewline.size()))
            throw CliError(m_outPath + ": cannot write (" + m_out->errorString().toStdString() + ")");
        if (m_manifest)
            syncToDisk(*m_out, m_outPath);
        else
            m_out->flush();
    } else {
        std::fwrite(withNewline.data(), 1, withNewline.size(), stdout);
        std::fflush(stdout);
    }
    m_done.insert(key(input));
    if (m_manifest)
        appendManifestLine(nlohmann::json{{"input", key(input)}, {"ok", ok}, {"out_bytes", m_out->pos()}}.dump());
}

} // namespace folio::cli
