#pragma once
// Settings > Language (issue 50): System / English / Deutsch, exclusive, the choice stored in
// QSettings (ui/language, ui/i18n/language.h); the status bar says it applies at the next start.

class QMainWindow;
class QMenu;

namespace folio {

// Adds the Language submenu to the window's Settings menu (objectName "settingsMenu"; created
// before Help when missing). Returns the submenu (objectName "languageMenu").
QMenu *installLanguageMenu(QMainWindow *window);

} // namespace folio
