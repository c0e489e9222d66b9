#include "document/html/savedpage.h"

#include <QDir>
#include <QFileInfo>
#include <QStringList>

namespace folio {

namespace {

const char *const kResourceSuffixes[] = {"_files", "-files", ".files"};

bool isHtmlName(const QString &name)
{
    const QString suffix = QFileInfo(name).suffix().toLower();
    return suffix == QLatin1String("html") || suffix == QLatin1String("htm") || suffix == QLatin1String("xhtml");
}

} // namespace

QString savedWebPageResources(const QString &htmlPath)
{
    const QFileInfo info(htmlPath);
    const QDir dir = info.absoluteDir();
    for (const char *s : kResourceSuffixes) {
        const QString candidate = dir.filePath(info.completeBaseName() + QLatin1String(s));
        if (QFileInfo(candidate).isDir())
            return candidate;
    }
    return {};
}

QString savedWebPageFile(const QString &path, QString *error)
{
    const QFileInfo info(path);
    if (!info.isDir())
        return path;
    const QDir dir(info.absoluteFilePath());
    // The resources folder was picked: its page is beside it.
    for (const char *s : kResourceSuffixes) {
        const QString suffix = QLatin1String(s);
        if (!dir.dirName().endsWith(suffix))
            continue;
        const QString base = dir.dirName().chopped(suffix.size());
        for (const char *ext : {".html", ".htm", ".xhtml"}) {
            const QString page = QFileInfo(dir.absolutePath()).absolutePath() + QLatin1Char('/') + base + QLatin1String(ext);
            if (QFileInfo(page).isFile())
                return page;
        }
    }
    QStringList pages, withResources;
    const QStringList files = dir.entryList(QDir::Files | QDir::Readable, QDir::Name);
    for (const QString &name : files) {
        if (!isHtmlName(name))
            continue;
        pages << dir.filePath(name);
        if (!savedWebPageResources(dir.filePath(name)).isEmpty())
            withResources << dir.filePath(name);
    }
    if (withResources.size() == 1)
        return withResources.front();
    if (withResources.isEmpty() && pages.size() == 1)
        return pages.front();
    if (error) {
        if (pages.isEmpty())
            *error = QStringLiteral("%1: no saved web page in this folder (a browser saves \"Web Page, complete\" as "
                                    "X.html beside an X_files folder)").arg(path);
        else
            *error = QStringLiteral("%1: %2 web pages in this folder (%3); open the one you mean")
                         .arg(path).arg(withResources.isEmpty() ? pages.size() : withResources.size())
                         .arg(QFileInfo(withResources.isEmpty() ? pages.front() : withResources.front()).fileName() + QStringLiteral(", ..."));
    }
    return {};
}

} // namespace folio
