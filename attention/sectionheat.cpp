#include "attention/sectionheat.h"

#include "attention/heatmaprender.h"

#include <cmath>

namespace folio {

namespace {

HeatmapScale scaleFor(const std::vector<float> &values, bool diverging)
{
    HeatmapScale scale;
    scale.diverging = diverging;
    float lo = 0, hi = 0;
    for (float v : values)
        if (!std::isnan(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    if (diverging) {
        const float m = std::max(std::abs(lo), std::abs(hi));
        scale.lo = -(m > 0 ? m : 1);
        scale.hi = m > 0 ? m : 1;
    } else {
        scale.lo = 0;
        scale.hi = hi > 0 ? hi : 1;
    }
    return scale;
}

QString sectionLabel(const Document &doc, int i)
{
    const Section &s = doc.sections[size_t(i)];
    return QStringLiteral("%1 %2").arg(i + 1).arg(s.title.left(40));
}

} // namespace

std::vector<float> sectionMeans(const Document &doc, const std::vector<float> &perWord)
{
    std::vector<float> out(doc.sections.size(), std::nanf(""));
    for (size_t s = 0; s < doc.sections.size(); ++s) {
        const Section &sec = doc.sections[s];
        double sum = 0;
        int n = 0;
        for (int w = std::max(0, sec.firstWord); w < sec.endWord && w < int(doc.words.size()); ++w, ++n)
            sum += w < int(perWord.size()) ? perWord[size_t(w)] : 0.0;
        if (n > 0)
            out[s] = float(sum / n);
    }
    return out;
}

QHash<int, QColor> sectionColors(const std::vector<float> &values, bool diverging)
{
    const HeatmapScale scale = scaleFor(values, diverging);
    QHash<int, QColor> out;
    for (size_t i = 0; i < values.size(); ++i)
        if (!std::isnan(values[i]))
            out.insert(int(i), scale.color(values[i]));
    return out;
}

QHash<int, QColor> wordColorsBySection(const Document &doc, const std::vector<float> &values, bool diverging)
{
    const QHash<int, QColor> bySection = sectionColors(values, diverging);
    QHash<int, QColor> out;
    for (size_t s = 0; s < doc.sections.size() && s < values.size(); ++s) {
        const auto it = bySection.constFind(int(s));
        if (it == bySection.constEnd())
            continue;
        QColor c = it.value();
        c.setAlpha(170);
        for (int w = std::max(0, doc.sections[s].firstWord); w < doc.sections[s].endWord && w < int(doc.words.size()); ++w)
            out.insert(w, c);
    }
    return out;
}

AttentionMatrixView sectionMatrixView(const Document &doc, const std::vector<float> &values, const QString &title)
{
    AttentionMatrixView m;
    m.rows = m.cols = int(doc.sections.size());
    m.values = values;
    m.values.resize(size_t(m.rows) * size_t(m.cols), std::nanf(""));
    for (int i = 0; i < m.rows; ++i)
        m.rowLabels << sectionLabel(doc, i);
    m.colLabels = m.rowLabels;
    m.title = title;
    m.diverging = true;
    m.minValue = 0;
    m.maxValue = 0;
    for (float v : m.values)
        if (!std::isnan(v)) {
            m.minValue = std::min(m.minValue, v);
            m.maxValue = std::max(m.maxValue, v);
        }
    return m;
}

} // namespace folio
