#pragma once
// Folio follows the desktop's palette, light or dark, at start and when it changes (issue 50).
// Qt 6.4 has no colour-scheme query, so the palette itself is read (widgets/palettecolors.h
// isDarkPalette: the window darker than its text): whatever made it dark (a platform theme such
// as KDE's kdeglobals colours, a style, QApplication::setPalette at run time, or FOLIO_PALETTE=dark,
// which forces folio's own dark palette) is followed. On QEvent::ApplicationPaletteChange it
// - completes a dark palette that left its shades (Light, Midlight, Mid, Dark, Shadow) at their
//   light defaults, so frames and bevels drawn from them do not glare (derived from Button);
// - emits darkChanged when light turns dark or back. The custom views paint with the palette at
//   paint time and every widget is repainted on QEvent::PaletteChange, so nothing else is needed
//   for them; lists that set colours on their items refresh them on darkChanged.
//
//   folio::PaletteFollower follower(&app);  // right after the QApplication (main.cpp)
//   folio::PaletteFollower::instance()->isDark();
#include <QObject>
#include <QPalette>

class QApplication;

namespace folio {

class PaletteFollower : public QObject
{
    Q_OBJECT
public:
    // Reads FOLIO_PALETTE: "dark" forces folio's dark palette, "light" the style's standard one;
    // anything else (unset) keeps the platform's.
    explicit PaletteFollower(QApplication *app);
    ~PaletteFollower() override;
    static PaletteFollower *instance(); // nullptr when none was made (tests, the CLI)

    bool isDark() const { return m_dark; }
    // How many times the application's palette changed since the start (tests read it).
    int changes() const { return m_changes; }

Q_SIGNALS:
    void darkChanged(bool dark);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void follow();

    QApplication *m_app;
    QPalette m_seen; // the palette last followed
    bool m_dark = false;
    bool m_completing = false;
    int m_changes = 0;
};

// A dark palette whose shades were left light gets them from its button colour; other palettes
// are returned as they are. (Exposed for tests.)
QPalette completedPalette(const QPalette &palette);

} // namespace folio
