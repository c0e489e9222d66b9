#include "document/formats/swde.h"
#include "document/formats/datasetlimits.h"

#include <QCryptographicHash>
#include <QDir>
#include <QHash>

#include <map>
#include <set>

namespace folio {

using namespace formats;

static QString fieldText(const Document &doc, const FieldValue &f)
{
    if (!f.text.isEmpty())
        return f.text;
    QStringList parts;
    for (const QString &id : f.wordIds) {
        const int i = doc.wordIndex(id);
        if (i >= 0)
            parts << doc.words[size_t(i)].text;
    }
    return parts.join(QLatin1Char(' '));
}

static QString clean(QString s)
{
    return s.replace(QLatin1Char('\t'), QLatin1Char(' ')).replace(QLatin1Char('\n'), QLatin1Char(' ')).replace(QLatin1Char('\r'), QLatin1Char(' '));
}

// One part of an output file name: path separators and control characters become '_' (a field
// named "a/b" or holding a NUL, which an SWDE import or a project can carry, made export fail).
static QString fileNamePart(QString s)
{
    for (QChar &c : s)
        if (c == QLatin1Char('/') || c == QLatin1Char('\\') || c.unicode() < 0x20 || c.unicode() == 0x7f)
            c = QLatin1Char('_');
    return s;
}

bool SwdeFormat::exportItems(const std::vector<DatasetItem> &items, const QString &outDir,
                             const DatasetExportOptions &options, QStringList *written, QString *error) const
{
    if (!checkDatasetItems(items, QStringLiteral("export"), error) || !ensureDir(outDir, error))
        return false;
    std::set<QString> fields;
    for (const DatasetItem &item : items)
        for (const FieldValue &f : item.annotations.fields)
            if (f.state != ReviewState::Rejected && (f.state == ReviewState::Accepted || options.includeSuggestions))
                fields.insert(f.field);
    const int n = int(items.size());
    std::set<QString> fileNames;
    for (const QString &field : fields) {
        QString fieldPart = fileNamePart(field);
        QString fileName = QStringLiteral("%1-%2-%3.txt").arg(fileNamePart(options.vertical), fileNamePart(options.site), fieldPart);
        // NAME_MAX is 255 bytes, and the atomic write's temporary file adds a suffix: a field that
        // would make the name longer than 200 bytes keeps its start and a hash.
        if (fileName.toUtf8().size() > 200) {
            const QByteArray hash = QCryptographicHash::hash(field.toUtf8(), QCryptographicHash::Sha1).toHex().left(8);
            fieldPart = fieldPart.left(48) + QLatin1Char('-') + QString::fromLatin1(hash);
            fileName = QStringLiteral("%1-%2-%3.txt").arg(fileNamePart(options.vertical), fileNamePart(options.site), fieldPart);
        }
        if (!fileNames.insert(fileName).second) {
            *error = QStringLiteral("%1: two fields give the file name %2").arg(outDir, fileName);
            return false;
        }
        QString body;
        int withValue = 0;
        for (int p = 0; p < n; ++p) {
            QStringList values;
            const DatasetItem &item = items[size_t(p)];
            for (const FieldValue &f : item.annotations.fields)
                if (f.field == field && f.state != ReviewState::Rejected &&
                    (f.state == ReviewState::Accepted || options.includeSuggestions))
                    if (const QString t = clean(fieldText(item.document, f)); !t.trimmed().isEmpty())
                        values << t; // an empty answer is "no value on this page": count 0
            withValue += values.isEmpty() ? 0 : 1;
            body += QStringLiteral("%1\t%2\t%3\n")
                        .arg(p, 4, 10, QLatin1Char('0'))
                        .arg(values.size())
                        .arg(values.isEmpty() ? QStringLiteral("<NULL>") : values.join(QLatin1Char('\t')));
        }
        const QString head = QStringLiteral("%1\t%2\t%3\n%4\t%4\t%4\t%5\n")
                                 .arg(options.vertical, options.site, clean(field))
                                 .arg(n)
                                 .arg(withValue);
        const QString path = QDir(outDir).filePath(fileName);
        if (!writeExportFile(path, (head + body).toUtf8(), written, error))
            return false;
    }
    return true;
}

bool SwdeFormat::importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const
{
    QByteArray bytes;
    if (!readWholeFile(path, &bytes, error, DatasetLimits::maxTextFileBytes))
        return false;
    if (bytes.startsWith("\xEF\xBB\xBF"))
        bytes.remove(0, 3);
    QStringList lines = QString::fromUtf8(bytes).split(QLatin1Char('\n'));
    for (QString &l : lines)
        if (l.endsWith(QLatin1Char('\r')))
            l.chop(1);
    while (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    auto fail = [&](int line, const QString &what) {
        *error = QStringLiteral("%1:%2: %3").arg(path).arg(line).arg(what);
        return false;
    };
    if (lines.size() < 2)
        return fail(1, QStringLiteral("expected a header \"vertical<TAB>site<TAB>field\" and a count line"));
    const QStringList head = lines[0].split(QLatin1Char('\t'));
    if (head.size() != 3)
        return fail(1, QStringLiteral("expected \"vertical<TAB>site<TAB>field\", found %1 column(s)").arg(head.size()));
    const QString field = head[2];
    std::vector<DatasetItem> out;
    for (int ln = 2; ln < lines.size(); ++ln) {
        const QStringList cols = lines[ln].split(QLatin1Char('\t'));
        bool ok = false;
        const int count = cols.value(1).toInt(&ok);
        if (cols.size() < 2 || !ok || count < 0)
            return fail(ln + 1, QStringLiteral("expected \"page id<TAB>value count<TAB>values...\""));
        const bool null = count == 0 && cols.size() == 3 && cols[2] == QLatin1String("<NULL>");
        if (!null && cols.size() != count + 2)
            return fail(ln + 1, QStringLiteral("value count %1 but %2 value(s)").arg(count).arg(cols.size() - 2));
        DatasetItem item;
        item.name = cols[0];
        item.document.sourcePath = cols[0];
        item.document.kind = SourceKind::Html;
        for (int k = 0; k < count; ++k) {
            FieldValue f;
            f.field = field;
            f.text = cols[k + 2];
            item.annotations.fields.push_back(f);
        }
        out.push_back(std::move(item));
    }
    if (!checkDatasetItems(out, path, error))
        return false;
    *items = std::move(out);
    return true;
}

} // namespace folio
