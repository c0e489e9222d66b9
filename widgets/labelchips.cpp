#include "widgets/labelchips.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace folio {

namespace {

// A coarse grid over the obstacles and placed chips, so each test looks at nearby rects only.
class RectIndex
{
public:
    explicit RectIndex(double cell) : m_cell(cell) {}

    void add(const QRectF &r)
    {
        const int id = int(m_rects.size());
        m_rects.push_back(r);
        forCells(r, [&](qint64 key) { m_cells[key].push_back(id); });
    }

    // True when `r` overlaps (by more than a hair) a rect other than `except`.
    bool hits(const QRectF &r, const QRectF &except = QRectF()) const
    {
        bool hit = false;
        const QRectF shrunk = r.adjusted(0.5, 0.5, -0.5, -0.5);
        forCells(r, [&](qint64 key) {
            if (hit)
                return;
            const auto it = m_cells.find(key);
            if (it == m_cells.end())
                return;
            for (int id : it->second) {
                const QRectF &o = m_rects[size_t(id)];
                if (o != except && o.intersects(shrunk)) {
                    hit = true;
                    return;
                }
            }
        });
        return hit;
    }

private:
    template<typename F>
    void forCells(const QRectF &r, F f) const
    {
        const qint64 x0 = qint64(std::floor(r.left() / m_cell)), x1 = qint64(std::floor(r.right() / m_cell));
        const qint64 y0 = qint64(std::floor(r.top() / m_cell)), y1 = qint64(std::floor(r.bottom() / m_cell));
        for (qint64 y = y0; y <= y1; ++y)
            for (qint64 x = x0; x <= x1; ++x)
                f((y << 32) ^ (x & 0xffffffff));
    }

    double m_cell;
    std::vector<QRectF> m_rects;
    std::unordered_map<qint64, std::vector<int>> m_cells;
};

} // namespace

std::vector<LabelChip> placeLabelChips(const std::vector<LabelChipRequest> &requests, const QFontMetricsF &metrics,
                                       const std::vector<QRectF> &obstacles, const QRectF &bounds, bool fullChips)
{
    std::vector<LabelChip> out;
    out.reserve(requests.size());
    const double h = std::ceil(metrics.height());
    RectIndex taken(std::max(32.0, h * 3));
    for (const QRectF &o : obstacles)
        taken.add(o);
    for (const LabelChipRequest &req : requests) {
        LabelChip chip{req.word, req.text, req.color, QRectF(), true};
        const QRectF b = req.box;
        if (fullChips && !req.text.isEmpty()) {
            const double w = std::ceil(metrics.horizontalAdvance(req.text)) + 6;
            const QRectF candidates[] = {
                QRectF(b.left(), b.top() - h - 1, w, h),       // above, left-aligned
                QRectF(b.right() - w, b.top() - h - 1, w, h),  // above, right-aligned
                QRectF(b.left(), b.bottom() + 1, w, h),        // below
                QRectF(b.right() - w, b.bottom() + 1, w, h),   // below, right-aligned
                QRectF(b.right() + 2, b.center().y() - h / 2, w, h), // right
                QRectF(b.left() - w - 2, b.center().y() - h / 2, w, h), // left
            };
            for (const QRectF &c : candidates) {
                if (!bounds.isEmpty() && !bounds.contains(c))
                    continue;
                if (taken.hits(c, b))
                    continue;
                chip.rect = c;
                chip.collapsed = false;
                break;
            }
        }
        if (chip.collapsed)
            chip.rect = QRectF(b.left(), b.top(), std::max(b.width(), 6.0), kLabelBarHeight); // along the box's top edge
        else
            taken.add(chip.rect);
        out.push_back(chip);
    }
    return out;
}

} // namespace folio
