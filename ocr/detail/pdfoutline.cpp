// Poppler's outline API lives only here (and in pageocr.cpp for pages).
#include "ocr/detail/pdfoutline.h"

#include <poppler/qt6/poppler-qt6.h>

#include <QJsonObject>

namespace folio::ocr::detail {

namespace {

constexpr int kMaxTitle = 1000;

void walk(const QVector<Poppler::OutlineItem> &items, int level, std::vector<OutlineEntry> *out)
{
    for (const Poppler::OutlineItem &item : items) {
        if (int(out->size()) >= kMaxOutlineEntries)
            return;
        OutlineEntry e;
        e.title = item.name().left(kMaxTitle).simplified();
        e.level = level;
        const QSharedPointer<const Poppler::LinkDestination> dest = item.destination();
        if (dest && item.externalFileName().isEmpty()) {
            e.page = dest->pageNumber() - 1;
            if (dest->isChangeTop())
                e.top = std::clamp(dest->top(), 0.0, 1.0);
        }
        out->push_back(e);
        if (level < kMaxOutlineDepth && item.hasChildren())
            walk(item.children(), level + 1, out);
    }
}

} // namespace

std::vector<OutlineEntry> readPdfOutline(const QString &path)
{
    std::vector<OutlineEntry> out;
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(path);
    if (!doc || doc->isLocked())
        return out;
    walk(doc->outline(), 1, &out);
    return out;
}

QJsonArray outlineToJson(const std::vector<OutlineEntry> &outline)
{
    QJsonArray a;
    for (const OutlineEntry &e : outline)
        a.append(QJsonObject{{"title", e.title}, {"level", e.level}, {"page", e.page}, {"top", e.top}});
    return a;
}

std::vector<OutlineEntry> outlineFromJson(const QJsonArray &array)
{
    std::vector<OutlineEntry> out;
    for (const QJsonValue &v : array) {
        if (int(out.size()) >= kMaxOutlineEntries)
            break;
        const QJsonObject o = v.toObject();
        const int level = o.value(QStringLiteral("level")).toInt(0);
        if (!o.value(QStringLiteral("title")).isString() || level < 1 || level > kMaxOutlineDepth)
            continue;
        OutlineEntry e;
        e.title = o.value(QStringLiteral("title")).toString().left(kMaxTitle);
        e.level = level;
        e.page = o.value(QStringLiteral("page")).toInt(-1);
        const double top = o.value(QStringLiteral("top")).toDouble(-1);
        e.top = top >= 0 && top <= 1 ? top : -1;
        out.push_back(e);
    }
    return out;
}

} // namespace folio::ocr::detail
