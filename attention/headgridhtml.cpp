// saveHeadGridHtml (attention/headgrid.h): the head grid as one self-contained HTML page.
#include "attention/headgrid.h"

#include <QBuffer>
#include <QFileInfo>
#include <QSaveFile>

#include <algorithm>
#include <cmath>

namespace folio {

namespace {

QString number(double v, int decimals) { return std::isnan(v) ? QStringLiteral("–") : QString::number(v, 'f', decimals); }

QString pngDataUrl(const QImage &image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return QStringLiteral("data:image/png;base64,") + QString::fromLatin1(bytes.toBase64());
}

} // namespace

bool saveHeadGridHtml(const AttentionTrace &trace, const std::vector<QRectF> &tokenBoxes, const HeadGridOptions &o,
                      const QString &path, QString *error)
{
    const auto fail = [&](const QString &m) {
        if (error)
            *error = m;
        return false;
    };
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("html") && suffix != QLatin1String("htm"))
        return fail(path + QStringLiteral(": a head grid page is written as .html"));
    if (!checkHeadGridWindow(trace, o, error))
        return false;
    const AttentionWindow &w = trace.windows[std::size_t(o.window)];
    std::vector<HeadStatistics> stats = headStatistics(trace, o.window, tokenBoxes);
    if (!o.treeParent.empty())
        addTreeDistances(&stats, trace, o.window, o.tokenTreeNode, o.treeParent);
    const int side = std::clamp(std::min(o.size.width() / std::max(1, trace.headCount + 1), 160), 32, 160);

    QString html = QStringLiteral("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%1</title>\n"
                                  "<style>body{font-family:sans-serif;font-size:12px}td{vertical-align:top;text-align:center;"
                                  "padding:2px}th{text-align:right;padding-right:6px}img{border:1px solid #888}</style>"
                                  "</head><body>\n<h1>%1</h1>\n<table class=\"headgrid\">\n")
                       .arg(o.title.toHtmlEscaped());
    for (const HeadGridRow &row : headGridRows(trace, o.window, o.biasRows)) {
        const HeatmapScale scale = headGridRowScale(row, trace.headCount, w.length);
        const std::vector<int> order = sortedHeadOrder(stats, row.layer, trace.headCount, row.layer >= 0 ? o.sort : HeadSort::None);
        html += QStringLiteral("<tr><th>%1</th>").arg(row.name.toHtmlEscaped());
        for (int h : order) {
            QString caption = QStringLiteral("h%1").arg(h);
            QString tip = row.name + QStringLiteral(", head %1").arg(h);
            if (row.layer >= 0) {
                const HeadStatistics &s = stats[std::size_t(row.layer * trace.headCount + h)];
                tip += QStringLiteral(": mean 2-D distance %1, entropy %2 nats").arg(number(s.meanDistance, 1), number(s.entropy, 3));
                if (!std::isnan(s.meanTreeDistance))
                    tip += QStringLiteral(", mean tree distance %1").arg(number(s.meanTreeDistance, 2));
                caption += QStringLiteral("<br>d %1 · H %2").arg(number(s.meanDistance, 0), number(s.entropy, 2));
            }
            const QImage thumb = headThumbnail(trace, o.window, row, h, o.selectedToken, tokenBoxes, scale, side);
            html += QStringLiteral("<td><img class=\"head\" data-layer=\"%1\" data-head=\"%2\" width=\"%3\" height=\"%3\" "
                                   "title=\"%4\" alt=\"%5\" src=\"%6\"><br>%7</td>")
                        .arg(row.layer).arg(h).arg(side).arg(tip.toHtmlEscaped(), (row.name + QStringLiteral(" h%1").arg(h)).toHtmlEscaped(),
                             pngDataUrl(thumb), caption);
        }
        html += QStringLiteral("</tr>\n");
    }
    html += QStringLiteral("</table>\n<p>d: mean 2-D distance on the page (0-1000 units), H: mean entropy (nats).</p>\n"
                           "</body></html>\n");
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return fail(path + QStringLiteral(": cannot write the HTML file (%1)").arg(f.errorString()));
    f.write(html.toUtf8());
    if (!f.commit())
        return fail(path + QStringLiteral(": cannot write the HTML file (%1)").arg(f.errorString()));
    return true;
}

} // namespace folio
