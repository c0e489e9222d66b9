#pragma once
// Names the Hub client accepts, checked before any of them becomes a URL or a path in the cache:
// repo ids (huggingface_hub's rule: [ORG/]NAME of letters, digits, '-', '_', '.', no "--" or "..",
// at most 96 characters), revisions (branch, tag or commit; "refs/pr/1" allowed), file names from
// the Hub's answer (relative, no '..' / '.' / empty segment, no backslash, no control character), and
// --include patterns (fnmatch, as huggingface_hub's allow_patterns: '*' also matches '/').

#include <QString>
#include <QStringList>

namespace folio::hub {

// "ORG/NAME[@REVISION]" -> repo id and revision ("main" when absent). False with *why otherwise.
bool parseRepoSpec(const QString &spec, QString *repoId, QString *revision, QString *why);
bool isValidRepoId(const QString &repoId, QString *why);
bool isValidRevision(const QString &revision, QString *why);
bool isValidRepoFilename(const QString &name, QString *why);
bool isCommitHash(const QString &s); // 40 lowercase hex digits
// "ORG/NAME" -> "models--ORG--NAME" (the cache folder); "models--ORG--NAME" -> "ORG/NAME" (empty if not one).
QString repoFolderName(const QString &repoId);
QString repoIdFromFolderName(const QString &folder);
// Python's fnmatch.fnmatch on POSIX (case-sensitive): '*' any run (also '/'), '?' one character,
// "[seq]" / "[!seq]" with ranges. A pattern ending in '/' matches everything below (huggingface_hub).
bool fnmatch(const QString &pattern, const QString &name);

} // namespace folio::hub
