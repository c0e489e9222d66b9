// Command-line file names as Qt paths (see commands.h): bytes that are not valid UTF-8 cannot
// survive QString, so such a file is reached through a symlink with a UTF-8 name.
#include "app/cli/commands.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <memory>
#include <unistd.h>

namespace folio::cli {

QString inputPath(const std::string &argument)
{
    const QByteArray raw = QByteArray::fromStdString(argument);
    const QString decoded = QFile::decodeName(raw);
    if (QFile::encodeName(decoded) == raw)
        return decoded;
    const QString printable = QString::fromUtf8(raw); // U+FFFD for the bad bytes
    if (::access(raw.constData(), F_OK) != 0)
        throw CliError(printable.toStdString() + ": no such file");
    // Lives until exit: the command reads the file through it (worker processes too).
    static std::vector<std::unique_ptr<QTemporaryDir>> s_links;
    auto dir = std::make_unique<QTemporaryDir>();
    if (!dir->isValid())
        throw CliError(std::string("cannot reach ") + argument + ": no temporary folder for a link to it");
    const QString suffix = QFileInfo(printable).suffix();
    const QString link = dir->filePath(suffix.isEmpty() ? QStringLiteral("input") : QStringLiteral("input.") + suffix.toLower());
    const QByteArray target = raw.startsWith('/') ? raw : QFile::encodeName(QDir::currentPath()) + '/' + raw;
    if (::symlink(target.constData(), QFile::encodeName(link).constData()) != 0)
        throw CliError(std::string("cannot reach ") + argument + ": cannot make a link to it");
    s_links.push_back(std::move(dir));
    return link;
}

} // namespace folio::cli
