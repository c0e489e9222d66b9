#pragma once
// The keys of the main window's actions, chosen by the user (issue 50): every action the menu bar
// reaches, its default keys (remembered the first time it is seen), the user's keys saved per user
// in QSettings ("shortcuts/<id>") and applied when a window is built, and conflict detection.
//
//   ShortcutSettings::applySaved(window);          // at the end of building the menus
//   ShortcutSettings::setKeys(action, {QKeySequence(Qt::CTRL | Qt::Key_K)}); // applied and saved
//   ShortcutSettings::conflicts(keysPerAction);    // which actions share a key
//
// An action is known by its objectName, or by its text (the & stripped) when it has none: such an
// action's saved keys follow its text, so they are not found again under another UI language.
// Menus rebuilt at run time (Open Recent) carry the property "folioNoShortcuts" and are left out.

#include <QHash>
#include <QKeySequence>
#include <QList>
#include <QString>

class QAction;
class QMainWindow;
class QMenu;

namespace folio {

class ShortcutSettings
{
public:
    // Every action of the window's menus (submenus included), in menu order; separators, submenu
    // entries and actions without text are left out.
    static QList<QAction *> actions(const QMainWindow *window);
    // The action's text as shown, "&&" as "&" and the mnemonic '&' removed.
    static QString displayText(const QAction *action);
    // The menus leading to it: "Model > Suggest Labels" -> "Model".
    static QString menuPath(const QAction *action);
    // The key QSettings stores its keys under (inside the "shortcuts" group).
    static QString id(const QAction *action);
    // The keys the action had before any saved ones were applied (recorded by rememberDefaults).
    static QList<QKeySequence> defaults(const QAction *action);
    static void rememberDefaults(QAction *action);
    // Remembers every action's defaults, then sets the keys saved for it (if any).
    static void applySaved(const QMainWindow *window);
    // Sets the action's keys and saves them; keys equal to the defaults remove the saved entry.
    static void setKeys(QAction *action, const QList<QKeySequence> &keys);
    // For each index of `keys`, the other indices with a key in common (empty keys never clash).
    static QHash<int, QList<int>> conflicts(const QList<QList<QKeySequence>> &keys);
    // "Ctrl+R, Ctrl+T" in the platform's text.
    static QString keysText(const QList<QKeySequence> &keys);
};

} // namespace folio
