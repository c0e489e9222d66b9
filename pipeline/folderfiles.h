#pragma once
// The files of a folder that a folder-wide run reads (folio-cli batches, pretraining corpora):
// recursive, sorted, only what lies inside the folder given (issue 51).
//
//   for (const folio::pipeline::FolderFile &f : folio::pipeline::folderFiles(dir, {"html", "png"}))
//       if (f.refused.isEmpty()) read(f.path); else report(f.refused);
//
// A symbolic link (to a file or a folder) whose target resolves outside the folder is not followed:
// it comes back with `refused` naming the link and its target, as does a link to nothing or a loop
// and a FIFO, device or socket with a wanted suffix (it would block or never end a reader). Links
// that stay inside are read; a linked folder is never descended into (inside, it is searched where
// it really lies), so links in a loop end. Hidden files and folders stay out, unreadable files too.
// Names are walked as bytes (opendir/lstat), so a name that is not UTF-8 is found as it is.

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <vector>

namespace folio::pipeline {

struct FolderFile
{
    QByteArray bytes; // the path as found under the folder given, as on disk
    QString path;     // the same as a Qt path (QFile::decodeName)
    QString refused;  // "<path>: <why it is not read>", empty when it may be read
};

// `suffixes` are lower-case, without the dot ("html", "html.gz").
std::vector<FolderFile> folderFiles(const QString &folder, const QStringList &suffixes);

} // namespace folio::pipeline
