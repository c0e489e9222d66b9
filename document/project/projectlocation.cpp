#include "document/project/projectlocation.h"
#include "common/regularfile.h"

#include <QFile>
#include <QStringList>
#include <QUrl>
#include <QUrlQuery>

namespace folio {

static const char kConnectionFileSuffix[] = ".folio-pg";
static const qint64 kMaxConnectionFile = 4096;

bool isPostgresProjectUrl(const QString &text)
{
    return text.startsWith(QLatin1String("postgresql://"), Qt::CaseInsensitive)
           || text.startsWith(QLatin1String("postgres://"), Qt::CaseInsensitive);
}

bool looksLikeProjectLocation(const QString &text)
{
    return isPostgresProjectUrl(text) || text.endsWith(QLatin1String(".folio"))
           || text.endsWith(QLatin1String(kConnectionFileSuffix));
}

static bool fail(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return false;
}

// The URL with its password removed, for messages and Project::path().
static QString redacted(const QUrl &url)
{
    QUrl copy = url;
    copy.setPassword(QString());
    return copy.toString(QUrl::RemovePassword);
}

static bool parseUrl(const QString &text, const QString &display, ProjectLocation *loc, QString *error)
{
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid())
        return fail(error, QStringLiteral("%1: not a valid PostgreSQL URL (%2)").arg(display, url.errorString()));
    const QString shown = display.isEmpty() ? redacted(url) : display;
    QString database = url.path();
    if (database.startsWith(QLatin1Char('/')))
        database.remove(0, 1);
    if (database.isEmpty() || database.contains(QLatin1Char('/')))
        return fail(error, QStringLiteral("%1: the URL must name one database (postgresql://host/DATABASE)").arg(shown));
    loc->kind = ProjectLocation::Kind::Postgres;
    loc->display = shown;
    loc->host = url.host();
    loc->port = url.port(-1);
    loc->user = url.userName();
    loc->password = url.password();
    loc->database = database;
    static const QStringList allowed = {QStringLiteral("sslmode"), QStringLiteral("connect_timeout"),
                                        QStringLiteral("application_name"), QStringLiteral("sslrootcert"),
                                        QStringLiteral("target_session_attrs")};
    QStringList options;
    const QUrlQuery query(url);
    for (const auto &[key, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (key == QLatin1String("host")) {
            loc->host = value;
        } else if (allowed.contains(key)) {
            if (value.contains(QLatin1Char(';')))
                return fail(error, QStringLiteral("%1: parameter %2 may not contain ';'").arg(shown, key));
            options << key + QLatin1Char('=') + value;
        } else {
            return fail(error, QStringLiteral("%1: unknown parameter '%2' (accepted: host, %3)")
                                   .arg(shown, key, allowed.join(QStringLiteral(", "))));
        }
    }
    loc->options = options.join(QLatin1Char(';'));
    return true;
}

static bool readConnectionFile(const QString &path, QString *url, QString *error)
{
    // A FIFO would block the open, a device never end it (issue 51): named, never opened.
    const std::string name = QFile::encodeName(path).toStdString();
    std::string notAFile;
    if (pathExists(name) && regularFileSize(name, -1, "the connection file", &notAFile) < 0)
        return fail(error, QFile::decodeName(QByteArray::fromStdString(notAFile)));
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return fail(error, QStringLiteral("%1: cannot read the connection file (%2)").arg(path, f.errorString()));
    if (f.size() > kMaxConnectionFile)
        return fail(error, QStringLiteral("%1: connection file larger than %2 bytes").arg(path).arg(kMaxConnectionFile));
    const QStringList lines = QString::fromUtf8(f.read(kMaxConnectionFile)).split(QLatin1Char('\n'));
    for (QString line : lines) {
        line = line.trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        if (!isPostgresProjectUrl(line))
            return fail(error, QStringLiteral("%1: the first line must be a postgresql:// URL").arg(path));
        *url = line;
        return true;
    }
    return fail(error, QStringLiteral("%1: connection file holds no postgresql:// URL").arg(path));
}

bool parseProjectLocation(const QString &text, ProjectLocation *location, QString *error)
{
    ProjectLocation loc;
    loc.text = text;
    if (text.isEmpty())
        return fail(error, QStringLiteral("no project path given"));
    if (isPostgresProjectUrl(text)) {
        if (!parseUrl(text, QString(), &loc, error))
            return false;
    } else if (text.endsWith(QLatin1String(kConnectionFileSuffix))) {
        QString url;
        if (!readConnectionFile(text, &url, error) || !parseUrl(url, text, &loc, error))
            return false;
    } else {
        loc.kind = ProjectLocation::Kind::File;
        loc.filePath = text;
        loc.display = text;
    }
    *location = loc;
    return true;
}

bool isEmptyDatabaseError(const QString &openError)
{
    return openError.contains(QLatin1String("the database is empty"));
}

} // namespace folio
