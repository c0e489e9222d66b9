// Accessible names (issue 50): every interactive widget of the main window — in the central views,
// every dock (shown or not), the status bar — and every menu action has a name a screen reader
// speaks: the widget's accessibleName or the visible text Qt's accessibility layer reports (a
// button's text, a label buddy). The names are read through QAccessible, as an assistive tool would.
#include "tests/common/testdata.h"
#include "document/project/project.h"
#include "pipeline/webfieldset.h"
#include "ui/aboutdialog.h"
#include "ui/commands/shortcuteditordialog.h"
#include "ui/fields/fieldsetdialog.h"
#include "ui/fields/fieldtrainingdialog.h"
#include "ui/mainwindow.h"
#include "ui/shortcutsdialog.h"
#include "ui/training/datasetdialog.h"
#include "ui/training/hubdownloaddialog.h"
#include "ui/training/modelchooserdialog.h"
#include "ui/training/trainingdialog.h"
#include "widgets/heatmapview.h"
#include "widgets/pagecanvas.h"
#include "ui/attention/headgridview.h"
#include "ui/attention/imagepatchcanvas.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextEdit>

#include <functional>

using namespace folio;

namespace {

bool isInteractive(const QWidget *w)
{
    if (qobject_cast<const QScrollBar *>(w))
        return false; // Qt names scroll bars by their orientation
    return qobject_cast<const QAbstractButton *>(w) || qobject_cast<const QLineEdit *>(w)
        || qobject_cast<const QComboBox *>(w) || qobject_cast<const QAbstractItemView *>(w)
        || qobject_cast<const QAbstractSlider *>(w) || qobject_cast<const QAbstractSpinBox *>(w)
        || qobject_cast<const QTextEdit *>(w) || qobject_cast<const QPlainTextEdit *>(w)
        || qobject_cast<const PageCanvas *>(w) || qobject_cast<const HeatmapView *>(w)
        || qobject_cast<const HeadGridView *>(w) || qobject_cast<const ImagePatchCanvas *>(w);
}

// Parts Qt builds inside a widget and names itself (a combo box's line edit, a spin box's, the
// dock title bar buttons, a tab bar's scroll buttons, a view's headers, a line edit's clear button).
bool isQtInternal(const QWidget *w)
{
    for (const QWidget *p = w; p; p = p->parentWidget()) {
        if (p->objectName().startsWith(QLatin1String("qt_")))
            return true;
        if (p != w && (qobject_cast<const QComboBox *>(p) || qobject_cast<const QAbstractSpinBox *>(p)
                       || qobject_cast<const QTabBar *>(p) || qobject_cast<const QAbstractItemView *>(p)
                       || qobject_cast<const QLineEdit *>(p)))
            return true;
    }
    return false;
}

QString where(const QWidget *w)
{
    QStringList chain;
    for (const QWidget *p = w; p; p = p->parentWidget())
        chain.prepend(QStringLiteral("%1(%2)").arg(QLatin1String(p->metaObject()->className()), p->objectName()));
    return chain.join(QStringLiteral(" > "));
}

QString spokenName(QWidget *w)
{
    QAccessibleInterface *iface = QAccessible::queryAccessibleInterface(w);
    return iface ? iface->text(QAccessible::Name).trimmed() : QString();
}

// The interactive widgets under `root` that a screen reader would announce without a name.
QStringList unnamedIn(QWidget *root, int *checked)
{
    QStringList unnamed;
    for (QWidget *widget : root->findChildren<QWidget *>()) {
        if (!isInteractive(widget) || isQtInternal(widget))
            continue;
        ++*checked;
        if (spokenName(widget).isEmpty())
            unnamed << where(widget);
    }
    for (const QString &u : unnamed) // QTest cuts a long failure message: each one in full
        qWarning("no accessible name: %s", qPrintable(u));
    return unnamed;
}

} // namespace

class TestAccessibleNames : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("FOLIO_NO_DIALOGS", "1");
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_accessiblenames"));
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void everyInteractiveWidgetHasAName()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        int checked = 0;
        const QStringList unnamed = unnamedIn(&w, &checked);
        QVERIFY2(checked > 20, qPrintable(QString::number(checked)));
        QVERIFY2(unnamed.isEmpty(), qPrintable(QStringLiteral("%1 of %2 interactive widgets have no accessible name:\n  ")
                                                  .arg(unnamed.size()).arg(checked)
                                               + unnamed.join(QStringLiteral("\n  "))));
        // The custom views also say what they are for.
        for (const char *name : {"pageCanvas"}) {
            auto *view = w.findChild<QWidget *>(QLatin1String(name));
            QVERIFY2(view, name);
            QVERIFY2(!view->accessibleDescription().isEmpty(), name);
        }
    }

    void everyDialogWidgetHasAName()
    {
        QTemporaryDir dir;
        QString error;
        auto project = Project::create(dir.filePath(QStringLiteral("names.folio")), &error);
        QVERIFY2(project, qPrintable(error));
        MainWindow w;
        std::vector<std::unique_ptr<QWidget>> dialogs;
        dialogs.emplace_back(new AboutDialog);
        dialogs.emplace_back(new ShortcutsDialog);
        dialogs.emplace_back(new ShortcutEditorDialog(&w));
        dialogs.emplace_back(new ModelChooserDialog(QString()));
        dialogs.emplace_back(new HubDownloadDialog);
        dialogs.emplace_back(new DatasetDialog(DatasetDialog::Direction::Import, project->path()));
        dialogs.emplace_back(new DatasetDialog(DatasetDialog::Direction::Export, project->path()));
        dialogs.emplace_back(new TrainingDialog(project.get()));
        dialogs.emplace_back(new FieldSetDialog(pipeline::defaultProductFields()));
        dialogs.emplace_back(new FieldTrainingDialog(project.get(), pipeline::defaultProductFields()));
        int checked = 0;
        QStringList unnamed;
        for (const auto &d : dialogs)
            unnamed += unnamedIn(d.get(), &checked);
        QVERIFY2(checked > 30, qPrintable(QString::number(checked)));
        QVERIFY2(unnamed.isEmpty(), qPrintable(QStringLiteral("%1 of %2 interactive dialog widgets have no accessible name:\n  ")
                                                  .arg(unnamed.size()).arg(checked)
                                               + unnamed.join(QStringLiteral("\n  "))));
    }

    void everyMenuActionHasText()
    {
        MainWindow w;
        QStringList unnamed;
        int checked = 0;
        std::function<void(QMenu *, const QString &)> walk = [&](QMenu *menu, const QString &path) {
            for (QAction *a : menu->actions()) {
                if (a->isSeparator())
                    continue;
                ++checked;
                const QString text = QString(a->text()).remove(QLatin1Char('&')).trimmed();
                if (text.isEmpty())
                    unnamed << path + QStringLiteral(" > (action %1)").arg(a->objectName());
                if (a->menu())
                    walk(a->menu(), path + QStringLiteral(" > ") + text);
            }
        };
        for (QAction *top : w.menuBar()->actions())
            if (top->menu())
                walk(top->menu(), QString(top->text()).remove(QLatin1Char('&')));
        QVERIFY2(checked > 30, qPrintable(QString::number(checked)));
        QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(QLatin1Char('\n'))));
    }
};

FOLIO_TEST_MAIN(TestAccessibleNames)
#include "tst_accessiblenames.moc"
