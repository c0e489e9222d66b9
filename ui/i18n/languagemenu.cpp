#include "ui/i18n/languagemenu.h"

#include "ui/i18n/language.h"

#include <QActionGroup>
#include <QCoreApplication>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>

namespace folio {

QMenu *installLanguageMenu(QMainWindow *window)
{
    QMenu *settings = window->menuBar()->findChild<QMenu *>(QStringLiteral("settingsMenu"));
    if (!settings) {
        settings = window->menuBar()->addMenu(QCoreApplication::translate("folio::LanguageMenu", "&Settings"));
        settings->setObjectName(QStringLiteral("settingsMenu"));
    }
    QMenu *menu = settings->addMenu(QCoreApplication::translate("folio::LanguageMenu", "&Language"));
    menu->setObjectName(QStringLiteral("languageMenu"));
    auto *group = new QActionGroup(menu);
    group->setExclusive(true);
    const UiLanguage current = storedUiLanguage();
    struct Choice {
        UiLanguage language;
        QString text;
    };
    // A language's own name is not translated: a user who cannot read the current one finds theirs.
    const Choice choices[] = {
        {UiLanguage::System, QCoreApplication::translate("folio::LanguageMenu", "&System Language")},
        {UiLanguage::English, QStringLiteral("&English")},
        {UiLanguage::German, QStringLiteral("&Deutsch")},
    };
    for (const Choice &c : choices) {
        QAction *action = menu->addAction(c.text);
        action->setCheckable(true);
        action->setChecked(c.language == current);
        action->setObjectName(QStringLiteral("language_") + uiLanguageCode(c.language));
        group->addAction(action);
        QObject::connect(action, &QAction::triggered, window, [window, language = c.language] {
            if (language == storedUiLanguage())
                return;
            storeUiLanguage(language);
            if (window->statusBar())
                window->statusBar()->showMessage(
                    QCoreApplication::translate("folio::LanguageMenu", "The interface language changes when Folio next starts."), 10000);
        });
    }
    menu->setToolTipsVisible(true);
    menu->menuAction()->setStatusTip(QCoreApplication::translate("folio::LanguageMenu", "The interface language; a change applies when Folio next starts"));
    return menu;
}

} // namespace folio
