#include "ui/legibility.h"

#include <QPalette>

#include <cmath>

namespace folio {

namespace {

double channel(double c)
{
    return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double luminance(const QColor &c)
{
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

} // namespace

bool isDarkPalette(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightnessF() < 0.5;
}

double contrastRatio(const QColor &a, const QColor &b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor errorTextColor(const QPalette &palette)
{
    return isDarkPalette(palette) ? QColor(0xff, 0x8a, 0x80) : QColor(0xb0, 0x00, 0x20);
}

QColor secondaryTextColor(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightnessF() < 0.5 ? QColor(0xa0, 0xa0, 0xa0) : QColor(0x60, 0x60, 0x60);
}

QColor textColorOn(const QColor &background)
{
    return contrastRatio(background, Qt::black) >= contrastRatio(background, Qt::white) ? QColor(Qt::black) : QColor(Qt::white);
}

} // namespace folio
