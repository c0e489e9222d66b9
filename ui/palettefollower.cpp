#include "ui/palettefollower.h"

#include "widgets/palettecolors.h"

#include <QApplication>
#include <QEvent>
#include <QPalette>
#include <QStyle>

namespace folio {

namespace {
PaletteFollower *g_instance = nullptr;
} // namespace

QPalette completedPalette(const QPalette &palette)
{
    if (!isDarkPalette(palette))
        return palette;
    QPalette out = palette;
    bool changed = false;
    for (const QPalette::ColorGroup group : {QPalette::Active, QPalette::Inactive, QPalette::Disabled}) {
        const QColor button = palette.color(group, QPalette::Button);
        const QColor window = palette.color(group, QPalette::Window);
        // A shade lighter than the window text on a dark palette is a light default left behind.
        const auto fix = [&](QPalette::ColorRole role, const QColor &wanted) {
            if (palette.color(group, role).lightnessF() > 0.55) {
                out.setColor(group, role, wanted);
                changed = true;
            }
        };
        fix(QPalette::Light, button.lighter(150));
        fix(QPalette::Midlight, button.lighter(125));
        fix(QPalette::Mid, button.darker(130));
        fix(QPalette::Dark, window.darker(160));
        fix(QPalette::Shadow, QColor(0, 0, 0));
    }
    return changed ? out : palette;
}

PaletteFollower::PaletteFollower(QApplication *app) : QObject(app), m_app(app)
{
    g_instance = this;
    const QString forced = qEnvironmentVariable("FOLIO_PALETTE");
    if (forced == QLatin1String("dark"))
        QApplication::setPalette(forcedDarkPalette());
    else if (forced == QLatin1String("light"))
        QApplication::setPalette(QApplication::style()->standardPalette());
    app->installEventFilter(this);
    follow();
}

PaletteFollower::~PaletteFollower()
{
    if (g_instance == this)
        g_instance = nullptr;
}

PaletteFollower *PaletteFollower::instance() { return g_instance; }

bool PaletteFollower::eventFilter(QObject *watched, QEvent *event)
{
    // Sent to the application and to every widget: acted on once per new palette.
    if (event->type() == QEvent::ApplicationPaletteChange && !m_completing && QApplication::palette() != m_seen) {
        Q_UNUSED(watched)
        ++m_changes;
        follow();
    }
    return QObject::eventFilter(watched, event);
}

void PaletteFollower::follow()
{
    const QPalette now = QApplication::palette();
    const QPalette completed = completedPalette(now);
    if (completed != now) {
        m_completing = true; // the palette set here is not another change to follow
        QApplication::setPalette(completed);
        m_completing = false;
    }
    m_seen = QApplication::palette();
    const bool dark = isDarkPalette(m_seen);
    if (dark != m_dark) {
        m_dark = dark;
        Q_EMIT darkChanged(dark);
    }
}

} // namespace folio
