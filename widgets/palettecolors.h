#pragma once
// Colours that follow the palette the desktop gives, light or dark (issue 50). Qt 6.4 has no
// colour-scheme query: the palette decides (its window colour darker than its window text). The
// custom-painted views (page canvas, heatmaps, label chips, head grid, image patches) paint with
// these at paint time, so a palette changed at run time (QEvent::PaletteChange repaints a widget)
// is followed without restarting. Contrast is WCAG 2's ratio (1..21; 4.5 is the minimum for body text).
//
//   p.fillRect(rect(), canvasBackdrop(palette()));
//   p.setPen(textColorOn(chipColour));
#include <QColor>

class QPalette;

namespace folio {

// Dark: the window colour is darker than the window text (and below mid-grey), whatever set the
// palette (a platform theme, a style, QApplication::setPalette, FOLIO_PALETTE=dark).
bool isDarkPalette(const QPalette &palette);
double contrastRatio(const QColor &a, const QColor &b);
// Black or white, whichever reads better on `background` (an alpha is ignored).
QColor textColorOn(const QColor &background);
// Around a page: the palette's mid tone on a light palette, a shade of the window on a dark one
// (a partial dark palette may leave Mid at its light default).
QColor canvasBackdrop(const QPalette &palette);
// A page with no image of its own (word boxes only; a placeholder): white paper on a light
// palette, the base colour on a dark one. A scan is drawn as it is.
QColor blankPageColor(const QPalette &palette);
// The base colour and text colour of a view that paints text itself, and a frame between them.
QColor viewBackground(const QPalette &palette);
QColor viewText(const QPalette &palette);
QColor viewFrame(const QPalette &palette);
// A placeholder cell (nothing computed yet): a light grey, or a slightly lighter shade of a dark base.
QColor placeholderFill(const QPalette &palette);
// The dark palette FOLIO_PALETTE=dark forces (a complete one: Light, Mid, Dark and Shadow too).
QPalette forcedDarkPalette();

} // namespace folio
