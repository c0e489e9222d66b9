#include "pipeline/hub/hubnames.h"

#include <QRegularExpression>

namespace folio::hub {

namespace {

bool hasControl(const QString &s)
{
    for (const QChar c : s)
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return true;
    return false;
}

bool fail(QString *why, const QString &message)
{
    if (why)
        *why = message;
    return false;
}

// fnmatch from pattern position p and name position n (iterative '*' with one backtrack point).
bool matchFrom(const QString &pat, const QString &name)
{
    int p = 0, n = 0, starP = -1, starN = 0;
    auto classMatches = [&](int &pp, QChar c, bool *ok) {
        // pat[pp] == '['; on return pp is past ']' when the class is well formed.
        int i = pp + 1;
        bool negate = false;
        if (i < pat.size() && (pat[i] == QLatin1Char('!'))) {
            negate = true;
            ++i;
        }
        const int first = i;
        bool matched = false;
        while (i < pat.size() && (pat[i] != QLatin1Char(']') || i == first)) {
            if (i + 2 < pat.size() && pat[i + 1] == QLatin1Char('-') && pat[i + 2] != QLatin1Char(']')) {
                if (c >= pat[i] && c <= pat[i + 2])
                    matched = true;
                i += 3;
            } else {
                if (c == pat[i])
                    matched = true;
                ++i;
            }
        }
        if (i >= pat.size()) { // no closing ']': '[' is a literal
            *ok = c == QLatin1Char('[');
            pp += 1;
            return;
        }
        pp = i + 1;
        *ok = matched != negate;
    };
    while (n < name.size()) {
        bool ok = false;
        int next = p;
        if (p < pat.size() && pat[p] == QLatin1Char('*')) {
            starP = ++p;
            starN = n;
            continue;
        }
        if (p < pat.size()) {
            if (pat[p] == QLatin1Char('?')) {
                ok = true;
                next = p + 1;
            } else if (pat[p] == QLatin1Char('[')) {
                classMatches(next, name[n], &ok);
            } else {
                ok = pat[p] == name[n];
                next = p + 1;
            }
        }
        if (ok) {
            p = next;
            ++n;
        } else if (starP >= 0) {
            p = starP;
            n = ++starN;
        } else {
            return false;
        }
    }
    while (p < pat.size() && pat[p] == QLatin1Char('*'))
        ++p;
    return p == pat.size();
}

} // namespace

bool isValidRepoId(const QString &repoId, QString *why)
{
    static const QRegularExpression re(QStringLiteral("^([A-Za-z0-9_.\\-]+/)?[A-Za-z0-9_.\\-]+$"));
    if (repoId.isEmpty() || repoId.size() > 96)
        return fail(why, QStringLiteral("repo id '%1': expected ORG/NAME of at most 96 characters").arg(repoId.left(120)));
    if (!re.match(repoId).hasMatch())
        return fail(why, QStringLiteral("repo id '%1': expected ORG/NAME (letters, digits, '-', '_', '.')").arg(repoId));
    if (repoId.contains(QLatin1String("--")) || repoId.contains(QLatin1String("..")))
        return fail(why, QStringLiteral("repo id '%1': '--' and '..' are not allowed").arg(repoId));
    for (const QString &part : repoId.split(QLatin1Char('/')))
        if (part.startsWith(QLatin1Char('-')) || part.startsWith(QLatin1Char('.')) || part.endsWith(QLatin1Char('-'))
            || part.endsWith(QLatin1Char('.')))
            return fail(why, QStringLiteral("repo id '%1': a part cannot start or end with '-' or '.'").arg(repoId));
    return true;
}

bool isValidRevision(const QString &revision, QString *why)
{
    if (revision.isEmpty() || revision.size() > 255)
        return fail(why, QStringLiteral("revision '%1': expected a branch, tag or commit of 1 to 255 characters").arg(revision.left(120)));
    if (hasControl(revision) || revision.contains(QLatin1Char('\\')) || revision.contains(QLatin1Char(' ')))
        return fail(why, QStringLiteral("revision '%1': spaces, backslashes and control characters are not allowed").arg(revision));
    for (const QString &segment : revision.split(QLatin1Char('/')))
        if (segment.isEmpty() || segment == QLatin1String(".") || segment == QLatin1String(".."))
            return fail(why, QStringLiteral("revision '%1': empty, '.' or '..' path segment").arg(revision));
    return true;
}

bool isValidRepoFilename(const QString &name, QString *why)
{
    if (name.isEmpty() || name.toUtf8().size() > 1024)
        return fail(why, QStringLiteral("file name of %1 bytes (1 to 1024 expected)").arg(name.toUtf8().size()));
    if (hasControl(name))
        return fail(why, QStringLiteral("file name '%1' holds a control character").arg(QString(name).replace(QRegularExpression(QStringLiteral("[\\x00-\\x1f\\x7f]")), QStringLiteral("?"))));
    if (name.contains(QLatin1Char('\\')))
        return fail(why, QStringLiteral("file name '%1' holds a backslash").arg(name));
    if (name.startsWith(QLatin1Char('/')))
        return fail(why, QStringLiteral("file name '%1' is an absolute path").arg(name));
    for (const QString &segment : name.split(QLatin1Char('/')))
        if (segment.isEmpty() || segment == QLatin1String(".") || segment == QLatin1String(".."))
            return fail(why, QStringLiteral("file name '%1' has an empty, '.' or '..' segment (outside the repo)").arg(name));
    return true;
}

bool isCommitHash(const QString &s)
{
    static const QRegularExpression re(QStringLiteral("^[0-9a-f]{40}$"));
    return re.match(s).hasMatch();
}

bool parseRepoSpec(const QString &spec, QString *repoId, QString *revision, QString *why)
{
    const int at = spec.indexOf(QLatin1Char('@'));
    *repoId = at < 0 ? spec : spec.left(at);
    *revision = at < 0 ? QStringLiteral("main") : spec.mid(at + 1);
    return isValidRepoId(*repoId, why) && isValidRevision(*revision, why);
}

QString repoFolderName(const QString &repoId)
{
    return QStringLiteral("models--") + QString(repoId).replace(QLatin1Char('/'), QLatin1String("--"));
}

QString repoIdFromFolderName(const QString &folder)
{
    if (!folder.startsWith(QLatin1String("models--")))
        return {};
    const QString rest = folder.mid(8);
    const int sep = rest.indexOf(QLatin1String("--"));
    const QString id = sep < 0 ? rest : rest.left(sep) + QLatin1Char('/') + rest.mid(sep + 2);
    return isValidRepoId(id, nullptr) ? id : QString();
}

bool fnmatch(const QString &pattern, const QString &name)
{
    QString p = pattern;
    if (p.endsWith(QLatin1Char('/')))
        p += QLatin1Char('*');
    return matchFrom(p, name);
}

} // namespace folio::hub
