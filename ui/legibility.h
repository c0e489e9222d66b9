#pragma once
// Text that stays readable in the palette the desktop gives, light or dark (issue 50). Qt 6.4 has
// no colour-scheme query: the palette's window colour decides. Contrast is WCAG 2's ratio
// (1..21; 4.5 is the minimum for body text).
//   label->setStyleSheet(QStringLiteral("color: %1").arg(errorTextColor(label->palette()).name()));
//   item->setForeground(0, textColorOn(cellColour));
#include <QColor>

class QPalette;

namespace folio {

bool isDarkPalette(const QPalette &palette);
double contrastRatio(const QColor &a, const QColor &b);
// An error message's red: dark red on a light window, a light red on a dark one (>= 4.5:1 both).
QColor errorTextColor(const QPalette &palette);
// Secondary text (a suggestion not yet accepted): a mid grey that still reads on the base colour
// (>= 4.5:1 on white and on a dark base).
QColor secondaryTextColor(const QPalette &palette);
// Black or white, whichever reads better on `background`.
QColor textColorOn(const QColor &background);

} // namespace folio
