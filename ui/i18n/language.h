#pragma once
// The interface language (issue 50): Folio's catalogues (resources/translations/folio_<lang>.ts, built
// into :/i18n/folio_<lang>.qm by CMake's lrelease) and Qt's own (qtbase_<lang>.qm, Debian's
// qt6-translations-l10n) for the system locale or the language chosen under Settings > Language.
// The choice is read once at start: a change applies when Folio next starts.

#include <QLocale>
#include <QString>
#include <QStringList>

class QCoreApplication;

namespace folio {

enum class UiLanguage { System, English, German };

// QSettings key holding the choice: "system" (or absent), "en", "de".
QString uiLanguageSettingsKey();
UiLanguage storedUiLanguage();
void storeUiLanguage(UiLanguage language);
QString uiLanguageCode(UiLanguage language); // "system", "en", "de"
UiLanguage uiLanguageFromCode(const QString &code); // anything unknown is System

// The locale the interface uses: the system's for System, else the chosen language's.
QLocale uiLocale(UiLanguage language, const QLocale &system = QLocale::system());

// The languages Folio has a catalogue for besides English (the sources' language): {"de"}.
QStringList translatedUiLanguages();

// Installs Folio's and Qt's translators for `locale` into the application (they are children of
// it). English, or a language without a catalogue, installs nothing. Returns the catalogue files
// loaded (":/i18n/folio_de.qm", ".../qtbase_de.qm"), for the log and the tests.
QStringList installUiTranslations(QCoreApplication *app, const QLocale &locale);

// The English source of a text Folio's catalogue gave (the exact translated string, accelerators
// included: "&Datei" -> "&File"), or `shown` itself when it came from no catalogue. What is keyed by
// a text (the keys a user chose for an action without an object name) stays the same in every language.
QString uiSourceText(const QString &shown);

} // namespace folio
