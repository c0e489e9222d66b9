#pragma once
// Geometry of word / region boxes.
#include <QRectF>

namespace folio {

// Intersection over union of two boxes: 0 when they do not overlap, 1 when they are equal.
double boxIoU(const QRectF &a, const QRectF &b);

} // namespace folio
