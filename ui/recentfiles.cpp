#include "ui/recentfiles.h"

#include <QFileInfo>
#include <QSettings>

namespace folio {

static const char kKey[] = "recentFiles";

RecentFiles::RecentFiles(int capacity)
    : m_capacity(capacity)
{
}

QStringList RecentFiles::paths() const
{
    QStringList out;
    const QStringList stored = QSettings().value(QLatin1String(kKey)).toStringList();
    for (const QString &p : stored)
        if (QFileInfo::exists(p))
            out << p;
    return out;
}

void RecentFiles::add(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = QSettings().value(QLatin1String(kKey)).toStringList();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > m_capacity)
        list.removeLast();
    QSettings().setValue(QLatin1String(kKey), list);
}

void RecentFiles::clear()
{
    QSettings().remove(QLatin1String(kKey));
}

} // namespace folio
