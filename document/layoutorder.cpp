// Recursive XY-cut reading order (layoutorder.h).
#include "document/layoutorder.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace folio {

namespace {

constexpr int kMaxDepth = 64;
constexpr double kMinColumnGap = 1.0; // in median word heights
constexpr double kMinRowGap = 0.1;

struct Band
{
    double position = 0; // where the gap starts (the end of the content before it)
    double width = 0;    // in median word heights
};

// Gaps between the merged [begin, end] extents of `items` along one axis, widest first.
std::vector<Band> gapsAlong(const std::vector<int> &items, const std::vector<QRectF> &boxes, bool vertical,
                            double unit)
{
    std::vector<std::pair<double, double>> spans;
    spans.reserve(items.size());
    for (int i : items) {
        const QRectF &b = boxes[std::size_t(i)];
        spans.emplace_back(vertical ? b.top() : b.left(), vertical ? b.bottom() : b.right());
    }
    std::sort(spans.begin(), spans.end());
    std::vector<Band> gaps;
    double reach = spans.empty() ? 0 : spans.front().second;
    for (std::size_t k = 1; k < spans.size(); ++k) {
        if (spans[k].first > reach)
            gaps.push_back({reach, (spans[k].first - reach) / unit});
        reach = std::max(reach, spans[k].second);
    }
    std::sort(gaps.begin(), gaps.end(), [](const Band &a, const Band &b) { return a.width > b.width; });
    return gaps;
}

double medianHeight(const std::vector<int> &items, const std::vector<QRectF> &boxes)
{
    std::vector<double> h;
    h.reserve(items.size());
    for (int i : items)
        h.push_back(boxes[std::size_t(i)].height());
    std::nth_element(h.begin(), h.begin() + std::ptrdiff_t(h.size() / 2), h.end());
    const double m = h[h.size() / 2];
    return m > 0 ? m : 1.0;
}

// Words grouped into lines by vertical overlap; lines top to bottom, words left to right.
void readAsLines(const std::vector<int> &items, const std::vector<QRectF> &boxes, std::vector<int> *out)
{
    std::vector<int> byTop(items);
    std::stable_sort(byTop.begin(), byTop.end(),
                     [&](int a, int b) { return boxes[std::size_t(a)].center().y() < boxes[std::size_t(b)].center().y(); });
    std::vector<std::vector<int>> lines;
    double lineTop = 0, lineBottom = 0;
    for (int i : byTop) {
        const QRectF &b = boxes[std::size_t(i)];
        const bool joins = !lines.empty() && b.center().y() >= lineTop && b.center().y() <= lineBottom;
        if (!joins) {
            lines.emplace_back();
            lineTop = b.top();
            lineBottom = b.bottom();
        } else {
            lineTop = std::min(lineTop, b.top());
            lineBottom = std::max(lineBottom, b.bottom());
        }
        lines.back().push_back(i);
    }
    for (std::vector<int> &line : lines) {
        std::stable_sort(line.begin(), line.end(),
                         [&](int a, int b) { return boxes[std::size_t(a)].left() < boxes[std::size_t(b)].left(); });
        out->insert(out->end(), line.begin(), line.end());
    }
}

// Splits `items` at the given cut positions along one axis (a cut sits at the end of the content
// before its gap, so a word starting after it belongs to the next part).
std::vector<std::vector<int>> splitAt(const std::vector<int> &items, const std::vector<QRectF> &boxes, std::vector<double> cuts,
                                      bool byColumns)
{
    std::sort(cuts.begin(), cuts.end());
    std::vector<std::vector<int>> parts(cuts.size() + 1);
    for (int i : items) {
        const QRectF &b = boxes[std::size_t(i)];
        const double start = byColumns ? b.left() : b.top();
        const std::size_t part = std::size_t(std::upper_bound(cuts.begin(), cuts.end(), start) - cuts.begin());
        parts[std::min(part, parts.size() - 1)].push_back(i);
    }
    parts.erase(std::remove_if(parts.begin(), parts.end(), [](const std::vector<int> &p) { return p.empty(); }), parts.end());
    return parts;
}

// The merged vertical extents (text lines) of a part, and how much of the part's width they fill.
struct PartLines
{
    std::vector<std::pair<double, double>> spans;
    double fill = 0;          // mean line width / part width
    double wordsPerLine = 0;
};

PartLines linesOf(const std::vector<int> &items, const std::vector<QRectF> &boxes)
{
    std::vector<int> byTop(items);
    std::sort(byTop.begin(), byTop.end(), [&](int a, int b) { return boxes[std::size_t(a)].top() < boxes[std::size_t(b)].top(); });
    PartLines out;
    double left = 1e300, right = -1e300;
    std::vector<std::pair<double, double>> extents; // horizontal extent per line
    for (int i : byTop) {
        const QRectF &b = boxes[std::size_t(i)];
        left = std::min(left, b.left());
        right = std::max(right, b.right());
        if (!out.spans.empty() && b.top() < out.spans.back().second) {
            out.spans.back().second = std::max(out.spans.back().second, b.bottom());
            extents.back().first = std::min(extents.back().first, b.left());
            extents.back().second = std::max(extents.back().second, b.right());
        } else {
            out.spans.emplace_back(b.top(), b.bottom());
            extents.emplace_back(b.left(), b.right());
        }
    }
    const double width = right - left;
    double sum = 0;
    for (const auto &e : extents)
        sum += width > 0 ? (e.second - e.first) / width : 1.0;
    out.fill = extents.empty() ? 0 : sum / double(extents.size());
    out.wordsPerLine = extents.empty() ? 0 : double(items.size()) / double(extents.size());
    return out;
}

// Columns whose lines sit side by side at the same heights and do not fill their width (the
// label/value pairs of a form, the cells of a table) are read row by row; columns of running text
// (lines filling the column) one after the other.
bool rowsAcrossColumns(const std::vector<std::vector<int>> &columns, const std::vector<QRectF> &boxes)
{
    if (columns.size() < 2)
        return false;
    std::vector<PartLines> lines;
    double fill = 0, words = 0;
    for (const auto &c : columns) {
        lines.push_back(linesOf(c, boxes));
        fill += lines.back().fill;
        words += lines.back().wordsPerLine;
    }
    fill /= double(columns.size());
    words /= double(columns.size());
    if (fill >= 0.7 && words >= 3) // lines of running text filling their columns
        return false;
    long aligned = 0, total = 0;
    for (std::size_t k = 0; k + 1 < lines.size(); ++k) {
        const auto &a = lines[k].spans, &b = lines[k + 1].spans;
        const auto &fewer = a.size() <= b.size() ? a : b, &more = a.size() <= b.size() ? b : a;
        for (const auto &span : fewer) {
            ++total;
            const double mid = 0.5 * (span.first + span.second);
            aligned += std::any_of(more.begin(), more.end(), [&](const auto &o) { return mid >= o.first && mid <= o.second; }) ? 1 : 0;
        }
    }
    return total > 0 && double(aligned) >= 0.6 * double(total);
}

void cut(const std::vector<int> &items, const std::vector<QRectF> &boxes, int depth, std::vector<int> *out)
{
    if (items.size() <= 1 || depth >= kMaxDepth) {
        readAsLines(items, boxes, out);
        return;
    }
    const double unit = medianHeight(items, boxes);
    std::vector<Band> rows = gapsAlong(items, boxes, true, unit);
    std::vector<Band> columns = gapsAlong(items, boxes, false, unit);
    rows.erase(std::remove_if(rows.begin(), rows.end(), [](const Band &g) { return g.width < kMinRowGap; }), rows.end());
    columns.erase(std::remove_if(columns.begin(), columns.end(), [](const Band &g) { return g.width < kMinColumnGap; }),
                  columns.end());
    if (rows.empty() && columns.empty()) {
        readAsLines(items, boxes, out);
        return;
    }
    bool byColumns = !columns.empty() && (rows.empty() || columns.front().width > rows.front().width);
    const std::vector<Band> &chosen = byColumns ? columns : rows;
    const double rival = byColumns ? (rows.empty() ? 0 : rows.front().width) : (columns.empty() ? 0 : columns.front().width);
    // Every band of the chosen direction that is wider than any band of the other and nearly as
    // wide as the widest (the lines of a column split in one pass; a title's wider gap first).
    std::vector<double> cuts;
    for (const Band &g : chosen)
        if ((g.width > rival && g.width >= 0.8 * chosen.front().width) || cuts.empty())
            cuts.push_back(g.position);
    std::vector<std::vector<int>> parts = splitAt(items, boxes, cuts, byColumns);
    if (byColumns && !rows.empty() && rowsAcrossColumns(parts, boxes)) { // a form or table: every row band, top to bottom
        cuts.clear();
        for (const Band &g : rows)
            cuts.push_back(g.position);
        parts = splitAt(items, boxes, cuts, false);
    }
    for (const std::vector<int> &p : parts)
        cut(p, boxes, depth + 1, out);
}

bool usable(const QRectF &b)
{
    return std::isfinite(b.left()) && std::isfinite(b.top()) && std::isfinite(b.right()) && std::isfinite(b.bottom()) &&
           b.width() >= 0 && b.height() >= 0;
}

} // namespace

std::vector<int> layoutReadingOrder(const std::vector<QRectF> &boxes)
{
    std::vector<int> good, bad;
    for (int i = 0; i < int(boxes.size()); ++i)
        (usable(boxes[std::size_t(i)]) ? good : bad).push_back(i);
    std::vector<int> out;
    out.reserve(boxes.size());
    if (!good.empty())
        cut(good, boxes, 0, &out);
    out.insert(out.end(), bad.begin(), bad.end());
    return out;
}

} // namespace folio
