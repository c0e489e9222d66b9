#include "attention/headgrid.h"

#include "attention/heatmaprender.h"
#include "document/document.h"

#include <QFileInfo>
#include <QFont>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
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
    p.fillRect(cell, scale.dark ? scale.color(scale.lo) : QColor(Qt::white)); // a dark palette's grid: dark cells (issue 50)
    if (selected < 0) {
        // The scale's colours through a 256-entry table (as heatmapCells does): a 512-token matrix
        // is 262k cells per thumbnail, and a grid has hundreds of thumbnails.
        std::array<QRgb, 256> lut;
        for (int i = 0; i < 256; ++i)
            lut[std::size_t(i)] = scale.color(scale.lo + (scale.hi - scale.lo) * float(i) / 255.0f).rgb();
        const QRgb grey = scale.color(std::nanf("")).rgb();
        const float range = scale.hi - scale.lo, k255 = range > 0 ? 255.0f / range : 0.0f;
        QImage img(length, length, QImage::Format_RGB32);
        for (int q = 0; q < length; ++q) {
            QRgb *line = reinterpret_cast<QRgb *>(img.scanLine(q));
            const float *src = m + std::size_t(q) * std::size_t(length);
            for (int k = 0; k < length; ++k) {
                const float v = src[k];
                line[k] = std::isnan(v) ? grey : lut[std::size_t(std::clamp(int(std::lround((v - scale.lo) * k255)), 0, 255))];
            }
        }
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

// ln x for a positive float, inline: exponent * ln 2 + ln m (m in [1, 2)) by the atanh series,
// |error| < 2e-7. Why not std::log: in Folio's processes each call into libm from this loop cost
// ~150 ns (perf: 91 % of the loop on the instruction after the call; the same loop in a bare
// program: ~15 ns; an SSE / AVX transition penalty is the likely cause) — 12 s instead of 0.2 s
// for a 12 x 12 x 514² trace.
double lnOfPositive(float x)
{
    std::uint32_t bits = 0;
    std::memcpy(&bits, &x, sizeof bits);
    const int exponent = int((bits >> 23) & 0xffu);
    if (exponent == 0) // denormal: p ln p is below 1e-36
        return -87.0;
    bits = (bits & 0x007fffffu) | 0x3f800000u;
    float mf = 0;
    std::memcpy(&mf, &bits, sizeof mf);
    const double m = mf, t = (m - 1.0) / (m + 1.0), t2 = t * t;
    const double series = t * (2.0 + t2 * (2.0 / 3 + t2 * (2.0 / 5 + t2 * (2.0 / 7 + t2 * (2.0 / 9 + t2 * (2.0 / 11 + t2 * (2.0 / 13)))))));
    return (exponent - 127) * 0.69314718055994530942 + series;
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
    // Per window, once: which local tokens count as queries, and the pairwise centre distances
    // (0 where either token has no box: such pairs add nothing) — the same for every head.
    std::vector<char> isQuery(static_cast<std::size_t>(L), 0), boxed(static_cast<std::size_t>(L), 0);
    for (int q = 0; q < L; ++q) {
        isQuery[std::size_t(q)] = hasWord(q) ? 1 : 0;
        boxed[std::size_t(q)] = hasBox(q) ? 1 : 0;
    }
    std::vector<double> dist2d(std::size_t(L) * std::size_t(L), 0.0);
    for (int q = 0; q < L; ++q)
        if (boxed[std::size_t(q)])
            for (int k = 0; k < L; ++k)
                if (boxed[std::size_t(k)]) {
                    const QPointF dc = centre(tokenBoxes[std::size_t(w.firstToken + q)]) - centre(tokenBoxes[std::size_t(w.firstToken + k)]);
                    dist2d[std::size_t(q) * std::size_t(L) + std::size_t(k)] = std::hypot(dc.x(), dc.y());
                }
    for (int l = 0; l < trace.layerCount; ++l) {
        const float *data = trace.layerData(window, l);
        for (int h = 0; h < trace.headCount; ++h) {
            HeadStatistics s;
            s.layer = l;
            s.head = h;
            s.meanTreeDistance = std::numeric_limits<double>::quiet_NaN();
            double dist = 0, ent = 0;
            int queries = 0, boxedQueries = 0;
            for (int q = 0; q < L; ++q) {
                if (!isQuery[std::size_t(q)])
                    continue;
                const float *row = data + (std::size_t(h) * std::size_t(L) + std::size_t(q)) * std::size_t(L);
                const double *drow = dist2d.data() + std::size_t(q) * std::size_t(L);
                double e = 0, d = 0;
                for (int k = 0; k < L; ++k) {
                    const double pk = row[k];
                    if (row[k] > 0)
                        e -= pk * lnOfPositive(row[k]);
                    d += pk * drow[k];
                }
                ent += e;
                ++queries;
                if (boxed[std::size_t(q)]) {
                    dist += d;
                    ++boxedQueries;
                }
            }
            s.entropy = queries ? ent / queries : 0;
            s.meanDistance = boxedQueries ? dist / boxedQueries : std::numeric_limits<double>::quiet_NaN();
            out.push_back(s);
        }
    }
    return out;
}

std::vector<int> sortedHeadOrder(const std::vector<HeadStatistics> &stats, int layer, int headCount, HeadSort sort)
{
    std::vector<int> order(std::size_t(std::max(0, headCount)));
    for (int h = 0; h < headCount; ++h)
        order[std::size_t(h)] = h;
    if (sort == HeadSort::None || layer < 0 || std::size_t((layer + 1) * headCount) > stats.size())
        return order;
    const auto key = [&](int h) {
        const HeadStatistics &s = stats[std::size_t(layer * headCount + h)];
        const double v = sort == HeadSort::Distance ? s.meanDistance : sort == HeadSort::Entropy ? s.entropy : s.meanTreeDistance;
        return std::isnan(v) ? std::numeric_limits<double>::infinity() : v;
    };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
    return order;
}

void addTreeDistances(std::vector<HeadStatistics> *stats, const AttentionTrace &trace, int window,
                      const std::vector<int> &tokenNode, const std::vector<int> &parent)
{
    if (!stats || window < 0 || window >= int(trace.windows.size()))
        return;
    const AttentionWindow &w = trace.windows[std::size_t(window)];
    const int L = w.length;
    const int n = int(parent.size());
    const auto nodeOf = [&](int local) {
        const int g = w.firstToken + local;
        const int v = g < int(tokenNode.size()) ? tokenNode[std::size_t(g)] : -1;
        return v >= 0 && v < n ? v : -1;
    };
    // Depths (bounded walk: a cyclic parent array counts as a root).
    std::vector<int> depth(std::size_t(n), -1);
    for (int v = 0; v < n; ++v) {
        int d = 0, u = v;
        while (u >= 0 && u < n && parent[std::size_t(u)] >= 0 && d <= n) {
            u = parent[std::size_t(u)];
            ++d;
        }
        depth[std::size_t(v)] = d > n ? 0 : d;
    }
    const auto distance = [&](int a, int b) {
        int d = 0, guard = 0;
        while (a != b && guard++ < 2 * n + 2) {
            if (depth[std::size_t(a)] >= depth[std::size_t(b)]) {
                const int p = parent[std::size_t(a)];
                if (p < 0 || p >= n)
                    break;
                a = p;
            } else {
                const int p = parent[std::size_t(b)];
                if (p < 0 || p >= n)
                    break;
                b = p;
            }
            ++d;
        }
        return a == b ? double(d) : std::numeric_limits<double>::quiet_NaN();
    };
    // Pairwise distances of the window's tokens, once for every head.
    std::vector<float> pair(std::size_t(L) * std::size_t(L), std::numeric_limits<float>::quiet_NaN());
    for (int q = 0; q < L; ++q) {
        const int a = nodeOf(q);
        if (a < 0)
            continue;
        for (int k = 0; k < L; ++k) {
            const int b = nodeOf(k);
            if (b >= 0)
                pair[std::size_t(q) * std::size_t(L) + std::size_t(k)] = float(distance(a, b));
        }
    }
    for (HeadStatistics &s : *stats) {
        const float *data = trace.layerData(window, s.layer);
        if (!data)
            continue;
        double sum = 0;
        int queries = 0;
        for (int q = 0; q < L; ++q) {
            if (nodeOf(q) < 0)
                continue;
            const float *row = data + (std::size_t(s.head) * std::size_t(L) + std::size_t(q)) * std::size_t(L);
            double d = 0;
            for (int k = 0; k < L; ++k) {
                const float pd = pair[std::size_t(q) * std::size_t(L) + std::size_t(k)];
                if (!std::isnan(pd))
                    d += double(row[k]) * pd;
            }
            sum += d;
            ++queries;
        }
        s.meanTreeDistance = queries ? sum / queries : std::numeric_limits<double>::quiet_NaN();
    }
}

std::vector<HeadGridRow> headGridRows(const AttentionTrace &trace, int window, bool biasRows)
{
    std::vector<HeadGridRow> rows;
    if (window < 0 || window >= int(trace.windows.size()))
        return rows;
    const AttentionWindow &w = trace.windows[std::size_t(window)];
    for (int l = 0; l < trace.layerCount; ++l) {
        HeadGridRow r;
        r.name = QStringLiteral("layer %1").arg(l);
        r.layer = l;
        r.block = trace.layerData(window, l);
        if (r.block)
            rows.push_back(r);
    }
    if (biasRows)
        for (const auto &[name, values] : w.biasTerms) {
            if (values.size() != std::size_t(trace.headCount) * std::size_t(w.length) * std::size_t(w.length))
                continue;
            HeadGridRow r;
            r.name = name;
            r.biasTerm = name;
            r.block = values.data();
            r.signedTerm = true;
            rows.push_back(r);
        }
    return rows;
}

HeatmapScale headGridRowScale(const HeadGridRow &row, int headCount, int length)
{
    return scaleOf(row.block, std::size_t(headCount) * std::size_t(length) * std::size_t(length), row.signedTerm);
}

QImage headThumbnail(const AttentionTrace &trace, int window, const HeadGridRow &row, int head, int selectedToken,
                     const std::vector<QRectF> &tokenBoxes, const HeatmapScale &scale, int side)
{
    if (window < 0 || window >= int(trace.windows.size()) || !row.block || head < 0 || head >= trace.headCount || side < 4)
        return QImage();
    const AttentionWindow &w = trace.windows[std::size_t(window)];
    if (selectedToken >= 0 && (selectedToken < w.firstToken || selectedToken >= w.firstToken + w.length))
        selectedToken = -1;
    QImage img(side, side, QImage::Format_ARGB32_Premultiplied); // the raster engine's fast format
    img.fill(Qt::white);
    QPainter p(&img);
    paintThumb(p, QRectF(0, 0, side - 1, side - 1), Thumb{QString(), row.block, head}, w.length, w.firstToken, selectedToken,
               tokenBoxes, scale);
    return img;
}

std::vector<QRectF> headGridTokenBoxes(const AttentionTrace &trace, const Document *document)
{
    std::vector<QRectF> boxes(std::size_t(trace.tokenCount()));
    if (document)
        for (std::size_t t = 0; t < boxes.size() && t < trace.tokenWord.size(); ++t) {
            const int w = trace.tokenWord[t];
            if (w >= 0 && w < int(document->words.size())) {
                const NormBox &b = document->words[std::size_t(w)].norm;
                boxes[t] = QRectF(QPointF(b.x0, b.y0), QPointF(std::max(b.x1, b.x0 + 1), std::max(b.y1, b.y0 + 1)));
            }
        }
    return boxes;
}

bool headGridTokenOfWord(const AttentionTrace &trace, int word, int *token, int *window)
{
    const auto it = std::find(trace.tokenWord.begin(), trace.tokenWord.end(), word);
    if (word < 0 || it == trace.tokenWord.end())
        return false;
    const int t = int(it - trace.tokenWord.begin());
    if (token)
        *token = t;
    if (window) {
        *window = 0;
        for (std::size_t w = 0; w < trace.windows.size(); ++w)
            if (t >= trace.windows[w].firstToken && t < trace.windows[w].firstToken + trace.windows[w].length) {
                *window = int(w);
                break;
            }
    }
    return true;
}

qint64 attentionTraceBytes(const AttentionTrace &trace)
{
    qint64 bytes = 0;
    for (const AttentionWindow &w : trace.windows) {
        for (const std::vector<float> &l : w.layers)
            bytes += qint64(l.size()) * qint64(sizeof(float));
        for (const auto &kv : w.biasTerms)
            bytes += qint64(kv.second.size()) * qint64(sizeof(float));
    }
    return bytes;
}

AttentionTrace cropAttentionWindow(const AttentionTrace &trace, int window, int first, int count)
{
    AttentionTrace out;
    if (window < 0 || window >= int(trace.windows.size()))
        return out;
    const AttentionWindow &w = trace.windows[std::size_t(window)];
    first = std::clamp(first, 0, w.length);
    count = std::clamp(count, 0, w.length - first);
    if (count == 0)
        return out;
    out.modelType = trace.modelType;
    out.checkpoint = trace.checkpoint;
    out.documentId = trace.documentId;
    out.modelWindow = trace.modelWindow;
    out.disabledBiases = trace.disabledBiases;
    out.layerCount = trace.layerCount;
    out.headCount = trace.headCount;
    const std::size_t H = std::size_t(trace.headCount), L = std::size_t(w.length), n = std::size_t(count);
    const auto crop = [&](const std::vector<float> &block) {
        std::vector<float> c(H * n * n);
        if (block.size() != H * L * L)
            return std::vector<float>();
        for (std::size_t h = 0; h < H; ++h)
            for (std::size_t q = 0; q < n; ++q)
                std::copy_n(block.begin() + std::ptrdiff_t((h * L + std::size_t(first) + q) * L + std::size_t(first)), n,
                            c.begin() + std::ptrdiff_t((h * n + q) * n));
        return c;
    };
    AttentionWindow cw;
    cw.firstToken = 0;
    cw.length = count;
    for (const std::vector<float> &l : w.layers)
        cw.layers.push_back(crop(l));
    for (const auto &[name, values] : w.biasTerms) {
        std::vector<float> c = crop(values);
        if (!c.empty())
            cw.biasTerms[name] = std::move(c);
    }
    out.windows.push_back(std::move(cw));
    for (int t = 0; t < count; ++t) {
        const int g = w.firstToken + first + t;
        out.tokenWord.push_back(g < int(trace.tokenWord.size()) ? trace.tokenWord[std::size_t(g)] : -1);
        out.tokenText << (g < trace.tokenText.size() ? trace.tokenText.at(g) : QString());
    }
    return out;
}

bool checkHeadGridWindow(const AttentionTrace &trace, const HeadGridOptions &o, QString *error)
{
    const auto fail = [&](const QString &m) {
        if (error)
            *error = m;
        return false;
    };
    if (o.window < 0 || o.window >= int(trace.windows.size()))
        return fail(QStringLiteral("window %1: the trace has %2").arg(o.window).arg(trace.windows.size()));
    const AttentionWindow &w = trace.windows[std::size_t(o.window)];
    if (o.selectedToken >= 0 && (o.selectedToken < w.firstToken || o.selectedToken >= w.firstToken + w.length))
        return fail(QStringLiteral("token %1 is not in window %2 (tokens %3..%4)")
                        .arg(o.selectedToken).arg(o.window).arg(w.firstToken).arg(w.firstToken + w.length - 1));
    return true;
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
    if (!checkHeadGridWindow(trace, o, error))
        return false;
    const AttentionWindow &w = trace.windows[std::size_t(o.window)];
    if (o.size.width() < 100 || o.size.height() < 100 || o.size.width() > 20000 || o.size.height() > 20000)
        return fail(QStringLiteral("grid size %1x%2: between 100 and 20000").arg(o.size.width()).arg(o.size.height()));

    // Rows: the layers, then each bias term; head order per row from the statistics.
    std::vector<HeadStatistics> stats = headStatistics(trace, o.window, tokenBoxes);
    if (o.sort == HeadSort::TreeDistance)
        addTreeDistances(&stats, trace, o.window, o.tokenTreeNode, o.treeParent);
    const std::vector<HeadGridRow> gridRows = headGridRows(trace, o.window, o.biasRows);
    std::vector<std::vector<Thumb>> rows;
    std::vector<QString> rowNames;
    std::vector<bool> rowSigned;
    for (const HeadGridRow &gr : gridRows) {
        const std::vector<int> order = gr.layer >= 0 ? sortedHeadOrder(stats, gr.layer, trace.headCount, o.sort)
                                                     : sortedHeadOrder(stats, -1, trace.headCount, HeadSort::None);
        std::vector<Thumb> row;
        for (int h : order)
            row.push_back(Thumb{QStringLiteral("h%1").arg(h), gr.block, h});
        rows.push_back(row);
        rowNames.push_back(gr.name);
        rowSigned.push_back(gr.signedTerm);
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
