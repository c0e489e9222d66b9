#pragma once
// Stable colours per entity label (the same label always gets the same colour).
#include <QColor>
#include <QString>

namespace folio {
QColor labelColor(const QString &label, int alpha = 255);
} // namespace folio
