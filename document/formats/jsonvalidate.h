#pragma once
// Strict JSON field access for the importers: every getter takes the JSON path of the value
// ("$[3].bboxes[2]") and, on a missing field or wrong type, records "<file>: <path>: <problem>"
// and returns false. The first error wins; callers just `return false` up the chain.

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <functional>

class QIODevice;

namespace folio::formats {

class JsonValidator
{
public:
    explicit JsonValidator(const QString &file) : m_file(file) {}

    // Parses a whole document; `where` (e.g. "line 3") is prefixed to the message when given.
    bool parse(const QByteArray &bytes, QJsonValue *out, const QString &where = QString());

    bool object(const QJsonValue &v, const QString &path, QJsonObject *out);
    bool array(const QJsonValue &v, const QString &path, QJsonArray *out);
    bool string(const QJsonValue &v, const QString &path, QString *out);
    bool integer(const QJsonValue &v, const QString &path, int *out);
    bool number(const QJsonValue &v, const QString &path, double *out);
    bool box(const QJsonValue &v, const QString &path, double out[4]); // [x0, y0, x1, y1] numbers

    // Field of an object: required fields fail when missing; optional ones leave *out alone.
    bool field(const QJsonObject &o, const QString &key, const QString &path, QJsonValue *out, bool required = true);
    bool stringField(const QJsonObject &o, const QString &key, const QString &path, QString *out, bool required = true);
    bool arrayField(const QJsonObject &o, const QString &key, const QString &path, QJsonArray *out, bool required = true);
    bool objectField(const QJsonObject &o, const QString &key, const QString &path, QJsonObject *out, bool required = true);

    bool fail(const QString &path, const QString &problem);
    QString error() const { return m_error; }
    void setContext(const QString &context) { m_context = context; } // e.g. "line 3"

private:
    QString m_file;
    QString m_context;
    QString m_error;
};

// Reads JSON Lines as a stream (one line in memory at a time): every non-blank line (context: its
// 1-based number) must be a JSON object of at most `maxLineBytes` bytes and is handed to `row`
// with its line number. Stops at the first failure: a line that is too long or not an object puts
// jv.error() ("<file>:<line>: ...") into `error`; when `row` returns false it has set `error` itself.
using JsonLineHandler = std::function<bool(int line, const QJsonObject &row)>;
bool forEachJsonLine(QIODevice &in, JsonValidator &jv, const JsonLineHandler &row, QString *error, qint64 maxLineBytes);
bool forEachJsonLine(const QByteArray &bytes, JsonValidator &jv, const JsonLineHandler &row, QString *error,
                     qint64 maxLineBytes);

inline QString jsonKey(const QString &path, const QString &key) { return path + QLatin1Char('.') + key; }
inline QString jsonIndex(const QString &path, qsizetype i) { return path + QStringLiteral("[%1]").arg(i); }

} // namespace folio::formats
