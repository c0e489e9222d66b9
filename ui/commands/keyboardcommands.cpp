#include "ui/commands/keyboardcommands.h"

#include "ui/commands/commandpalette.h"
#include "ui/commands/shortcuteditordialog.h"
#include "ui/commands/shortcutsettings.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>

namespace folio {

void installKeyboardCommands(QMainWindow *window, QMenu *help)
{
    QMenu *settings = window->menuBar()->findChild<QMenu *>(QStringLiteral("settingsMenu"));
    if (!settings) {
        settings = new QMenu(ShortcutEditorDialog::tr("&Settings"), window->menuBar());
        settings->setObjectName(QStringLiteral("settingsMenu"));
        if (help)
            window->menuBar()->insertMenu(help->menuAction(), settings);
        else
            window->menuBar()->addMenu(settings);
    }
    QAction *edit = settings->addAction(ShortcutEditorDialog::tr("&Keyboard Shortcuts…"));
    edit->setObjectName(QStringLiteral("editShortcutsAction"));
    QObject::connect(edit, &QAction::triggered, window, [window] {
        ShortcutEditorDialog dialog(window);
        if (dialog.exec() == QDialog::Accepted && window->statusBar())
            window->statusBar()->showMessage(ShortcutEditorDialog::tr("Keyboard shortcuts saved"), 5000);
    });

    auto *palette = new CommandPalette(window);
    QAction *find = new QAction(CommandPalette::tr("&Find Action…"), window);
    find->setObjectName(QStringLiteral("commandPaletteAction"));
    find->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    if (help)
        help->insertAction(help->actions().value(0), find);
    else
        window->addAction(find);
    QObject::connect(find, &QAction::triggered, palette, &CommandPalette::popup);

    ShortcutSettings::applySaved(window);
}

} // namespace folio
