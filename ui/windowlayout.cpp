#include "ui/windowlayout.h"

#include <QMainWindow>
#include <QSettings>
#include <QSplitter>

namespace folio::windowlayout {

namespace {

const QString kGeometry = QStringLiteral("mainWindow/geometry");
const QString kState = QStringLiteral("mainWindow/state");
const QString kVersion = QStringLiteral("mainWindow/layoutVersion");
const QString kSplitters = QStringLiteral("mainWindow/splitters/");

QString step(const QObject *o)
{
    if (!o->objectName().isEmpty())
        return o->objectName();
    const QObject *parent = o->parent();
    int index = 0;
    if (parent) {
        for (const QObject *sibling : parent->children()) {
            if (sibling == o)
                break;
            if (sibling->metaObject() == o->metaObject() && sibling->objectName().isEmpty())
                ++index;
        }
    }
    return QStringLiteral("%1#%2").arg(QString::fromLatin1(o->metaObject()->className())).arg(index);
}

} // namespace

QString splitterKey(const QSplitter *splitter, const QWidget *root)
{
    QStringList parts;
    for (const QObject *o = splitter; o && o != root; o = o->parent())
        parts.prepend(step(o));
    parts.prepend(step(root));
    // QSettings treats '/' as a group separator: keep the key one level deep.
    return parts.join(QLatin1Char('|'));
}

void save(QMainWindow *window)
{
    QSettings s;
    s.setValue(kGeometry, window->saveGeometry());
    s.setValue(kState, window->saveState(kStateVersion));
    s.setValue(kVersion, kStateVersion);
    for (const QSplitter *split : window->findChildren<QSplitter *>())
        s.setValue(kSplitters + splitterKey(split, window), split->saveState());
}

bool restore(QMainWindow *window)
{
    QSettings s;
    if (s.value(kVersion).toInt() != kStateVersion)
        return false; // nothing saved, or an older layout: the defaults apply
    window->restoreGeometry(s.value(kGeometry).toByteArray());
    const bool ok = window->restoreState(s.value(kState).toByteArray(), kStateVersion);
    for (QSplitter *split : window->findChildren<QSplitter *>()) {
        const QByteArray state = s.value(kSplitters + splitterKey(split, window)).toByteArray();
        if (!state.isEmpty())
            split->restoreState(state);
    }
    return ok;
}

void resetSplitters(QWidget *root)
{
    for (QSplitter *split : root->findChildren<QSplitter *>()) {
        QList<int> sizes;
        for (int i = 0; i < split->count(); ++i) {
            const QSize hint = split->widget(i)->sizeHint().expandedTo(QSize(1, 1));
            sizes << (split->orientation() == Qt::Horizontal ? hint.width() : hint.height());
        }
        split->setSizes(sizes);
    }
}

void clear()
{
    QSettings s;
    s.remove(kGeometry);
    s.remove(kState);
    s.remove(kVersion);
    s.remove(QStringLiteral("mainWindow/splitters"));
}

} // namespace folio::windowlayout
