#include "ui/i18n/language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QSettings>
#include <QTranslator>

namespace folio {

QString uiLanguageSettingsKey()
{
    return QStringLiteral("ui/language");
}

QString uiLanguageCode(UiLanguage language)
{
    switch (language) {
    case UiLanguage::English: return QStringLiteral("en");
    case UiLanguage::German: return QStringLiteral("de");
    case UiLanguage::System: break;
    }
    return QStringLiteral("system");
}

UiLanguage uiLanguageFromCode(const QString &code)
{
    if (code == QLatin1String("en"))
        return UiLanguage::English;
    if (code == QLatin1String("de"))
        return UiLanguage::German;
    return UiLanguage::System;
}

UiLanguage storedUiLanguage()
{
    return uiLanguageFromCode(QSettings().value(uiLanguageSettingsKey()).toString());
}

void storeUiLanguage(UiLanguage language)
{
    QSettings settings;
    if (language == UiLanguage::System)
        settings.remove(uiLanguageSettingsKey());
    else
        settings.setValue(uiLanguageSettingsKey(), uiLanguageCode(language));
}

QLocale uiLocale(UiLanguage language, const QLocale &system)
{
    switch (language) {
    case UiLanguage::English: return QLocale(QLocale::English, QLocale::UnitedStates);
    case UiLanguage::German: return QLocale(QLocale::German, QLocale::Germany);
    case UiLanguage::System: break;
    }
    return system;
}

QStringList translatedUiLanguages()
{
    return {QStringLiteral("de")};
}

QStringList installUiTranslations(QCoreApplication *app, const QLocale &locale)
{
    QStringList loaded;
    const QString language = QLocale::languageToCode(locale.language());
    if (!translatedUiLanguages().contains(language))
        return loaded; // English is the sources' language: nothing to load
    auto *folio = new QTranslator(app);
    const QString catalogue = QStringLiteral(":/i18n/folio_%1.qm").arg(language);
    if (folio->load(catalogue)) {
        QCoreApplication::installTranslator(folio);
        loaded << catalogue;
    } else {
        qWarning("%s: Folio's %s catalogue is not in this build (no translations for the interface)",
                 qPrintable(catalogue), qPrintable(language));
        delete folio;
    }
    // Qt's own strings (button boxes, file dialogs, context menus): qtbase_<lang>.qm when installed.
    const QString qtDir = QLibraryInfo::path(QLibraryInfo::TranslationsPath);
    auto *qt = new QTranslator(app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"), qtDir)) {
        QCoreApplication::installTranslator(qt);
        loaded << qt->filePath();
    } else {
        delete qt;
    }
    return loaded;
}

} // namespace folio
