#include "ui/commands/commandpalette.h"

#include "ui/commands/shortcutsettings.h"

#include <QAction>
#include <QCoreApplication>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMainWindow>
#include <QPointer>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace folio {

namespace {
constexpr int kActionRole = Qt::UserRole + 1;
}

CommandPalette::CommandPalette(QMainWindow *window)
    : QDialog(window)
    , m_window(window)
{
    setObjectName(QStringLiteral("commandPalette"));
    setWindowTitle(tr("Find Action"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("commandPaletteFilter"));
    m_filter->setAccessibleName(tr("Find action"));
    m_filter->setPlaceholderText(tr("Type an action's name (Enter runs it, Esc closes)"));
    m_filter->setClearButtonEnabled(true);
    m_filter->installEventFilter(this);
    layout->addWidget(m_filter);
    m_list = new QTreeWidget(this);
    m_list->setObjectName(QStringLiteral("commandPaletteList"));
    m_list->setAccessibleName(tr("Matching actions"));
    m_list->setColumnCount(3);
    m_list->setHeaderLabels({tr("Action"), tr("Menu"), tr("Keys")});
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAllColumnsShowFocus(true);
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_list->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_list->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    layout->addWidget(m_list, 1);
    connect(m_filter, &QLineEdit::textChanged, this, &CommandPalette::applyFilter);
    connect(m_list, &QTreeWidget::itemActivated, this, [this] { triggerCurrent(); });
    resize(620, 420);
}

void CommandPalette::popup()
{
    rebuild();
    m_filter->clear();
    applyFilter(QString());
    if (m_window) {
        const QRect g = m_window->geometry();
        move(g.x() + (g.width() - width()) / 2, g.y() + g.height() / 8);
    }
    show();
    raise();
    activateWindow();
    m_filter->setFocus();
}

void CommandPalette::rebuild()
{
    m_list->clear();
    const QList<QAction *> actions = ShortcutSettings::actions(m_window);
    for (QAction *a : actions) {
        if (!a->isEnabled())
            continue;
        auto *item = new QTreeWidgetItem(m_list, {ShortcutSettings::displayText(a), ShortcutSettings::menuPath(a),
                                                  ShortcutSettings::keysText(a->shortcuts())});
        item->setIcon(0, a->icon());
        if (a->isCheckable())
            item->setCheckState(0, a->isChecked() ? Qt::Checked : Qt::Unchecked);
        item->setToolTip(0, a->toolTip());
        item->setData(0, kActionRole, QVariant::fromValue(static_cast<QObject *>(a)));
    }
}

void CommandPalette::applyFilter(const QString &text)
{
    const QStringList words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    QTreeWidgetItem *first = nullptr;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_list->topLevelItem(i);
        const QString hay = item->text(0) + QLatin1Char(' ') + item->text(1);
        bool match = true;
        for (const QString &w : words)
            match = match && hay.contains(w, Qt::CaseInsensitive);
        item->setHidden(!match);
        if (match && !first)
            first = item;
    }
    m_list->setCurrentItem(first);
}

QList<QAction *> CommandPalette::offered() const
{
    QList<QAction *> out;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = m_list->topLevelItem(i);
        if (!item->isHidden())
            if (auto *a = qobject_cast<QAction *>(item->data(0, kActionRole).value<QObject *>()))
                out << a;
    }
    return out;
}

bool CommandPalette::triggerCurrent()
{
    QTreeWidgetItem *item = m_list->currentItem();
    if (!item || item->isHidden())
        return false;
    QPointer<QAction> action = qobject_cast<QAction *>(item->data(0, kActionRole).value<QObject *>());
    hide();
    if (!action || !action->isEnabled())
        return false;
    action->trigger();
    return true;
}

bool CommandPalette::eventFilter(QObject *watched, QEvent *event)
{
    // Up / Down / Page keys in the filter move through the list; Enter runs the current row.
    if (watched == m_filter && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        switch (key->key()) {
        case Qt::Key_Up:
        case Qt::Key_Down:
        case Qt::Key_PageUp:
        case Qt::Key_PageDown:
            QCoreApplication::sendEvent(m_list, event);
            return true;
        case Qt::Key_Return:
        case Qt::Key_Enter:
            triggerCurrent();
            return true;
        default:
            break;
        }
    }
    return QDialog::eventFilter(watched, event);
}

} // namespace folio
