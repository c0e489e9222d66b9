#pragma once
// Where a project lives: a `.folio` SQLite file, or a PostgreSQL database named by a URL or by a
// connection file. Every place that accepts a project path accepts all three.
//
//   /data/forms.folio                                 SQLite file
//   postgresql://[user[:password]@]host[:port]/db      PostgreSQL (also postgres://)
//   postgresql://user@/db?host=/run/postgresql         PostgreSQL over a unix socket in that folder
//   team.folio-pg                                      a text file whose first non-comment line is
//                                                      such a URL (keeps passwords off the command line)
//
// Query parameters besides `host` are passed to libpq; only sslmode, connect_timeout,
// application_name, sslrootcert and target_session_attrs are accepted (anything else is refused,
// naming it). A password may also come from PGPASSWORD or ~/.pgpass (libpq reads them).

#include <QString>

namespace folio {

struct ProjectLocation
{
    enum class Kind { File, Postgres };
    Kind kind = Kind::File;
    QString text;     // as given
    QString display;  // for messages: the file, the connection file, or the URL without its password
    QString filePath; // Kind::File
    // Kind::Postgres
    QString host;     // host name, or a socket folder (starts with '/'); empty: libpq's default
    int port = -1;    // -1: libpq's default
    QString user;
    QString password;
    QString database;
    QString options;  // extra libpq options as "k=v;k=v"
};

// True for postgresql:// and postgres:// URLs.
bool isPostgresProjectUrl(const QString &text);
// True for what names a project rather than a document or a dataset folder: a .folio file, a
// .folio-pg connection file or a PostgreSQL URL.
bool looksLikeProjectLocation(const QString &text);
// Parses `text` (reading a connection file when it ends in .folio-pg). False with a message that
// names the URL (without password) or the file and the problem.
bool parseProjectLocation(const QString &text, ProjectLocation *location, QString *error);
// True for Project::open's message on a PostgreSQL database that holds no tables yet (one that
// Project::create / openOrCreate fill: an empty database becomes a project on first use).
bool isEmptyDatabaseError(const QString &openError);

} // namespace folio
