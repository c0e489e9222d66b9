#include "ui/i18n/language.h"

#include <QCoreApplication>
#include <QHash>
#include <QLibraryInfo>
#include <QMutex>
#include <QSettings>
#include <QTranslator>

namespace folio {

namespace {

// Translations handed out -> their sources (uiSourceText). translate() runs on worker threads too.
struct SourceTexts {
    QMutex mutex;
    QHash<QString, QString> byTranslation;
};
SourceTexts &sourceTexts()
{
    static SourceTexts texts;
    return texts;
}

// Folio's catalogue, remembering the source of each translation it gives.
class RecordingTranslator : public QTranslator
{
public:
    using QTranslator::QTranslator;
    QString translate(const char *context, const char *sourceText, const char *disambiguation, int n) const override
    {
        QString translated = QTranslator::translate(context, sourceText, disambiguation, n);
        if (!translated.isEmpty() && n < 0) {
            SourceTexts &texts = sourceTexts();
            QMutexLocker lock(&texts.mutex);
            texts.byTranslation.insert(translated, QString::fromUtf8(sourceText));
        }
        return translated;
    }
};

} // namespace

QString uiSourceText(const QString &shown)
{
    SourceTexts &texts = sourceTexts();
    QMutexLocker lock(&texts.mutex);
    return texts.byTranslation.value(shown, shown);
}

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
    auto *folio = new RecordingTranslator(app);
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
