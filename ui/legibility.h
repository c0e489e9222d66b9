#pragma once
// Text that stays readable in the palette the desktop gives, light or dark (issue 50). Qt 6.4 has
// no colour-scheme query: the palette's window colour decides. Contrast is WCAG 2's ratio
// (1..21; 4.5 is the minimum for body text).
//   label->setStyleSheet(QStringLiteral("color: %1").arg(errorTextColor(label->palette()).name()));
//   item->setForeground(0, textColorOn(cellColour));
#include "widgets/palettecolors.h" // isDarkPalette, contrastRatio, textColorOn: the custom views use them too

#include <QColor>

class QPalette;

namespace folio {

// An error message's red: dark red on a light window, a light red on a dark one (>= 4.5:1 both).
QColor errorTextColor(const QPalette &palette);
// Secondary text (a suggestion not yet accepted): a mid grey that still reads on the base colour
// (>= 4.5:1 on white and on a dark base).
QColor secondaryTextColor(const QPalette &palette);
// A model's suggestion not yet reviewed (a question in the Questions dock): a blue that reads on the base.
QColor suggestedTextColor(const QPalette &palette);
// A caution in a list (a model that will not be used as it is): an orange-brown, or a light orange on dark.
QColor warningTextColor(const QPalette &palette);

} // namespace folio
