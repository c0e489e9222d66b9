// The inputs of a batch (batch.h): files as given, folders searched recursively for the suffixes
// the command accepts, list files (@list.txt / --files-from) one path per line.
#include "app/cli/batch.h"
#include "app/cli/commands.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <sys/stat.h>

namespace folio::cli {

namespace {

constexpr qint64 kMaxListBytes = 64 * 1024 * 1024;

bool hasSuffix(const QString &name, const QStringList &extensions)
{
    const QString lower = name.toLower();
    return std::any_of(extensions.begin(), extensions.end(),
                       [&lower](const QString &e) { return lower.endsWith(QLatin1Char('.') + e); });
}

// What a path that is not a regular file is, for the message (a FIFO would block the read,
// /dev/zero would never end it).
const char *notRegularKind(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

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

std::vector<std::string> folderFiles(const std::string &dirArgument, const QStringList &extensions)
{
    const QString dir = QFile::decodeName(QByteArray::fromStdString(dirArgument));
    std::vector<std::string> found;
    QDirIterator it(dir, QDir::Files | QDir::Readable | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (hasSuffix(path, extensions))
            found.push_back(QFile::encodeName(path).toStdString());
    }
    std::sort(found.begin(), found.end());
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

} // namespace folio::cli
