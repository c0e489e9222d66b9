#include "document/formats/xfund.h"

#include "document/formats/datasetlimits.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <algorithm>
#include <climits>
#include <vector>

namespace folio {

namespace {

constexpr qint64 kMaxFileBytes = qint64(256) << 20;
constexpr int kMaxProblemsKept = 50;
// Words of all documents of one file together (one document: DatasetLimits::maxWords). The
// shipped splits hold 20-60 thousand; a file of more is refused before any document is built.
constexpr qint64 kMaxFileWords = 2 * qint64(DatasetLimits::maxWords);
constexpr int kMaxJsonDepth = 64; // XFUND nests 5 levels (documents > entity > words > box)
// One document's JSON, parsed on its own (a shipped form is ~100 KB; 1 M words fit in ~60 MB):
// bytes that are not words (a box of 50 M numbers) cannot make one parse take gigabytes.
constexpr qint64 kMaxDocumentBytes = qint64(128) << 20;

// One element of the top level's "documents" array, as found by scanXfund: where its JSON is in
// the file and what it holds (counted without building anything).
struct DocumentSpan
{
    qint64 begin = 0, end = 0;
    qint64 words = 0;    // objects in "words" arrays
    qint64 entities = 0; // objects in its "document" array
};

struct XfundScan
{
    QString lang, split;
    bool hasDocuments = false;
    std::vector<DocumentSpan> documents;
    qint64 words = 0;
};

enum class Key { Other, Documents, Document, Words, Lang, Split };

Key classify(const char *s, qint64 n)
{
    const QByteArrayView v(s, n);
    if (v == "documents")
        return Key::Documents;
    if (v == "document")
        return Key::Document;
    if (v == "words")
        return Key::Words;
    if (v == "lang")
        return Key::Lang;
    if (v == "split")
        return Key::Split;
    return Key::Other;
}

// One pass over the file's bytes with a stack of open containers (no recursion, no tree): the
// spans of the "documents" elements with their word and entity counts, "lang" and "split". The
// documents themselves are parsed one at a time afterwards, only when their counts are within
// the limits: a 105 MB document of 3 M words took all the memory before the 1 M-word limit, a
// 208 MB file was expanded ~15x as one JSON tree. False + *why when the bytes are not JSON of
// this shape (an unterminated string, brackets that do not match, nesting deeper than 64).
bool scanXfund(const QByteArray &bytes, XfundScan *out, QString *why)
{
    struct Level
    {
        char type;
        Key key; // the key the container is the value of (objects' members), Other in arrays
    };
    std::vector<Level> stack;
    const char *d = bytes.constData();
    const qint64 n = bytes.size();
    Key lastKey = Key::Other;
    int docsLevel = -1; // stack index of the "documents" array
    auto skipSpace = [&](qint64 i) {
        while (i < n && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r'))
            ++i;
        return i;
    };
    const qint64 start = bytes.startsWith("\xEF\xBB\xBF") ? 3 : 0; // a UTF-8 BOM, as Qt's parser allows
    for (qint64 i = skipSpace(start); i < n; i = skipSpace(i + 1)) {
        const char c = d[i];
        if (c == '"') {
            qint64 j = i + 1;
            while (j < n && d[j] != '"')
                j += d[j] == '\\' ? 2 : 1;
            if (j >= n) {
                *why = QStringLiteral("invalid JSON: a string starting at byte %1 never ends").arg(i);
                return false;
            }
            const bool inObject = !stack.empty() && stack.back().type == '{';
            const qint64 next = skipSpace(j + 1);
            if (inObject && next < n && d[next] == ':') {
                lastKey = classify(d + i + 1, j - i - 1);
                i = next;
            } else if (stack.size() == 1 && inObject && (lastKey == Key::Lang || lastKey == Key::Split)) {
                const QJsonDocument v = QJsonDocument::fromJson("[" + bytes.mid(i, qMin<qint64>(j + 1 - i, 4096)) + "]");
                (lastKey == Key::Lang ? out->lang : out->split) = v.array().at(0).toString();
                i = j;
            } else {
                i = j;
            }
            continue;
        }
        if (c == '{' || c == '[') {
            if (stack.size() >= size_t(kMaxJsonDepth)) {
                *why = QStringLiteral("nested deeper than %1 levels at byte %2").arg(kMaxJsonDepth).arg(i);
                return false;
            }
            const bool parentIsObject = !stack.empty() && stack.back().type == '{';
            const Key key = parentIsObject ? lastKey : Key::Other;
            const int depth = int(stack.size());
            if (c == '{' && !stack.empty() && stack.back().type == '[') {
                const Key arrayKey = stack.back().key;
                if (depth == docsLevel + 1) {
                    out->documents.push_back(DocumentSpan{i, i, 0, 0});
                } else if (docsLevel >= 0 && depth > docsLevel + 1 && !out->documents.empty()) {
                    DocumentSpan &doc = out->documents.back();
                    if (arrayKey == Key::Words) {
                        ++doc.words;
                        ++out->words;
                    } else if (arrayKey == Key::Document && depth == docsLevel + 3) {
                        ++doc.entities;
                    }
                }
            }
            if (c == '[' && depth == 1 && key == Key::Documents && docsLevel < 0 && stack.back().type == '{') {
                docsLevel = depth;
                out->hasDocuments = true;
            }
            stack.push_back(Level{c, key});
            lastKey = Key::Other;
            continue;
        }
        if (c == '}' || c == ']') {
            if (stack.empty() || stack.back().type != (c == '}' ? '{' : '[')) {
                *why = QStringLiteral("invalid JSON: '%1' at byte %2 closes nothing open").arg(QLatin1Char(c)).arg(i);
                return false;
            }
            stack.pop_back();
            if (c == '}' && int(stack.size()) == docsLevel + 1 && docsLevel >= 0 && !out->documents.empty())
                out->documents.back().end = i + 1;
            if (int(stack.size()) == docsLevel)
                docsLevel = -2; // the documents array is closed: later ones are not read
            if (stack.empty() && skipSpace(i + 1) < n) {
                *why = QStringLiteral("invalid JSON: data after the top-level value at byte %1").arg(skipSpace(i + 1));
                return false;
            }
            continue;
        }
        if (stack.empty()) {
            *why = QStringLiteral("invalid JSON: the file is not a JSON object");
            return false;
        }
    }
    if (!stack.empty()) {
        *why = QStringLiteral("invalid JSON: the file ends inside %1 open object(s) or array(s)").arg(stack.size());
        return false;
    }
    return true;
}

void note(XfundReport *r, const QString &docId, const QString &what)
{
    if (r->problems.size() < kMaxProblemsKept)
        r->problems << docId + QStringLiteral(": ") + what;
}

// Clips a [x0, y0, x1, y1] array to the page; false when it is not four numbers (left for the
// FUNSD reader to name). *clipped is set when a coordinate moved.
bool clipBox(QJsonValueRef value, double width, double height, bool *clipped)
{
    QJsonArray a = value.toArray();
    if (a.size() != 4)
        return false;
    const double limits[4] = {width, height, width, height};
    for (int i = 0; i < 4; ++i) {
        if (!a[i].isDouble())
            return false;
        const double v = a[i].toDouble();
        const double c = std::clamp(v, 0.0, limits[i]);
        if (c != v) {
            a[i] = c;
            *clipped = true;
        }
    }
    value = a;
    return true;
}

} // namespace

QString XfundReport::summary() const
{
    return QStringLiteral("%1 of %2 documents imported (%3 skipped); %4 entities with unknown labels dropped, "
                          "%5 links to missing entities dropped, %6 boxes clipped to the page")
        .arg(imported).arg(documents).arg(skippedDocuments).arg(droppedEntities).arg(droppedLinks).arg(clippedBoxes);
}

const QStringList &xfundLabels()
{
    static const QStringList labels{QStringLiteral("header"), QStringLiteral("question"), QStringLiteral("answer"),
                                    QStringLiteral("other")};
    return labels;
}

bool isXfundFile(const QString &path)
{
    if (!path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) || !QFileInfo(path).isFile())
        return false;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray head = f.read(4096);
    return head.contains("\"documents\"") && head.trimmed().startsWith('{');
}

bool importXfundFile(const QString &path, FunsdWordOrder order, std::vector<XfundPage> *pages, XfundReport *report,
                     QString *error)
{
    auto fail = [&](const QString &m) {
        if (error)
            *error = path + QStringLiteral(": ") + m;
        return false;
    };
    XfundReport r;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot open: ") + f.errorString());
    if (f.size() > kMaxFileBytes)
        return fail(QStringLiteral("%1 bytes: larger than the %2 MiB an XFUND file may have").arg(f.size()).arg(kMaxFileBytes >> 20));
    const QByteArray bytes = f.readAll();
    f.close();
    XfundScan scan;
    QString why;
    if (!scanXfund(bytes, &scan, &why))
        return fail(why);
    if (!scan.hasDocuments)
        return fail(QStringLiteral("not an XFUND file: no \"documents\" array"));
    if (scan.words > kMaxFileWords)
        return fail(QStringLiteral("%1 words in %2 documents: more than the %3 an XFUND file may hold (split it)")
                        .arg(scan.words).arg(scan.documents.size()).arg(kMaxFileWords));
    r.language = scan.lang;
    r.split = scan.split;
    r.documents = int(qMin<size_t>(scan.documents.size(), size_t(INT_MAX)));
    std::vector<XfundPage> out;
    for (int di = 0; di < r.documents; ++di) {
        const DocumentSpan &span = scan.documents[size_t(di)];
        const QString where = QStringLiteral("documents[%1]").arg(di);
        if (span.words > DatasetLimits::maxWords || span.entities > DatasetLimits::maxEntities) {
            ++r.skippedDocuments;
            note(&r, where, QStringLiteral("%1 words and %2 entities: more than the %3 words / %4 entities a document may have")
                                .arg(span.words).arg(span.entities).arg(DatasetLimits::maxWords).arg(DatasetLimits::maxEntities));
            continue;
        }
        if (span.end - span.begin > kMaxDocumentBytes) {
            ++r.skippedDocuments;
            note(&r, where, QStringLiteral("%1 bytes of JSON: more than the %2 MiB a document may have")
                                .arg(span.end - span.begin).arg(kMaxDocumentBytes >> 20));
            continue;
        }
        QJsonParseError pe;
        const QJsonDocument one = QJsonDocument::fromJson(QByteArray::fromRawData(bytes.constData() + span.begin, span.end - span.begin), &pe);
        if (!one.isObject()) {
            ++r.skippedDocuments;
            note(&r, where, QStringLiteral("invalid JSON: ") + pe.errorString());
            continue;
        }
        const QJsonObject d = one.object();
        const QString id = d.value(QStringLiteral("id")).isString() ? d.value(QStringLiteral("id")).toString() : where;
        const QJsonObject img = d.value(QStringLiteral("img")).toObject();
        const double width = img.value(QStringLiteral("width")).toDouble(), height = img.value(QStringLiteral("height")).toDouble();
        if (!(width >= 1 && height >= 1 && width <= DatasetLimits::maxCoordinate && height <= DatasetLimits::maxCoordinate)) {
            ++r.skippedDocuments;
            note(&r, id, QStringLiteral("no usable page size in \"img\" (width and height 1..%1)").arg(DatasetLimits::maxCoordinate, 0, 'f', 0));
            continue;
        }
        // Entities with a known label; their ids, for the links.
        QJsonArray form;
        QSet<qint64> ids;
        for (const QJsonValue &ev : d.value(QStringLiteral("document")).toArray()) {
            QJsonObject e = ev.toObject();
            const QString label = e.value(QStringLiteral("label")).toString().toLower();
            if (!xfundLabels().contains(label)) {
                ++r.droppedEntities;
                note(&r, id, QStringLiteral("entity %1: label \"%2\" is not one of %3, dropped")
                                 .arg(e.value(QStringLiteral("id")).toInteger())
                                 .arg(e.value(QStringLiteral("label")).toString(), xfundLabels().join(QLatin1String(", "))));
                continue;
            }
            bool clipped = false;
            QJsonValueRef box = e[QStringLiteral("box")];
            clipBox(box, width, height, &clipped);
            QJsonArray words = e.value(QStringLiteral("words")).toArray();
            for (int wi = 0; wi < words.size(); ++wi) {
                QJsonObject w = words[wi].toObject();
                QJsonValueRef wb = w[QStringLiteral("box")];
                clipBox(wb, width, height, &clipped);
                words[wi] = w;
            }
            e[QStringLiteral("words")] = words;
            if (clipped) {
                ++r.clippedBoxes;
                note(&r, id, QStringLiteral("entity %1: box outside the %2 x %3 page, clipped")
                                 .arg(e.value(QStringLiteral("id")).toInteger()).arg(width).arg(height));
            }
            ids.insert(e.value(QStringLiteral("id")).toInteger(-1));
            form.append(e);
        }
        for (int ei = 0; ei < form.size(); ++ei) {
            QJsonObject e = form[ei].toObject();
            QJsonArray kept;
            for (const QJsonValue &lv : e.value(QStringLiteral("linking")).toArray()) {
                const QJsonArray pair = lv.toArray();
                if (pair.size() == 2 && pair[0].isDouble() && pair[1].isDouble()
                    && (!ids.contains(pair[0].toInteger()) || !ids.contains(pair[1].toInteger()))) {
                    ++r.droppedLinks;
                    note(&r, id, QStringLiteral("link %1 -> %2 names a missing entity, dropped")
                                     .arg(pair[0].toInteger()).arg(pair[1].toInteger()));
                    continue;
                }
                kept.append(lv);
            }
            e[QStringLiteral("linking")] = kept;
            form[ei] = e;
        }
        XfundPage page;
        QString err;
        const QByteArray json = QJsonDocument(QJsonObject{{QStringLiteral("form"), form}}).toJson(QJsonDocument::Compact);
        if (!funsdFromJson(json, QSize(int(width), int(height)), order, &page.document, &page.annotations, &err)) {
            ++r.skippedDocuments;
            note(&r, id, err);
            continue;
        }
        page.document.title = id;
        page.document.sourcePath = path;
        out.push_back(std::move(page));
        ++r.imported;
    }
    if (out.empty() && r.documents > 0)
        return fail(QStringLiteral("no document could be read (%1)").arg(r.problems.isEmpty() ? QString() : r.problems.front()));
    *pages = std::move(out);
    if (report)
        *report = std::move(r);
    return true;
}

} // namespace folio
