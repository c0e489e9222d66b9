#include "ui/legibility.h"

#include <QPalette>

namespace folio {

QColor errorTextColor(const QPalette &palette)
{
    return isDarkPalette(palette) ? QColor(0xff, 0x8a, 0x80) : QColor(0xb0, 0x00, 0x20);
}

QColor secondaryTextColor(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightnessF() < 0.5 ? QColor(0xa0, 0xa0, 0xa0) : QColor(0x60, 0x60, 0x60);
}

QColor suggestedTextColor(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightnessF() < 0.5 ? QColor(0x8c, 0xb8, 0xff) : QColor(0x28, 0x5a, 0xaa);
}

QColor warningTextColor(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightnessF() < 0.5 ? QColor(0xff, 0xb0, 0x70) : QColor(0xa0, 0x3c, 0x00);
}

} // namespace folio
