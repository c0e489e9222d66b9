// Help that is there (issue 34): Help > Keyboard Shortcuts lists every key the README names and
// every shortcut the menus carry; Help > About names the shipped models and their licences.
#include "ui/aboutdialog.h"
#include "ui/training/modelchooserdialog.h"
#include "ui/mainwindow.h"
#include "ui/shortcutsdialog.h"
#include "tests/common/testdata.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTableWidget>
#include <QPushButton>
#include <QTest>
#include <QTreeWidget>

using namespace folio;

namespace {

// Every "keys" cell split into single keys: "Alt+Left / Alt+Right" -> Alt+Left, Alt+Right.
QStringList listedKeys()
{
    QStringList keys;
    static const QRegularExpression split(QStringLiteral("\\s*(?: / | or )\\s*"));
    for (const ShortcutEntry &e : keyboardShortcuts())
        for (const QString &k : e.keys.split(split))
            keys << k.trimmed();
    return keys;
}

// The README's GUI sections: from "## The GUI in one minute" up to "## Teams".
QString readmeGuiText()
{
    QFile f(QStringLiteral(FOLIO_SOURCE_DIR "/README.md"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QString text = QString::fromUtf8(f.readAll());
    const qsizetype from = text.indexOf(QLatin1String("## The GUI in one minute"));
    const qsizetype to = text.indexOf(QLatin1String("## Teams"), from);
    return from < 0 || to < 0 ? QString() : text.mid(from, to - from);
}

} // namespace

class TestHelpDialogs : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("FOLIO_NO_DIALOGS", "1");
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_helpdialogs"));
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QDir().mkpath(QStringLiteral(FOLIO_BINARY_DIR "/screenshots"));
    }

    void everyReadmeKeyIsListed()
    {
        const QString readme = readmeGuiText();
        QVERIFY2(readme.size() > 2000, "README.md has no GUI section between \"## The GUI in one minute\" and \"## Teams\"");
        const QStringList keys = listedKeys();
        // Combinations and named keys, as the README writes them (F1 alone is a score there, not a key).
        static const QRegularExpression combo(QStringLiteral(
            "\\b(?:(?:Ctrl|Alt|Shift)\\+)+(?:[A-Z][a-z]*|[0-9]|F[0-9]+|wheel)\\b|\\b(?:F[2-9]|PageDown|PageUp|Insert|Delete)\\b"));
        QStringList found;
        for (auto it = combo.globalMatch(readme); it.hasNext();) {
            const QString key = it.next().captured(0);
            if (!found.contains(key))
                found << key;
            QVERIFY2(keys.contains(key), qPrintable(QStringLiteral("README key %1 is not in Help > Keyboard Shortcuts").arg(key)));
        }
        QVERIFY2(found.size() >= 15, qPrintable(found.join(QLatin1Char(' '))));
        // Single keys the README names in words.
        for (const char *k : {"1-9", "F", "A", "R", "U", "E", "Shift+E", "G", "Shift+A", "Tab", "Shift+Tab", "Click"})
            QVERIFY2(keys.contains(QLatin1String(k)), k);
    }

    void everyMenuShortcutIsListed()
    {
        MainWindow w;
        const QStringList keys = listedKeys();
        int checked = 0;
        for (QAction *a : w.findChildren<QAction *>()) {
            for (const QKeySequence &seq : a->shortcuts()) {
                // Qt writes PgDown / PgUp where the README (and the table) says PageDown / PageUp.
                const QString key = seq.toString(QKeySequence::PortableText)
                                        .replace(QLatin1String("PgDown"), QLatin1String("PageDown"))
                                        .replace(QLatin1String("PgUp"), QLatin1String("PageUp"));
                QVERIFY2(keys.contains(key), qPrintable(QStringLiteral("%1 (%2) is not in Help > Keyboard Shortcuts").arg(key, a->text())));
                ++checked;
            }
        }
        QVERIFY2(checked >= 15, qPrintable(QString::number(checked)));
    }

    void helpMenuOpensTheTableAndItFilters()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *action = w.findChild<QAction *>(QStringLiteral("shortcutsAction"));
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(QKeySequence::HelpContents));
        action->trigger();
        auto *dialog = w.findChild<ShortcutsDialog *>();
        QVERIFY(dialog && dialog->isVisible());
        QVERIFY(!dialog->isModal());
        action->trigger(); // a second time: the same dialog, not two
        QCOMPARE(w.findChildren<ShortcutsDialog *>().size(), 1);
        QTableWidget *table = dialog->table();
        QCOMPARE(table->rowCount(), int(keyboardShortcuts().size()));
        QCOMPARE(table->columnCount(), 3);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        // Nothing cut: the keys column is as wide as its longest entry.
        for (int r = 0; r < table->rowCount(); ++r)
            QVERIFY2(table->columnWidth(0) >= table->fontMetrics().horizontalAdvance(table->item(r, 0)->text()),
                     qPrintable(table->item(r, 0)->text()));
        QVERIFY(dialog->grab().save(QStringLiteral(FOLIO_BINARY_DIR "/screenshots/shortcuts.png")));
        auto *filter = dialog->findChild<QLineEdit *>(QStringLiteral("shortcutsFilter"));
        QVERIFY(filter);
        filter->setText(QStringLiteral("attention"));
        int shown = 0;
        for (int r = 0; r < table->rowCount(); ++r)
            shown += table->isRowHidden(r) ? 0 : 1;
        QVERIFY(shown >= 4 && shown < 10); // Show Attention + the heatmap's keys
        dialog->close();
    }

    void chooseModelOffersTheShippedTaggersWithTheirLicences()
    {
        const QString reading = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout-reading");
        ModelChooserDialog dialog(reading);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto *list = dialog.findChild<QTreeWidget *>(QStringLiteral("modelList"));
        QVERIFY(list);
        QStringList names;
        for (int i = 0; i < list->topLevelItemCount(); ++i)
            names << list->topLevelItem(i)->text(0);
        for (const ShippedModelInfo &m : shippedModelInfos())
            QCOMPARE(names.contains(m.name), m.tagger); // taggers only: no web-field or QS model here
        QVERIFY(names.contains(QStringLiteral("funsd-layout")) && names.contains(QStringLiteral("sroie-receipts")));
        // The current model is selected, its licence spelled out beneath the list.
        QCOMPARE(list->currentItem()->text(0), QStringLiteral("funsd-layout-reading"));
        auto *licence = dialog.findChild<QLabel *>(QStringLiteral("modelLicence"));
        QVERIFY(licence && licence->text().contains(QStringLiteral("non-commercial")));
        QCOMPARE(list->currentItem()->text(3), QStringLiteral("non-commercial only"));
        QVERIFY(dialog.grab().save(QStringLiteral(FOLIO_BINARY_DIR "/screenshots/choose-model.png")));
        QVERIFY(dialog.selectModel(QStringLiteral("funsd-layout")));
        QVERIFY(!dialog.selectModel(QStringLiteral("product-fields")));
        auto *buttons = dialog.findChild<QDialogButtonBox *>();
        buttons->button(QDialogButtonBox::Ok)->click();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(QDir(dialog.chosenDirectory()).canonicalPath(),
                 QDir(QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout")).canonicalPath());
    }

    void aboutNamesTheShippedModelsAndLicences()
    {
        const QList<ShippedModelInfo> models = shippedModelInfos();
        QStringList names;
        for (const ShippedModelInfo &m : models) {
            names << m.name;
            QVERIFY2(QFile::exists(QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/") + m.name + QLatin1Char('/') + m.marker),
                     qPrintable(m.name));
        }
        QCOMPARE(names, QStringList({QStringLiteral("funsd-layout-reading"), QStringLiteral("funsd-layout"),
                                     QStringLiteral("forms-en-de-reading"), QStringLiteral("forms-en-de"),
                                     QStringLiteral("forms-en-de-ensemble"), QStringLiteral("forms-en-de-reading-ensemble"),
                                     QStringLiteral("sroie-receipts"),
                                     QStringLiteral("product-fields"), QStringLiteral("qs-drafter"), QStringLiteral("qmsum-qs"),
                                     QStringLiteral("qs-questions")}));
        AboutDialog dialog;
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto *label = dialog.findChild<QLabel *>(QStringLiteral("aboutText"));
        QVERIFY(label);
        const QString text = label->text();
        for (const QString &name : names)
            QVERIFY2(text.contains(QStringLiteral("<b>%1</b>").arg(name)), qPrintable(name));
        QVERIFY(text.contains(QLatin1String("non-commercial research")));
        QVERIFY(text.contains(QLatin1String("MIT licence (c) 2021 Zyte")));
        QVERIFY(text.contains(QLatin1String("MIT licence (c) 2021 Yale-LILY")));
        QVERIFY(text.contains(QLatin1String("CC BY 4.0")));
        QVERIFY(text.contains(QLatin1String("CC BY-NC-SA 4.0")) && text.contains(QLatin1String("SROIE")));
        QVERIFY(!text.contains(QLatin1String("not installed"))); // a build run from its checkout finds them all
        QVERIFY(dialog.grab().save(QStringLiteral(FOLIO_BINARY_DIR "/screenshots/about-models.png")));
    }
};

FOLIO_TEST_MAIN(TestHelpDialogs)
#include "tst_helpdialogs.moc"
