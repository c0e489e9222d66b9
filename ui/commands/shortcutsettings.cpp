#include "ui/commands/shortcutsettings.h"

#include "ui/i18n/language.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QVariant>

#include <algorithm>

namespace folio {

namespace {

const char kDefaultsProperty[] = "folioDefaultShortcuts";

QString withoutAccelerators(QString text)
{
    text.replace(QLatin1String("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QChar(1), QLatin1Char('&'));
    return text;
}
const char kNoShortcutsProperty[] = "folioNoShortcuts";

QString settingsKey(const QAction *action)
{
    return QStringLiteral("shortcuts/") + ShortcutSettings::id(action);
}

void collect(const QMenu *menu, QList<QAction *> *out)
{
    if (!menu || menu->property(kNoShortcutsProperty).toBool())
        return;
    const QList<QAction *> list = menu->actions();
    for (QAction *a : list) {
        if (a->isSeparator())
            continue;
        if (a->menu()) {
            collect(a->menu(), out);
            continue;
        }
        if (!a->text().isEmpty() && !out->contains(a))
            out->append(a);
    }
}

} // namespace

QList<QAction *> ShortcutSettings::actions(const QMainWindow *window)
{
    QList<QAction *> out;
    if (!window || !window->menuBar())
        return out;
    const QList<QAction *> top = window->menuBar()->actions();
    for (const QAction *a : top)
        collect(a->menu(), &out);
    return out;
}

QString ShortcutSettings::displayText(const QAction *action)
{
    return withoutAccelerators(action->text());
}

QString ShortcutSettings::menuPath(const QAction *action)
{
    // The menu an action sits in: a titled QMenu (the menu bar's overflow menu has no title).
    const auto owner = [](const QAction *a) -> const QMenu * {
        const QList<QObject *> objects = a->associatedObjects();
        for (QObject *o : objects)
            if (const auto *m = qobject_cast<const QMenu *>(o); m && !m->title().isEmpty())
                return m;
        return nullptr;
    };
    QStringList path;
    const QMenu *menu = owner(action);
    for (int depth = 0; menu && depth < 8; ++depth) {
        path.prepend(displayText(menu->menuAction()));
        menu = owner(menu->menuAction());
    }
    return path.join(QStringLiteral(" > "));
}

QString ShortcutSettings::id(const QAction *action)
{
    QString name = action->objectName();
    if (name.isEmpty())
        // The English text (uiSourceText): the keys stay the action's in every interface language.
        name = QStringLiteral("text:") + withoutAccelerators(uiSourceText(action->text())).remove(QChar(0x2026)).trimmed();
    // QSettings reads '/' and '\' as groups.
    name.replace(QLatin1Char('/'), QLatin1Char('_'));
    name.replace(QLatin1Char('\\'), QLatin1Char('_'));
    return name;
}

void ShortcutSettings::rememberDefaults(QAction *action)
{
    if (!action->property(kDefaultsProperty).isValid())
        action->setProperty(kDefaultsProperty, QVariant::fromValue(action->shortcuts()));
}

QList<QKeySequence> ShortcutSettings::defaults(const QAction *action)
{
    const QVariant v = action->property(kDefaultsProperty);
    return v.isValid() ? v.value<QList<QKeySequence>>() : action->shortcuts();
}

void ShortcutSettings::applySaved(const QMainWindow *window)
{
    QSettings settings;
    const QList<QAction *> list = actions(window);
    for (QAction *a : list) {
        rememberDefaults(a);
        const QString key = settingsKey(a);
        if (settings.contains(key))
            a->setShortcuts(QKeySequence::listFromString(settings.value(key).toString(), QKeySequence::PortableText));
    }
}

void ShortcutSettings::setKeys(QAction *action, const QList<QKeySequence> &keys)
{
    rememberDefaults(action);
    QList<QKeySequence> clean;
    for (const QKeySequence &k : keys)
        if (!k.isEmpty() && !clean.contains(k))
            clean << k;
    action->setShortcuts(clean);
    QSettings settings;
    if (clean == defaults(action))
        settings.remove(settingsKey(action));
    else
        settings.setValue(settingsKey(action), QKeySequence::listToString(clean, QKeySequence::PortableText));
}

QHash<int, QList<int>> ShortcutSettings::conflicts(const QList<QList<QKeySequence>> &keys)
{
    QHash<QKeySequence, QList<int>> users;
    for (int i = 0; i < keys.size(); ++i)
        for (const QKeySequence &k : keys[i])
            if (!k.isEmpty() && !users[k].contains(i))
                users[k] << i;
    QHash<int, QList<int>> out;
    for (auto it = users.cbegin(); it != users.cend(); ++it) {
        if (it.value().size() < 2)
            continue;
        for (int i : it.value())
            for (int j : it.value())
                if (i != j && !out[i].contains(j))
                    out[i] << j;
    }
    for (auto it = out.begin(); it != out.end(); ++it)
        std::sort(it->begin(), it->end());
    return out;
}

QString ShortcutSettings::keysText(const QList<QKeySequence> &keys)
{
    return QKeySequence::listToString(keys, QKeySequence::NativeText);
}

} // namespace folio
