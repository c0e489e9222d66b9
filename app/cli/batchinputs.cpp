// The inputs of a batch (batch.h): files as given, folders searched recursively for the suffixes
// the command accepts, list files (@list.txt / --files-from) one path per line.
#include "app/cli/batch.h"
#include "app/cli/commands.h"
#include "common/regularfile.h"
#include "pipeline/folderfiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <set>
#include <sys/stat.h>

namespace folio::cli {

namespace {

constexpr qint64 kMaxListBytes = 64 * 1024 * 1024;

std::vector<std::string> readList(const std::string &listPath)
{
    struct stat st{};
    if (::stat(listPath.c_str(), &st) != 0)
        throw CliError(listPath + ": no such list of inputs (" + std::strerror(errno) + ")");
    if (!S_ISREG(st.st_mode))
        throw CliError(listPath + ": the list of inputs is " + notRegularKind(st.st_mode) +
                       ", not a regular file; give a file with one path per line");
    QFile f(QFile::decodeName(QByteArray::fromStdString(listPath)));
    if (!f.open(QIODevice::ReadOnly))
        throw CliError(listPath + ": cannot read the list of inputs (" + f.errorString().toStdString() + ")");
    if (f.size() > kMaxListBytes)
        throw CliError(listPath + ": a list of inputs over 64 MiB");
    std::vector<std::string> out;
    const QList<QByteArray> lines = f.readAll().split('\n');
    for (QByteArray line : lines) {
        if (line.endsWith('\r'))
            line.chop(1);
        if (!line.trimmed().isEmpty() && !line.startsWith('#'))
            out.push_back(line.toStdString());
    }
    return out;
}

// Entries of a folder batch that are not read, with why (refusedBatchInput): links that lead
// outside the folder given, links to nothing or in a loop, FIFOs and devices with a wanted suffix.
std::map<std::string, std::string> &refusedEntries()
{
    static std::map<std::string, std::string> refused;
    return refused;
}

// A folder's files (pipeline/folderfiles.h: only what lies inside it, issue 51); those that must
// not be read stay inputs, remembered with why, so each gets its failing line.
std::vector<std::string> folderFiles(const std::string &dirArgument, const QStringList &extensions)
{
    std::vector<std::string> found;
    for (const pipeline::FolderFile &f : pipeline::folderFiles(QFile::decodeName(QByteArray::fromStdString(dirArgument)), extensions)) {
        const std::string name = f.bytes.toStdString();
        if (!f.refused.isEmpty())
            refusedEntries()[name] = QFile::encodeName(f.refused).toStdString();
        found.push_back(name);
    }
    return found;
}

} // namespace

std::vector<std::string> expandBatchInputs(const BatchOptions &batch, const QStringList &extensions)
{
    std::vector<std::string> given;
    for (const std::string &a : batch.inputs) {
        if (a.size() > 1 && a[0] == '@') {
            const std::vector<std::string> listed = readList(a.substr(1));
            given.insert(given.end(), listed.begin(), listed.end());
        } else {
            given.push_back(a);
        }
    }
    if (!batch.filesFrom.empty()) {
        const std::vector<std::string> listed = readList(batch.filesFrom);
        given.insert(given.end(), listed.begin(), listed.end());
    }
    std::vector<std::string> out;
    std::set<QByteArray> seen;
    auto add = [&](const std::string &path) {
        if (path.find('\n') != std::string::npos)
            throw CliError("an input name with a line break cannot be batched: " + path);
        const QByteArray key = QFile::encodeName(QFileInfo(QFile::decodeName(QByteArray::fromStdString(path))).absoluteFilePath());
        if (seen.insert(QDir::cleanPath(QString::fromLocal8Bit(key)).toLocal8Bit()).second)
            out.push_back(path);
    };
    for (const std::string &a : given) {
        const QFileInfo info(QFile::decodeName(QByteArray::fromStdString(a)));
        if (info.isDir()) {
            const std::vector<std::string> files = folderFiles(a, extensions);
            if (files.empty() && !quiet())
                std::fprintf(stderr, "folio-cli: %s: no %s files in this folder\n", a.c_str(),
                             qPrintable(extensions.join(QLatin1Char('/'))));
            for (const std::string &f : files)
                add(f);
        } else {
            add(a); // a missing file becomes that input's error line
        }
    }
    return out;
}

std::string refusedBatchInput(const std::string &input)
{
    const auto it = refusedEntries().find(input);
    return it == refusedEntries().end() ? std::string() : it->second;
}

} // namespace folio::cli
