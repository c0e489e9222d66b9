#include "document/formats/jsonvalidate.h"

#include <QBuffer>
#include <QJsonDocument>
#include <QJsonParseError>

#include <cmath>

namespace folio::formats {

static QString typeName(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return QStringLiteral("a boolean");
    case QJsonValue::Double: return QStringLiteral("a number");
    case QJsonValue::String: return QStringLiteral("a string");
    case QJsonValue::Array: return QStringLiteral("an array");
    case QJsonValue::Object: return QStringLiteral("an object");
    case QJsonValue::Undefined: return QStringLiteral("missing");
    }
    return QStringLiteral("?");
}

bool JsonValidator::fail(const QString &path, const QString &problem)
{
    if (m_error.isEmpty()) {
        m_error = m_file;
        if (!m_context.isEmpty())
            m_error += QLatin1Char(':') + m_context;
        m_error += QStringLiteral(": ") + (path.isEmpty() ? QString() : path + QStringLiteral(": ")) + problem;
    }
    return false;
}

bool JsonValidator::parse(const QByteArray &bytes, QJsonValue *out, const QString &where)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &pe);
    if (pe.error != QJsonParseError::NoError) {
        const QString saved = m_context;
        if (!where.isEmpty())
            m_context = where;
        fail(QString(), QStringLiteral("invalid JSON at offset %1 (%2)").arg(pe.offset).arg(pe.errorString()));
        m_context = saved;
        return false;
    }
    *out = doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
    return true;
}

bool JsonValidator::object(const QJsonValue &v, const QString &path, QJsonObject *out)
{
    if (!v.isObject())
        return fail(path, QStringLiteral("expected an object, found %1").arg(typeName(v)));
    *out = v.toObject();
    return true;
}

bool JsonValidator::array(const QJsonValue &v, const QString &path, QJsonArray *out)
{
    if (!v.isArray())
        return fail(path, QStringLiteral("expected an array, found %1").arg(typeName(v)));
    *out = v.toArray();
    return true;
}

bool JsonValidator::string(const QJsonValue &v, const QString &path, QString *out)
{
    if (!v.isString())
        return fail(path, QStringLiteral("expected a string, found %1").arg(typeName(v)));
    *out = v.toString();
    return true;
}

bool JsonValidator::integer(const QJsonValue &v, const QString &path, int *out)
{
    const double d = v.toDouble(std::nan(""));
    if (!v.isDouble() || d != std::floor(d) || std::abs(d) > 2e9)
        return fail(path, QStringLiteral("expected an integer, found %1").arg(v.isDouble() ? QString::number(d) : typeName(v)));
    *out = int(d);
    return true;
}

bool JsonValidator::number(const QJsonValue &v, const QString &path, double *out)
{
    if (!v.isDouble())
        return fail(path, QStringLiteral("expected a number, found %1").arg(typeName(v)));
    *out = v.toDouble();
    return true;
}

bool JsonValidator::box(const QJsonValue &v, const QString &path, double out[4])
{
    const QJsonArray a = v.toArray();
    if (!v.isArray() || a.size() != 4)
        return fail(path, QStringLiteral("expected an array of 4 numbers [x0, y0, x1, y1]"));
    for (int i = 0; i < 4; ++i)
        if (!number(a[i], jsonIndex(path, i), &out[i]))
            return false;
    return true;
}

bool JsonValidator::field(const QJsonObject &o, const QString &key, const QString &path, QJsonValue *out, bool required)
{
    const auto it = o.constFind(key);
    if (it == o.constEnd()) {
        if (required)
            return fail(jsonKey(path, key), QStringLiteral("missing"));
        return true;
    }
    *out = it.value();
    return true;
}

bool JsonValidator::stringField(const QJsonObject &o, const QString &key, const QString &path, QString *out, bool required)
{
    if (!o.contains(key))
        return required ? fail(jsonKey(path, key), QStringLiteral("missing")) : true;
    return string(o.value(key), jsonKey(path, key), out);
}

bool JsonValidator::arrayField(const QJsonObject &o, const QString &key, const QString &path, QJsonArray *out, bool required)
{
    if (!o.contains(key))
        return required ? fail(jsonKey(path, key), QStringLiteral("missing")) : true;
    return array(o.value(key), jsonKey(path, key), out);
}

bool JsonValidator::objectField(const QJsonObject &o, const QString &key, const QString &path, QJsonObject *out, bool required)
{
    if (!o.contains(key))
        return required ? fail(jsonKey(path, key), QStringLiteral("missing")) : true;
    return object(o.value(key), jsonKey(path, key), out);
}

// One line (with its newline), read in 64 KiB pieces until the newline or until it holds more than
// `maxBytes`: a longer line is never held whole. (QIODevice::readLine(maxSize) would reserve
// maxSize bytes for every line: 16 MiB per record, 20x slower on small records.)
static QByteArray readBoundedLine(QIODevice &in, qint64 maxBytes)
{
    QByteArray line;
    char piece[64 * 1024];
    while (line.size() <= maxBytes) {
        const qint64 n = in.readLine(piece, sizeof piece);
        if (n <= 0)
            break;
        line.append(piece, n);
        if (piece[n - 1] == '\n')
            break;
    }
    return line;
}

bool forEachJsonLine(QIODevice &in, JsonValidator &jv, const JsonLineHandler &row, QString *error, qint64 maxLineBytes)
{
    for (int ln = 1; !in.atEnd(); ++ln) {
        const QByteArray line = readBoundedLine(in, maxLineBytes);
        const QString number = QString::number(ln);
        jv.setContext(number);
        const qint64 content = line.size() - (line.endsWith('\n') ? 1 : 0);
        if (content > maxLineBytes) {
            jv.fail(QString(), QStringLiteral("record longer than the limit of %1 bytes (%2 MiB)")
                                   .arg(maxLineBytes).arg(maxLineBytes >> 20));
            *error = jv.error();
            return false;
        }
        if (line.isEmpty() && in.atEnd())
            break;
        if (line.trimmed().isEmpty())
            continue;
        QJsonValue v;
        QJsonObject object;
        if (!jv.parse(line, &v, number) || !jv.object(v, QStringLiteral("$"), &object)) {
            *error = jv.error();
            return false;
        }
        if (!row(ln, object))
            return false;
    }
    return true;
}

bool forEachJsonLine(const QByteArray &bytes, JsonValidator &jv, const JsonLineHandler &row, QString *error,
                     qint64 maxLineBytes)
{
    QBuffer buffer;
    buffer.setData(bytes);
    buffer.open(QIODevice::ReadOnly);
    return forEachJsonLine(buffer, jv, row, error, maxLineBytes);
}

} // namespace folio::formats
