#pragma once
// Puts the keys the user chooses and the command palette into a main window (issue 50):
// Settings > Keyboard Shortcuts… (the Settings menu is found by its objectName "settingsMenu", or
// made before `help`), Help > Find Action… (Ctrl+Shift+P) for the CommandPalette, then applies the
// keys saved per user. Called once, after every menu is built.
//
//   installKeyboardCommands(this, helpMenu);

class QMainWindow;
class QMenu;

namespace folio {

void installKeyboardCommands(QMainWindow *window, QMenu *help);

} // namespace folio
