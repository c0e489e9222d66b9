#include "ui/labelcolors.h"

#include <QHash>

namespace folio {

QColor labelColor(const QString &label, int alpha)
{
    // Well-known labels get distinct hues; others are spread by a hash of the name.
    static const QHash<QString, int> known = {
        {QStringLiteral("QUESTION"), 210}, {QStringLiteral("ANSWER"), 120}, {QStringLiteral("HEADER"), 30},
        {QStringLiteral("OTHER"), 280},
    };
    const QString key = label.toUpper();
    const int hue = known.contains(key) ? known.value(key) : int(qHash(key) % 360u);
    QColor c = QColor::fromHsv(hue, 190, 225);
    c.setAlpha(alpha);
    return c;
}

} // namespace folio
