#include "layoutaudit.h"

#include "ui/resultpresenter.h"

#include <QAbstractItemView>
#include <QDockWidget>
#include <QFontMetrics>
#include <QJsonArray>
#include <QLabel>
#include <QListView>
#include <QTableView>
#include <QTreeView>
#include <QMainWindow>
#include <QStatusBar>
#include <QTextDocument>

namespace folio {

namespace {

constexpr int kMaxItemsPerView = 400; // the rows on screen are what matters; a long list is not walked

QString describe(const QWidget *w)
{
    QStringList path;
    for (const QWidget *p = w; p; p = p->parentWidget()) {
        if (const auto *dock = qobject_cast<const QDockWidget *>(p)) {
            path.prepend(dock->windowTitle());
            break;
        }
        if (!p->objectName().isEmpty())
            path.prepend(p->objectName());
    }
    path.append(QString::fromLatin1(w->metaObject()->className()));
    return path.join(QLatin1Char('/'));
}

bool wrapsItemText(const QAbstractItemView *view)
{
    if (const auto *list = qobject_cast<const QListView *>(view))
        return list->wordWrap();
    if (const auto *tree = qobject_cast<const QTreeView *>(view))
        return tree->wordWrap();
    if (const auto *table = qobject_cast<const QTableView *>(view))
        return table->wordWrap();
    return false;
}

bool reallyVisible(const QWidget *w)
{
    return w->isVisible() && !w->visibleRegion().isEmpty() && w->width() > 0 && w->height() > 0;
}

void auditLabel(const QLabel *label, QJsonArray *cut, int *checked)
{
    const QString text = label->text();
    if (text.isEmpty() || label->wordWrap() || Qt::mightBeRichText(text) || !reallyVisible(label))
        return;
    ++*checked;
    const int needed = label->fontMetrics().horizontalAdvance(text);
    if (needed > label->contentsRect().width() + 1 && label->toolTip().isEmpty())
        cut->append(QJsonObject{{QStringLiteral("where"), describe(label)}, {QStringLiteral("text"), text.left(120)}});
}

void auditView(const QAbstractItemView *view, QJsonArray *cut, int *checked)
{
    const QAbstractItemModel *model = view->model();
    if (!model || !reallyVisible(view))
        return;
    const QRect viewport = view->viewport()->rect();
    const QFontMetrics fm(view->font());
    int seen = 0;
    // Walk the rows on screen, top to bottom (children of expanded tree rows included).
    for (int y = 1; y < viewport.height() && seen < kMaxItemsPerView;) {
        const QModelIndex row = view->indexAt(QPoint(viewport.left() + 1, y));
        if (!row.isValid())
            break;
        const QRect rowRect = view->visualRect(row);
        for (int c = 0; c < model->columnCount(row.parent()); ++c) {
            const QModelIndex cell = row.siblingAtColumn(c);
            const QRect r = view->visualRect(cell);
            if (!r.isValid() || !r.intersects(viewport))
                continue;
            const QString text = cell.data(Qt::DisplayRole).toString();
            if (text.isEmpty())
                continue;
            ++seen;
            ++*checked;
            int available = std::min(r.right(), viewport.right()) - r.left() - 8; // the item's margins
            if (!cell.data(Qt::DecorationRole).isNull())
                available -= view->iconSize().isValid() ? view->iconSize().width() + 4 : 20;
            const QString firstLine = text.section(QLatin1Char('\n'), 0, 0);
            const bool wraps = wrapsItemText(view) && r.height() > fm.height() * 1.5;
            if (!wraps && fm.horizontalAdvance(firstLine) > available && cell.data(Qt::ToolTipRole).toString().isEmpty())
                cut->append(QJsonObject{{QStringLiteral("where"), describe(view)}, {QStringLiteral("text"), text.left(120)}});
        }
        y = std::max(y + 1, rowRect.bottom() + 2);
    }
}

} // namespace

QJsonObject auditLayout(QWidget *window)
{
    QJsonArray narrow, cut;
    int checked = 0;
    for (const QDockWidget *dock : window->findChildren<QDockWidget *>()) {
        if (!reallyVisible(dock) || dock->isFloating() || !dock->widget())
            continue;
        const QSize minimum = dock->widget()->minimumSizeHint();
        const QSize has = dock->widget()->size();
        if (has.width() + 1 < minimum.width() || has.height() + 1 < minimum.height())
            narrow.append(QJsonObject{{QStringLiteral("dock"), dock->windowTitle()},
                                      {QStringLiteral("size"), QStringLiteral("%1x%2").arg(has.width()).arg(has.height())},
                                      {QStringLiteral("minimum"), QStringLiteral("%1x%2").arg(minimum.width()).arg(minimum.height())}});
    }
    for (const QLabel *label : window->findChildren<QLabel *>())
        auditLabel(label, &cut, &checked);
    for (const QAbstractItemView *view : window->findChildren<QAbstractItemView *>())
        auditView(view, &cut, &checked);
    if (auto *main = qobject_cast<QMainWindow *>(window)) {
        const QStatusBar *bar = main->statusBar();
        const QString message = bar->currentMessage();
        if (!message.isEmpty()) {
            ++checked;
            if (bar->fontMetrics().horizontalAdvance(message) > bar->width() - 12 && bar->toolTip() != message)
                cut.append(QJsonObject{{QStringLiteral("where"), QStringLiteral("status bar")}, {QStringLiteral("text"), message.left(120)}});
        }
    }
    return QJsonObject{{QStringLiteral("narrowDocks"), narrow}, {QStringLiteral("cutTexts"), cut}, {QStringLiteral("checkedTexts"), checked}};
}

QJsonObject auditResultShown(QMainWindow *window, const QString &dockObjectName, const QString &message)
{
    const auto *dock = window->findChild<QDockWidget *>(dockObjectName);
    const QString status = window->statusBar()->currentMessage();
    return QJsonObject{{QStringLiteral("dock"), dockObjectName},
                       {QStringLiteral("inFront"), ResultPresenter::isInFront(dock)},
                       {QStringLiteral("message"), message},
                       {QStringLiteral("statusBar"), status},
                       {QStringLiteral("repeated"), !message.isEmpty() && status == message}};
}

} // namespace folio
