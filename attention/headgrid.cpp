#include "attention/headgrid.h"

#include "attention/heatmaprender.h"

#include <QFileInfo>
#include <QFont>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>
#include <limits>

namespace folio {

namespace {

struct Thumb
{
    QString label;
    const float *data = nullptr; // [heads, L, L] block of one layer or bias term
    int head = 0;
};

QPointF centre(const QRectF &r) { return r.center(); }

void paintThumb(QPainter &p, const QRectF &cell, const Thumb &t, int length, int firstToken, int selected,
                const std::vector<QRectF> &tokenBoxes, const HeatmapScale &scale)
{
    const float *m = t.data + std::size_t(t.head) * std::size_t(length) * std::size_t(length);
    p.setPen(Qt::NoPen);
    p.fillRect(cell, Qt::white);
    if (selected < 0) {
        QImage img(length, length, QImage::Format_ARGB32);
        for (int q = 0; q < length; ++q)
            for (int k = 0; k < length; ++k)
                img.setPixelColor(k, q, scale.color(m[std::size_t(q) * std::size_t(length) + std::size_t(k)]));
        p.drawImage(cell, img);
    } else {
        const float *row = m + std::size_t(selected - firstToken) * std::size_t(length);
        const double sx = cell.width() / 1000.0, sy = cell.height() / 1000.0;
        for (int k = 0; k < length; ++k) {
            const int g = firstToken + k;
            if (g < 0 || g >= int(tokenBoxes.size()) || tokenBoxes[std::size_t(g)].isNull())
                continue;
            const QRectF b = tokenBoxes[std::size_t(g)];
            p.fillRect(QRectF(cell.left() + b.left() * sx, cell.top() + b.top() * sy, std::max(1.0, b.width() * sx),
                              std::max(1.0, b.height() * sy)),
                       scale.color(row[k]));
        }
        if (selected < int(tokenBoxes.size()) && !tokenBoxes[std::size_t(selected)].isNull()) {
            const QRectF b = tokenBoxes[std::size_t(selected)];
            p.setPen(QPen(QColor(200, 0, 0), 1.5));
            p.setBrush(Qt::NoBrush);
            p.drawRect(QRectF(cell.left() + b.left() * sx, cell.top() + b.top() * sy, b.width() * sx, b.height() * sy));
        }
    }
    p.setPen(QColor(120, 120, 120));
    p.setBrush(Qt::NoBrush);
    p.drawRect(cell);
}

HeatmapScale scaleOf(const float *data, std::size_t count, bool signedTerm)
{
    HeatmapScale s;
    float lo = 0, hi = 0;
    for (std::size_t i = 0; i < count; ++i)
        if (std::isfinite(data[i]) && data[i] > -1e8f) { // the key mask's -1e9 is no value
            lo = std::min(lo, data[i]);
            hi = std::max(hi, data[i]);
        }
    if (signedTerm) {
        const float a = std::max(std::abs(lo), std::abs(hi));
        s.lo = -std::max(a, 1e-6f);
        s.hi = std::max(a, 1e-6f);
        s.diverging = true;
    } else {
        s.lo = 0;
        s.hi = std::max(hi, 1e-6f);
    }
    return s;
}

} // namespace

std::vector<HeadStatistics> headStatistics(const AttentionTrace &trace, int window, const std::vector<QRectF> &tokenBoxes)
{
    std::vector<HeadStatistics> out;
    if (window < 0 || window >= int(trace.windows.size()))
        return out;
    const AttentionWindow &w = trace.windows[std::size_t(window)];
    const int L = w.length;
    const auto hasBox = [&](int local) {
        const int g = w.firstToken + local;
        return g < int(tokenBoxes.size()) && !tokenBoxes[std::size_t(g)].isNull();
    };
    const auto hasWord = [&](int local) {
        const int g = w.firstToken + local;
        return g < int(trace.tokenWord.size()) ? trace.tokenWord[std::size_t(g)] >= 0 : true;
    };
    for (int l = 0; l < trace.layerCount; ++l) {
        const float *data = trace.layerData(window, l);
        for (int h = 0; h < trace.headCount; ++h) {
            HeadStatistics s;
            s.layer = l;
            s.head = h;
            double dist = 0, ent = 0;
            int queries = 0, boxed = 0;
            for (int q = 0; q < L; ++q) {
                if (!hasWord(q))
                    continue;
                const float *row = data + (std::size_t(h) * std::size_t(L) + std::size_t(q)) * std::size_t(L);
                double e = 0, d = 0;
                for (int k = 0; k < L; ++k) {
                    const double pk = row[k];
                    if (pk > 0)
                        e -= pk * std::log(pk);
                    if (hasBox(q) && hasBox(k)) {
                        const QPointF dc = centre(tokenBoxes[std::size_t(w.firstToken + q)]) - centre(tokenBoxes[std::size_t(w.firstToken + k)]);
                        d += pk * std::hypot(dc.x(), dc.y());
                    }
                }
                ent += e;
                ++queries;
                if (hasBox(q)) {
                    dist += d;
                    ++boxed;
                }
            }
            s.entropy = queries ? ent / queries : 0;
            s.meanDistance = boxed ? dist / boxed : std::numeric_limits<double>::quiet_NaN();
            out.push_back(s);
        }
    }
    return out;
}

bool saveHeadGrid(const AttentionTrace &trace, const std::vector<QRectF> &tokenBoxes, const HeadGridOptions &o,
                  const QString &path, QString *error)
{
    const auto fail = [&](const QString &m) {
        if (error)
            *error = m;
        return false;
    };
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        return fail(path + QStringLiteral(": a head grid is written as .png or .svg"));
    if (o.window < 0 || o.window >= int(trace.windows.size()))
        return fail(QStringLiteral("window %1: the trace has %2").arg(o.window).arg(trace.windows.size()));
    const AttentionWindow &w = trace.windows[std::size_t(o.window)];
    if (o.selectedToken >= 0 && (o.selectedToken < w.firstToken || o.selectedToken >= w.firstToken + w.length))
        return fail(QStringLiteral("token %1 is not in window %2 (tokens %3..%4)")
                        .arg(o.selectedToken).arg(o.window).arg(w.firstToken).arg(w.firstToken + w.length - 1));
    if (o.size.width() < 100 || o.size.height() < 100 || o.size.width() > 20000 || o.size.height() > 20000)
        return fail(QStringLiteral("grid size %1x%2: between 100 and 20000").arg(o.size.width()).arg(o.size.height()));

    // Rows: the layers, then each bias term; head order per row from the statistics.
    std::vector<std::vector<Thumb>> rows;
    std::vector<QString> rowNames;
    std::vector<bool> rowSigned;
    const std::vector<HeadStatistics> stats = headStatistics(trace, o.window, tokenBoxes);
    for (int l = 0; l < trace.layerCount; ++l) {
        std::vector<int> order(std::size_t(trace.headCount));
        for (int h = 0; h < trace.headCount; ++h)
            order[std::size_t(h)] = h;
        if (o.sort != HeadSort::None) {
            const auto key = [&](int h) {
                const HeadStatistics &s = stats[std::size_t(l * trace.headCount + h)];
                const double v = o.sort == HeadSort::Distance ? s.meanDistance : s.entropy;
                return std::isnan(v) ? std::numeric_limits<double>::infinity() : v;
            };
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
        }
        std::vector<Thumb> row;
        for (int h : order)
            row.push_back(Thumb{QStringLiteral("h%1").arg(h), trace.layerData(o.window, l), h});
        rows.push_back(row);
        rowNames.push_back(QStringLiteral("layer %1").arg(l));
        rowSigned.push_back(false);
    }
    if (o.biasRows)
        for (const auto &[name, values] : w.biasTerms) {
            if (values.size() != std::size_t(trace.headCount) * std::size_t(w.length) * std::size_t(w.length))
                continue;
            std::vector<Thumb> row;
            for (int h = 0; h < trace.headCount; ++h)
                row.push_back(Thumb{QStringLiteral("h%1").arg(h), values.data(), h});
            rows.push_back(row);
            rowNames.push_back(name);
            rowSigned.push_back(true);
        }

    const auto paint = [&](QPainter &p) {
        const QRectF all(QPointF(0, 0), QSizeF(o.size));
        p.fillRect(all, Qt::white);
        QFont f = p.font();
        f.setPixelSize(12);
        p.setFont(f);
        const double top = 28, left = 90, labelH = 14;
        p.setPen(Qt::black);
        p.drawText(QRectF(8, 4, all.width() - 16, 20), Qt::AlignLeft | Qt::AlignVCenter, o.title);
        const int cols = std::max(1, trace.headCount), nrows = std::max(1, int(rows.size()));
        const double cw = (all.width() - left - 8) / cols, ch = (all.height() - top - 8) / nrows;
        const double side = std::max(4.0, std::min(cw, ch - labelH) - 6);
        for (int r = 0; r < int(rows.size()); ++r) {
            p.setPen(Qt::black);
            p.drawText(QRectF(4, top + r * ch, left - 8, ch), Qt::AlignRight | Qt::AlignVCenter, rowNames[std::size_t(r)]);
            // One scale per row: heads of a layer compare, layers need not.
            const float *block = rows[std::size_t(r)].front().data;
            const HeatmapScale scale = scaleOf(block, std::size_t(trace.headCount) * std::size_t(w.length) * std::size_t(w.length),
                                               rowSigned[std::size_t(r)]);
            for (int c = 0; c < int(rows[std::size_t(r)].size()); ++c) {
                const Thumb &t = rows[std::size_t(r)][std::size_t(c)];
                const QRectF cell(left + c * cw + 3, top + r * ch + labelH, side, side);
                p.setPen(QColor(60, 60, 60));
                p.drawText(QRectF(cell.left(), top + r * ch, side, labelH), Qt::AlignLeft | Qt::AlignVCenter, t.label);
                paintThumb(p, cell, t, w.length, w.firstToken, o.selectedToken, tokenBoxes, scale);
            }
        }
    };
    if (suffix == QLatin1String("png")) {
        QImage img(o.size, QImage::Format_ARGB32);
        {
            QPainter p(&img);
            paint(p);
        }
        if (!img.save(path, "PNG"))
            return fail(path + QStringLiteral(": cannot write the PNG file"));
        return true;
    }
    QSvgGenerator gen;
    gen.setFileName(path);
    gen.setSize(o.size);
    gen.setViewBox(QRect(QPoint(0, 0), o.size));
    gen.setTitle(o.title);
    {
        QPainter p;
        if (!p.begin(&gen))
            return fail(path + QStringLiteral(": cannot write the SVG file"));
        paint(p);
    }
    if (!QFileInfo(path).exists() || QFileInfo(path).size() == 0)
        return fail(path + QStringLiteral(": the SVG file was not written"));
    return true;
}

} // namespace folio
