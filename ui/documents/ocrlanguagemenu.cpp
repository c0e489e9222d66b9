#include "ui/documents/ocrlanguagemenu.h"

#include "ocr/ocr.h"
#include "pipeline/ocrlanguage.h"

#include <QActionGroup>
#include <QLocale>
#include <QSettings>

namespace folio {

namespace {

const char *const kSettingsKey = "ocr/languages";

// "deu" -> "German (deu)"; Tesseract's codes are ISO 639-2/B or /T, which QLocale reads for the
// common ones; anything else shows its code.
QString languageTitle(const QString &code)
{
    const QLocale::Language language = QLocale::codeToLanguage(code, QLocale::ISO639Part2);
    if (language == QLocale::AnyLanguage || language == QLocale::C)
        return code;
    return QStringLiteral("%1 (%2)").arg(QLocale::languageToString(language), code);
}

} // namespace

OcrLanguageMenu::OcrLanguageMenu(QWidget *parent)
    : QMenu(tr("OCR &Language"), parent), m_group(new QActionGroup(this))
{
    setObjectName(QStringLiteral("ocrLanguageMenu"));
    m_group->setExclusive(true);
    addEntry(pipeline::autoOcrLanguages(), tr("Automatic (English; German pages read again in German)"));
    addSeparator();
    QStringList installed = ocr::installedLanguages();
    installed.removeAll(QStringLiteral("osd")); // orientation and script detection, not a language
    for (const QString &code : installed)
        addEntry(code, languageTitle(code));
    if (installed.contains(QStringLiteral("eng")) && installed.contains(QStringLiteral("deu")))
        addEntry(QStringLiteral("eng+deu"), tr("English + German (mixed pages, slower)"));
    if (installed.isEmpty())
        addAction(tr("(no Tesseract language installed)"))->setEnabled(false);
    setLanguages(QSettings().value(QLatin1String(kSettingsKey), pipeline::autoOcrLanguages()).toString());
}

void OcrLanguageMenu::addEntry(const QString &languages, const QString &text)
{
    QAction *action = addAction(text);
    action->setCheckable(true);
    action->setData(languages);
    action->setObjectName(QStringLiteral("ocrLanguage_") + QString(languages).replace(QLatin1Char('+'), QLatin1Char('_')));
    m_group->addAction(action);
    connect(action, &QAction::triggered, this, [this, languages] { setLanguages(languages); });
}

void OcrLanguageMenu::setLanguages(const QString &wanted)
{
    QAction *chosen = nullptr;
    QAction *automatic = nullptr;
    for (QAction *action : m_group->actions()) {
        if (action->data().toString() == wanted)
            chosen = action;
        if (action->data().toString() == pipeline::autoOcrLanguages())
            automatic = action;
    }
    if (!chosen)
        chosen = automatic;
    chosen->setChecked(true);
    const QString languages = chosen->data().toString();
    QSettings().setValue(QLatin1String(kSettingsKey), languages);
    if (languages == m_languages)
        return;
    m_languages = languages;
    Q_EMIT languagesChanged(languages);
}

} // namespace folio
