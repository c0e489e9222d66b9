#include "pipeline/folderfiles.h"

#include "common/regularfile.h"

#include <QFile>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <dirent.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace folio::pipeline {

namespace {

bool hasSuffix(const QByteArray &name, const QStringList &suffixes)
{
    const QString lower = QFile::decodeName(name).toLower();
    return std::any_of(suffixes.begin(), suffixes.end(),
                       [&lower](const QString &s) { return lower.endsWith(QLatin1Char('.') + s); });
}

// realpath(3) of `path`, empty when it cannot be resolved (nothing there, a loop).
QByteArray resolved(const QByteArray &path)
{
    std::unique_ptr<char, decltype(&std::free)> real(::realpath(path.constData(), nullptr), &std::free);
    return real ? QByteArray(real.get()) : QByteArray();
}

bool inside(const QByteArray &canonical, const QByteArray &root)
{
    return canonical == root || canonical.startsWith(root.endsWith('/') ? root : root + '/');
}

QByteArray linkTarget(const QByteArray &path)
{
    char target[PATH_MAX];
    const ssize_t n = ::readlink(path.constData(), target, sizeof target);
    return n > 0 ? QByteArray(target, int(n)) : QByteArray("?");
}

} // namespace

std::vector<FolderFile> folderFiles(const QString &folder, const QStringList &suffixes)
{
    QByteArray top = QFile::encodeName(folder);
    while (top.size() > 1 && top.endsWith('/'))
        top.chop(1);
    const QByteArray root = resolved(top);
    std::vector<FolderFile> found;
    if (root.isEmpty())
        return found;
    const auto refuse = [&found](const QByteArray &path, const QString &why) {
        const QString name = QFile::decodeName(path);
        found.push_back({path, name, name + QStringLiteral(": ") + why});
    };
    const auto linkTo = [](const QByteArray &path) {
        return QStringLiteral("a symbolic link to ") + QFile::decodeName(linkTarget(path));
    };
    std::vector<QByteArray> pending{top}; // folders still to read: no recursion, no link followed
    while (!pending.empty()) {
        const QByteArray dirPath = pending.back();
        pending.pop_back();
        std::unique_ptr<DIR, decltype(&::closedir)> dir(::opendir(dirPath.constData()), &::closedir);
        if (!dir)
            continue;
        while (const dirent *entry = ::readdir(dir.get())) {
            const QByteArray name(entry->d_name);
            if (name.startsWith('.'))
                continue; // ".", "..", and hidden files and folders, as before
            const QByteArray path = dirPath + '/' + name;
            struct stat st{};
            if (::lstat(path.constData(), &st) != 0)
                continue;
            const bool wanted = hasSuffix(name, suffixes);
            if (S_ISLNK(st.st_mode)) {
                const QByteArray target = resolved(path);
                if (target.isEmpty()) {
                    if (wanted)
                        refuse(path, linkTo(path) + QStringLiteral(" that leads to nothing or loops: not read"));
                    continue;
                }
                const bool folderLink = ::stat(path.constData(), &st) == 0 && S_ISDIR(st.st_mode);
                if (!inside(target, root)) {
                    if (wanted || folderLink)
                        refuse(path, linkTo(path) + (folderLink ? QStringLiteral(" (a folder)") : QString()) +
                                         QStringLiteral(", outside the folder %1 given: not read (a run over a folder "
                                                        "reads only what lies inside it; give the file itself to read it)")
                                             .arg(folder));
                    continue;
                }
                if (folderLink)
                    continue; // inside: searched where it really lies
            } else if (S_ISDIR(st.st_mode)) {
                pending.push_back(path);
                continue;
            }
            if (!wanted)
                continue;
            if (!S_ISREG(st.st_mode)) {
                refuse(path, QStringLiteral("is %1, not a regular file: not read").arg(QLatin1String(notRegularKind(st.st_mode))));
                continue;
            }
            if (::access(path.constData(), R_OK) == 0)
                found.push_back({path, QFile::decodeName(path), QString()});
        }
    }
    std::sort(found.begin(), found.end(), [](const FolderFile &a, const FolderFile &b) { return a.bytes < b.bytes; });
    return found;
}

} // namespace folio::pipeline
