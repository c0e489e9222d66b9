#pragma once
// RecentFiles: the most recently opened paths, persisted in QSettings ("recentFiles").
#include <QStringList>

namespace folio {

class RecentFiles
{
public:
    explicit RecentFiles(int capacity = 10);
    QStringList paths() const;        // most recent first, existing files only
    void add(const QString &path);    // moves to front, trims to capacity, saves
    void clear();

private:
    int m_capacity;
};

} // namespace folio
