#include "document/formats/xfund.h"

#include "document/formats/datasetlimits.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <algorithm>

namespace folio {

namespace {

constexpr qint64 kMaxFileBytes = qint64(256) << 20;
constexpr int kMaxProblemsKept = 50;

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
    QJsonParseError pe;
    const QJsonDocument jd = QJsonDocument::fromJson(f.readAll(), &pe);
    if (jd.isNull())
        return fail(QStringLiteral("invalid JSON: ") + pe.errorString());
    if (!jd.isObject() || !jd.object().value(QStringLiteral("documents")).isArray())
        return fail(QStringLiteral("not an XFUND file: no \"documents\" array"));
    const QJsonObject top = jd.object();
    r.language = top.value(QStringLiteral("lang")).toString();
    r.split = top.value(QStringLiteral("split")).toString();
    const QJsonArray documents = top.value(QStringLiteral("documents")).toArray();
    r.documents = int(documents.size());
    std::vector<XfundPage> out;
    for (int di = 0; di < documents.size(); ++di) {
        const QJsonObject d = documents[di].toObject();
        const QString id = d.value(QStringLiteral("id")).isString() ? d.value(QStringLiteral("id")).toString()
                                                                    : QStringLiteral("documents[%1]").arg(di);
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
