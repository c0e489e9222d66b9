#include "widgets/palettecolors.h"

#include <QPalette>

#include <algorithm>
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
    const QColor window = palette.color(QPalette::Window), text = palette.color(QPalette::WindowText);
    return window.lightnessF() < 0.5 && luminance(window) < luminance(text);
}

double contrastRatio(const QColor &a, const QColor &b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor textColorOn(const QColor &background)
{
    const QColor opaque(background.red(), background.green(), background.blue());
    return contrastRatio(opaque, Qt::black) >= contrastRatio(opaque, Qt::white) ? QColor(Qt::black) : QColor(Qt::white);
}

QColor canvasBackdrop(const QPalette &palette)
{
    if (!isDarkPalette(palette))
        return palette.color(QPalette::Mid);
    const QColor mid = palette.color(QPalette::Mid);
    return mid.lightnessF() < 0.35 ? mid : palette.color(QPalette::Window).darker(130);
}

QColor blankPageColor(const QPalette &palette)
{
    return isDarkPalette(palette) ? palette.color(QPalette::Base) : QColor(Qt::white);
}

QColor viewBackground(const QPalette &palette)
{
    return isDarkPalette(palette) ? palette.color(QPalette::Base) : QColor(Qt::white);
}

QColor viewText(const QPalette &palette)
{
    const QColor bg = viewBackground(palette), text = palette.color(QPalette::Text);
    return contrastRatio(text, bg) >= 4.5 ? text : textColorOn(bg);
}

QColor viewFrame(const QPalette &palette)
{
    return isDarkPalette(palette) ? QColor(150, 150, 150) : QColor(80, 80, 80);
}

QColor placeholderFill(const QPalette &palette)
{
    return isDarkPalette(palette) ? palette.color(QPalette::Base).lighter(160) : QColor(225, 225, 225);
}

QPalette forcedDarkPalette()
{
    // Button and window colours first: QPalette derives Light, Midlight, Mid, Dark and Shadow from them.
    QPalette dark(QColor(230, 230, 230), QColor(55, 55, 60), QColor(85, 85, 90), QColor(25, 25, 27), QColor(40, 40, 44),
                  QColor(230, 230, 230), QColor(255, 255, 255), QColor(30, 30, 32), QColor(45, 45, 48));
    dark.setColor(QPalette::ButtonText, QColor(230, 230, 230));
    dark.setColor(QPalette::AlternateBase, QColor(50, 50, 54));
    dark.setColor(QPalette::ToolTipBase, QColor(60, 60, 64));
    dark.setColor(QPalette::ToolTipText, QColor(230, 230, 230));
    dark.setColor(QPalette::PlaceholderText, QColor(150, 150, 150));
    dark.setColor(QPalette::Highlight, QColor(42, 130, 218));
    dark.setColor(QPalette::HighlightedText, Qt::white);
    dark.setColor(QPalette::Link, QColor(110, 170, 255));
    dark.setColor(QPalette::LinkVisited, QColor(190, 150, 255));
    dark.setColor(QPalette::BrightText, QColor(255, 110, 110));
    dark.setColor(QPalette::Disabled, QPalette::Text, QColor(120, 120, 120));
    dark.setColor(QPalette::Disabled, QPalette::WindowText, QColor(120, 120, 120));
    dark.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(120, 120, 120));
    return dark;
}

} // namespace folio
