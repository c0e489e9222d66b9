// Keys the user chooses and the command palette (issue 50), in Folio's real window:
//  - Settings > Keyboard Shortcuts: a key typed into the editor becomes the action's key on OK and
//    works on the window; two actions on one key are both marked and OK is refused; reset one / all;
//    the keys are saved per user and a new window starts with them (defaults still known);
//  - Help > Find Action (Ctrl+Shift+P): the filter narrows the enabled actions by the text they show
//    (a German text included), Enter runs the chosen one (a checkable action toggles), Esc closes,
//    disabled actions are not offered.
// Screenshots of both go to <build>/screenshots/ (run under Xvfb with QT_QPA_PLATFORM=xcb to see them
// as a user would).
#include "tests/common/testdata.h"
#include "ui/commands/commandpalette.h"
#include "ui/commands/shortcuteditordialog.h"
#include "ui/commands/shortcutsettings.h"
#include "ui/mainwindow.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QDir>
#include <QKeySequenceEdit>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTreeWidget>
#include <QtTest>

using namespace folio;

namespace {

QAction *actionShown(const MainWindow &w, const QString &text)
{
    const QList<QAction *> all = ShortcutSettings::actions(&w);
    for (QAction *a : all)
        if (ShortcutSettings::displayText(a) == text)
            return a;
    return nullptr;
}

QAction *actionNamed(const MainWindow &w, const char *name)
{
    return w.findChild<QAction *>(QLatin1String(name));
}

const QKeySequence kNewKey(Qt::CTRL | Qt::ALT | Qt::Key_K);

void saveShot(QWidget *widget, const QString &name)
{
    QDir().mkpath(QStringLiteral(FOLIO_BINARY_DIR "/screenshots"));
    QVERIFY(widget->grab().save(QStringLiteral(FOLIO_BINARY_DIR "/screenshots/") + name));
}

} // namespace

class TestKeyboardCommands : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("FOLIO_NO_DIALOGS", "1");
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_keyboardcommands"));
        QStandardPaths::setTestModeEnabled(true);
    }

    void init() { QSettings().clear(); }

    void settingsMenuListsEveryMenuAction()
    {
        MainWindow w;
        QMenu *settings = w.menuBar()->findChild<QMenu *>(QStringLiteral("settingsMenu"));
        QVERIFY(settings);
        QVERIFY(settings->actions().contains(actionNamed(w, "editShortcutsAction")));
        ShortcutEditorDialog dialog(&w);
        const QList<QAction *> actions = ShortcutSettings::actions(&w);
        QVERIFY2(actions.size() >= 30, qPrintable(QString::number(actions.size())));
        QCOMPARE(dialog.table()->rowCount(), actions.size());
        QAction *suggest = actionShown(w, QStringLiteral("Suggest Labels"));
        QVERIFY(suggest);
        const int row = dialog.rowOf(suggest);
        QVERIFY(row >= 0);
        QCOMPARE(ShortcutSettings::menuPath(suggest), QStringLiteral("Model"));
        QCOMPARE(ShortcutSettings::menuPath(actionNamed(w, "int8Action")), QStringLiteral("Model"));
        QVERIFY(dialog.table()->item(row, ShortcutEditorDialog::ActionColumn)->text().contains(QLatin1String("Model")));
        QCOMPARE(dialog.table()->item(row, ShortcutEditorDialog::KeysColumn)->text(), QKeySequence(Qt::CTRL | Qt::Key_R).toString(QKeySequence::NativeText));
        QCOMPARE(dialog.table()->item(row, ShortcutEditorDialog::DefaultColumn)->text(), QKeySequence(Qt::CTRL | Qt::Key_R).toString(QKeySequence::NativeText));
        QCOMPARE(actionNamed(w, "commandPaletteAction")->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
        // The recent files are rebuilt at run time: they get no keys of their own.
        for (QAction *a : actions)
            QVERIFY2(a->text() != QLatin1String("(none)"), "Open Recent's entries are not listed");
        // No two actions share a default key.
        QList<QList<QKeySequence>> keys;
        for (QAction *a : actions)
            keys << a->shortcuts();
        QVERIFY(ShortcutSettings::conflicts(keys).isEmpty());
    }

    void typedKeyIsAppliedAndWorks()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QAction *int8 = actionNamed(w, "int8Action");
        QVERIFY(int8 && int8->shortcut().isEmpty());
        {
            ShortcutEditorDialog dialog(&w);
            const int row = dialog.rowOf(int8);
            dialog.table()->setCurrentCell(row, 0);
            dialog.keyEdit()->setFocus();
            QTest::keyClick(dialog.keyEdit(), Qt::Key_K, Qt::ControlModifier | Qt::AltModifier);
            // QKeySequenceEdit waits a second for a second chord before it reports the key.
            QTRY_COMPARE(dialog.pendingKeys(row), QList<QKeySequence>{kNewKey});
            QCOMPARE(dialog.keyEdit()->keySequence(), kNewKey);
            QVERIFY(int8->shortcut().isEmpty()); // pending until OK
            QVERIFY(dialog.table()->item(row, ShortcutEditorDialog::KeysColumn)->font().bold());
            dialog.accept();
            QCOMPARE(dialog.result(), int(QDialog::Accepted));
        }
        QCOMPARE(int8->shortcut(), kNewKey);
        // The new key runs the action on the window.
        w.activateWindow();
        QTRY_VERIFY(w.isActiveWindow());
        const bool before = int8->isChecked();
        QTest::keyClick(&w, Qt::Key_K, Qt::ControlModifier | Qt::AltModifier);
        QTRY_COMPARE(int8->isChecked(), !before);
    }

    void conflictsAreMarkedAndRefused()
    {
        MainWindow w;
        QAction *suggest = actionShown(w, QStringLiteral("Suggest Labels"));
        QAction *extract = actionShown(w, QStringLiteral("Extract Fields"));
        QVERIFY(suggest && extract);
        const QKeySequence extractKey = extract->shortcut();
        QVERIFY(!extractKey.isEmpty());
        ShortcutEditorDialog dialog(&w);
        const int s = dialog.rowOf(suggest), e = dialog.rowOf(extract);
        QVERIFY(dialog.conflictingRows().isEmpty());
        dialog.setPendingKeys(s, {extractKey});
        QCOMPARE(dialog.conflictingRows(), (QList<int>{qMin(s, e), qMax(s, e)}));
        QVERIFY(dialog.table()->item(s, 0)->toolTip().contains(QLatin1String("Extract Fields")));
        QVERIFY(dialog.table()->item(e, 0)->toolTip().contains(QLatin1String("Suggest Labels")));
        const int calm = (s == 0 || e == 0) ? ((s == 1 || e == 1) ? 2 : 1) : 0; // a row in no clash
        for (int r : {s, e})
            QCOMPARE(dialog.table()->item(r, ShortcutEditorDialog::KeysColumn)->background().color(), QColor(0xff, 0xd6, 0xd6));
        QCOMPARE(dialog.table()->item(calm, ShortcutEditorDialog::KeysColumn)->background().style(), Qt::NoBrush);
        QVERIFY(!dialog.table()->item(s, ShortcutEditorDialog::KeysColumn)->icon().isNull());
        QVERIFY(dialog.table()->item(calm, ShortcutEditorDialog::KeysColumn)->icon().isNull());
        auto *label = dialog.findChild<QLabel *>(QStringLiteral("shortcutEditorConflicts"));
        QVERIFY(label && label->text().contains(QLatin1String("Suggest Labels")) && label->text().contains(QLatin1String("Extract Fields")));
        auto *buttons = dialog.findChild<QDialogButtonBox *>();
        QVERIFY(!buttons->button(QDialogButtonBox::Ok)->isEnabled());
        dialog.resize(900, 640);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        dialog.table()->setCurrentCell(s, 0);
        saveShot(&dialog, QStringLiteral("shortcut-editor-conflict.png"));
        dialog.hide();
        QVERIFY(!dialog.apply());
        QCOMPARE(suggest->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_R)); // nothing applied
        QVERIFY(!QSettings().contains(QStringLiteral("shortcuts/") + ShortcutSettings::id(suggest)));
        // Cleared on the other row: no clash, OK is back.
        dialog.setPendingKeys(e, {});
        QVERIFY(dialog.conflictingRows().isEmpty());
        QVERIFY(buttons->button(QDialogButtonBox::Ok)->isEnabled());
        QVERIFY(dialog.apply());
        QCOMPARE(suggest->shortcut(), extractKey);
        QVERIFY(extract->shortcut().isEmpty());
    }

    void resetOneAndAll()
    {
        MainWindow w;
        QAction *suggest = actionShown(w, QStringLiteral("Suggest Labels"));
        QAction *quit = actionShown(w, QStringLiteral("Quit"));
        QVERIFY(suggest && quit);
        const QList<QKeySequence> quitDefault = quit->shortcuts();
        ShortcutEditorDialog dialog(&w);
        const int s = dialog.rowOf(suggest), q = dialog.rowOf(quit);
        dialog.setPendingKeys(s, {kNewKey});
        dialog.setPendingKeys(q, {});
        dialog.resetRow(s);
        QCOMPARE(dialog.pendingKeys(s), QList<QKeySequence>{QKeySequence(Qt::CTRL | Qt::Key_R)});
        QVERIFY(dialog.pendingKeys(q).isEmpty());
        dialog.resetAll();
        QCOMPARE(dialog.pendingKeys(q), quitDefault);
        // Through the buttons too.
        dialog.setPendingKeys(s, {kNewKey});
        dialog.table()->setCurrentCell(s, 0);
        dialog.findChild<QPushButton *>(QStringLiteral("shortcutEditorReset"))->click();
        QCOMPARE(dialog.pendingKeys(s), QList<QKeySequence>{QKeySequence(Qt::CTRL | Qt::Key_R)});
        QCOMPARE(dialog.keyEdit()->keySequence(), QKeySequence(Qt::CTRL | Qt::Key_R));
    }

    void savedPerUserAndAppliedAtStart()
    {
        const QKeySequence quitKey(Qt::CTRL | Qt::ALT | Qt::Key_Q);
        {
            MainWindow w;
            QAction *suggest = actionShown(w, QStringLiteral("Suggest Labels"));
            QAction *quit = actionShown(w, QStringLiteral("Quit"));
            ShortcutEditorDialog dialog(&w);
            dialog.setPendingKeys(dialog.rowOf(suggest), {kNewKey});
            dialog.setPendingKeys(dialog.rowOf(quit), {quitKey});
            QVERIFY(dialog.apply());
        }
        QSettings().sync();
        QList<QKeySequence> suggestDefault;
        {
            MainWindow w;
            QAction *suggest = actionShown(w, QStringLiteral("Suggest Labels"));
            QCOMPARE(suggest->shortcut(), kNewKey);
            QCOMPARE(actionShown(w, QStringLiteral("Quit"))->shortcut(), quitKey);
            suggestDefault = ShortcutSettings::defaults(suggest);
            QCOMPARE(suggestDefault, QList<QKeySequence>{QKeySequence(Qt::CTRL | Qt::Key_R)});
            ShortcutEditorDialog dialog(&w);
            dialog.resetAll();
            QVERIFY(dialog.apply());
            QCOMPARE(suggest->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_R));
            // Keys equal to the defaults leave no entry behind.
            QSettings settings;
            settings.beginGroup(QStringLiteral("shortcuts"));
            QVERIFY2(settings.childKeys().isEmpty(), qPrintable(settings.childKeys().join(QLatin1Char(','))));
        }
        MainWindow w;
        QCOMPARE(actionShown(w, QStringLiteral("Suggest Labels"))->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_R));
        QCOMPARE(actionShown(w, QStringLiteral("Quit"))->shortcuts(), QKeySequence::keyBindings(QKeySequence::Quit));
    }

    void paletteFiltersAndTriggers()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.activateWindow();
        QTRY_VERIFY(w.isActiveWindow());
        QAction *int8 = actionNamed(w, "int8Action");
        // The text as shown, in whatever language it is now.
        int8->setText(QStringLiteral("&Int8-Inferenz (schneller, genähert)"));
        QTest::keyClick(&w, Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
        auto *palette = w.findChild<CommandPalette *>();
        QVERIFY(palette);
        QTRY_VERIFY(palette->isVisible());
        const int all = int(palette->offered().size());
        QVERIFY(all >= 30);
        QVERIFY(palette->offered().contains(actionShown(w, QStringLiteral("Suggest Labels"))));
        QTRY_VERIFY(palette->filter()->hasFocus());
        QTest::keyClicks(palette->filter(), QStringLiteral("inferenz schnell"));
        QCOMPARE(palette->offered(), QList<QAction *>{int8});
        const bool before = int8->isChecked();
        QTest::keyClick(palette->filter(), Qt::Key_Return);
        QCOMPARE(int8->isChecked(), !before);
        QVERIFY(!palette->isVisible());

        // A word of the menu narrows too; keys are shown.
        palette->popup();
        QCOMPARE(palette->filter()->text(), QString());
        QTest::keyClicks(palette->filter(), QStringLiteral("suggest labels"));
        QCOMPARE(palette->offered(), QList<QAction *>{actionShown(w, QStringLiteral("Suggest Labels"))});
        QTreeWidgetItem *row = palette->list()->currentItem();
        QVERIFY(row);
        QCOMPARE(row->text(2), QKeySequence(Qt::CTRL | Qt::Key_R).toString(QKeySequence::NativeText));
        palette->filter()->clear();
        QTest::keyClicks(palette->filter(), QStringLiteral("model"));
        QVERIFY(palette->offered().size() < all);
        saveShot(palette, QStringLiteral("command-palette.png"));
        // Esc closes without running anything.
        QTest::keyClick(palette->filter(), Qt::Key_Escape);
        QVERIFY(!palette->isVisible());
        QCOMPARE(int8->isChecked(), !before);
        // Nothing matches: Enter runs nothing.
        palette->popup();
        QTest::keyClicks(palette->filter(), QStringLiteral("zzqqxx"));
        QVERIFY(palette->offered().isEmpty());
        QVERIFY(!palette->triggerCurrent());
    }

    void disabledActionsAreNotOffered()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QAction *int8 = actionNamed(w, "int8Action");
        auto *palette = w.findChild<CommandPalette *>();
        QVERIFY(palette);
        palette->popup();
        QVERIFY(palette->offered().contains(int8));
        int8->setEnabled(false);
        palette->popup();
        QVERIFY(!palette->offered().contains(int8));
        // And every offered action is enabled (the window's own disabled ones, e.g. Undo with no edit).
        const QList<QAction *> offered = palette->offered();
        for (QAction *a : offered)
            QVERIFY2(a->isEnabled(), qPrintable(a->text()));
        int disabled = 0;
        for (QAction *a : ShortcutSettings::actions(&w))
            disabled += a->isEnabled() ? 0 : 1;
        QCOMPARE(int(offered.size()), int(ShortcutSettings::actions(&w).size()) - disabled);
        palette->hide();
    }
};

FOLIO_TEST_MAIN(TestKeyboardCommands)
#include "tst_keyboardcommands.moc"
