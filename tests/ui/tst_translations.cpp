// Translations the Qt way (issue 50): every user-visible string of the GUI goes through tr(), the
// German catalogue (resources/translations/folio_de.ts) has every string of the sources translated
// and nothing left over, the built catalogue (:/i18n/folio_de.qm) turns the menus German with
// unique accelerators per menu, and the language follows the locale unless Settings > Language says.
#include "ui/i18n/language.h"
#include "ui/i18n/languagemenu.h"
#include "ui/mainwindow.h"
#include "ui/commands/shortcutsettings.h"
#include "tests/common/testdata.h"

#include <QAction>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

using namespace folio;

namespace {

const QStringList kTranslatedFolders = {QStringLiteral("ui"), QStringLiteral("widgets"), QStringLiteral("app/gui")};

// A string literal handed straight to a setter or constructor that shows it to the user, not
// through tr() / QCoreApplication::translate(): "file:line: call". Literals without two letters in
// a row (punctuation, "%1 / %2") are not words to translate.
QStringList untranslatedLiterals(const QString &text, const QString &file)
{
    static const QString setters = QStringLiteral(
        "(?:setText|setWindowTitle|setToolTip|setStatusTip|setWhatsThis|setPlaceholderText|showMessage|addMenu|"
        "addAction|setTitle|setLabelText|setHeaderLabels|setHorizontalHeaderLabels|addTab|insertTab|setTabText|"
        "setSuffix|setPrefix|setSpecialValueText|setAccessibleName|setAccessibleDescription|addItem|setInformativeText|"
        "setDetailedText|addRow|setButtonText|setHtml|setMarkdown|setFormat|setCheckBoxText)");
    static const QString widgets = QStringLiteral(
        "(?:QAction|QLabel|QPushButton|QCheckBox|QRadioButton|QGroupBox|QToolButton|QMenu|QDockWidget|QCommandLinkButton)");
    static const QString literal = QStringLiteral(
        "(?:QStringLiteral\\(|QLatin1String\\(|QLatin1StringView\\(|QString\\(|QString::fromUtf8\\(|u8?)?\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    static const QList<QRegularExpression> patterns = {
        QRegularExpression(QStringLiteral("\\b") + setters + QStringLiteral("\\(\\s*") + literal),
        QRegularExpression(QStringLiteral("\\bnew\\s+") + widgets + QStringLiteral("\\(\\s*") + literal),
        QRegularExpression(QStringLiteral("\\b") + widgets + QStringLiteral("\\s+\\w+\\(\\s*") + literal),
        QRegularExpression(QStringLiteral("QMessageBox::(?:warning|information|critical|question|about)\\(\\s*[^,;]+,\\s*") + literal),
        QRegularExpression(QStringLiteral("QMessageBox::(?:warning|information|critical|question|about)\\(\\s*[^,;]+,\\s*[^,;]+,\\s*") + literal),
        QRegularExpression(QStringLiteral("Q(?:Input|File)Dialog::get\\w+\\(\\s*[^,;]+,\\s*") + literal),
    };
    static const QRegularExpression word(QStringLiteral("[A-Za-z]{2}"));
    QStringList found;
    for (const QRegularExpression &re : patterns) {
        for (auto it = re.globalMatch(text); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            if (!word.match(m.captured(1)).hasMatch())
                continue;
            const int line = int(text.left(m.capturedStart()).count(QLatin1Char('\n'))) + 1;
            found << QStringLiteral("%1:%2: %3").arg(file).arg(line).arg(m.captured(0).simplified().left(120));
        }
    }
    return found;
}

// What may stay English, each with its reason: identifiers and document metadata, not interface.
struct Allowed {
    const char *file;
    const char *literal;
};
const Allowed kAllowed[] = {
    {"ui/training/hubdownloaddialog.cpp", "microsoft/layoutlmv3-base"}, // an example repo id
    {"ui/training/hubdownloaddialog.cpp", "\"main\""},                  // a git revision name
    {"ui/sampleproject.cpp", "Folio — README"},                         // the sample PDF's title metadata
};

bool allowed(const QString &finding)
{
    for (const Allowed &a : kAllowed)
        if (finding.startsWith(QLatin1String(a.file)) && finding.contains(QString::fromUtf8(a.literal)))
            return true;
    return false;
}

struct CatalogueEntry {
    QString context, source, type;
    QStringList translations; // one, or the numerus forms
    bool numerus = false;
};

QList<CatalogueEntry> readCatalogue(const QString &path, QString *error)
{
    QList<CatalogueEntry> entries;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = path + QStringLiteral(": cannot read the catalogue (") + file.errorString() + QLatin1Char(')');
        return entries;
    }
    QXmlStreamReader xml(&file);
    QString context;
    CatalogueEntry current;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto name = xml.name();
            if (name == QLatin1String("context"))
                context.clear();
            else if (name == QLatin1String("name") && context.isEmpty())
                context = xml.readElementText();
            else if (name == QLatin1String("message")) {
                current = CatalogueEntry();
                current.context = context;
                current.numerus = xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
            } else if (name == QLatin1String("source"))
                current.source = xml.readElementText();
            else if (name == QLatin1String("translation")) {
                current.type = xml.attributes().value(QLatin1String("type")).toString();
                if (!current.numerus)
                    current.translations << xml.readElementText();
            } else if (name == QLatin1String("numerusform"))
                current.translations << xml.readElementText();
        } else if (xml.isEndElement() && xml.name() == QLatin1String("message")) {
            entries << current;
        }
    }
    if (xml.hasError())
        *error = QStringLiteral("%1:%2: %3").arg(path).arg(xml.lineNumber()).arg(xml.errorString());
    return entries;
}

QString lupdatePath()
{
#ifdef FOLIO_LUPDATE
    if (QFileInfo::exists(QStringLiteral(FOLIO_LUPDATE)))
        return QStringLiteral(FOLIO_LUPDATE);
#endif
    return QStandardPaths::findExecutable(QStringLiteral("lupdate"), {QStringLiteral("/usr/lib/qt6/bin")});
}

QString catalogueSource()
{
    return QStringLiteral(FOLIO_SOURCE_DIR "/resources/translations/folio_de.ts");
}

// Accelerator letters of a menu's visible actions that more than one action uses.
QStringList clashingAccelerators(QMenu *menu)
{
    QHash<QChar, QStringList> byKey;
    for (QAction *a : menu->actions()) {
        if (a->isSeparator() || !a->isVisible())
            continue;
        const QString t = a->text();
        for (qsizetype i = 0; i + 1 < t.size(); ++i) {
            if (t[i] != QLatin1Char('&'))
                continue;
            if (t[i + 1] == QLatin1Char('&')) {
                ++i;
                continue;
            }
            byKey[t[i + 1].toLower()] << t;
            break;
        }
    }
    QStringList clashes;
    for (auto it = byKey.cbegin(); it != byKey.cend(); ++it)
        if (it.value().size() > 1)
            clashes << QStringLiteral("%1 in %2: %3").arg(it.key(), menu->title(), it.value().join(QLatin1String(", ")));
    if (!clashes.isEmpty()) { // the whole menu, to choose a free letter
        QStringList all;
        for (QAction *a : menu->actions())
            if (!a->isSeparator() && a->isVisible())
                all << a->text();
        clashes << QStringLiteral("  (%1 holds: %2)").arg(menu->title(), all.join(QLatin1String(" | ")));
    }
    return clashes;
}

void collectMenus(QMenu *menu, QList<QMenu *> *out)
{
    out->append(menu);
    for (QAction *a : menu->actions())
        if (a->menu())
            collectMenus(a->menu(), out);
}

} // namespace

class TestTranslations : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("FOLIO_NO_DIALOGS", "1");
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_translations"));
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    // The scanner itself: a bare literal in a setter is found, a tr() one is not (else the scan of
    // the sources below could pass by finding nothing).
    void scannerFindsBareLiterals()
    {
        const QString bad = QStringLiteral(
            "void f() {\n  button->setText(QStringLiteral(\"Open\"));\n  box->setToolTip(\"Runs it\");\n"
            "  auto *a = new QAction(QStringLiteral(\"&Quit\"), this);\n"
            "  QMessageBox::warning(this, QStringLiteral(\"Cannot open\"), why);\n  menu->addMenu(u\"&File\"_s);\n}\n");
        const QStringList found = untranslatedLiterals(bad, QStringLiteral("x.cpp"));
        QCOMPARE(found.size(), 5);
        QVERIFY2(found.first().startsWith(QLatin1String("x.cpp:2: setText")), qPrintable(found.first()));
        const QString good = QStringLiteral(
            "void f() {\n  button->setText(tr(\"Open\"));\n  box->setToolTip(QCoreApplication::translate(\"c\", \"Runs it\"));\n"
            "  auto *a = new QAction(tr(\"&Quit\"), this);\n  label->setText(QStringLiteral(\"%1 / %2\").arg(a, b));\n"
            "  a->setObjectName(QStringLiteral(\"quitAction\"));\n}\n");
        QVERIFY2(untranslatedLiterals(good, QStringLiteral("y.cpp")).isEmpty(),
                 qPrintable(untranslatedLiterals(good, QStringLiteral("y.cpp")).join(QLatin1Char('\n'))));
    }

    // Every user-visible literal in ui/, widgets/ and app/gui/ goes through tr() (the allow-list
    // above excepted; the CLI's --help in app/gui/main.cpp is QCommandLineParser's, not matched).
    void everyVisibleStringIsTranslatable()
    {
        QStringList found;
        int files = 0;
        for (const QString &folder : kTranslatedFolders) {
            QDirIterator it(QStringLiteral(FOLIO_SOURCE_DIR "/") + folder, {QStringLiteral("*.cpp"), QStringLiteral("*.h")},
                            QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = it.next();
                QFile f(path);
                QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
                ++files;
                const QString relative = QDir(QStringLiteral(FOLIO_SOURCE_DIR)).relativeFilePath(path);
                for (const QString &finding : untranslatedLiterals(QString::fromUtf8(f.readAll()), relative))
                    if (!allowed(finding))
                        found << finding;
            }
        }
        QVERIFY2(files > 80, qPrintable(QStringLiteral("only %1 source files under ui/, widgets/, app/gui/").arg(files)));
        QVERIFY2(found.isEmpty(), qPrintable(QStringLiteral("user-visible strings outside tr():\n") + found.join(QLatin1Char('\n'))));
    }

    // The committed catalogue: every entry translated, nothing unfinished, vanished or obsolete,
    // placeholders kept.
    void germanCatalogueIsFinished()
    {
        QString error;
        const QList<CatalogueEntry> entries = readCatalogue(catalogueSource(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(entries.size() > 600, qPrintable(QStringLiteral("%1 entries").arg(entries.size())));
        static const QRegularExpression placeholder(QStringLiteral("%(?:\\d+|n)"));
        QStringList problems;
        for (const CatalogueEntry &e : entries) {
            const QString where = e.context + QStringLiteral(" / \"") + e.source.left(60) + QLatin1Char('"');
            if (!e.type.isEmpty())
                problems << where + QStringLiteral(": ") + e.type;
            if (e.translations.isEmpty() || e.translations.size() != (e.numerus ? 2 : 1))
                problems << where + QStringLiteral(": %1 translation form(s)").arg(e.translations.size());
            for (const QString &t : e.translations) {
                if (t.trimmed().isEmpty() && !e.source.trimmed().isEmpty())
                    problems << where + QStringLiteral(": empty translation");
                for (auto it = placeholder.globalMatch(e.source); it.hasNext();) {
                    const QString p = it.next().captured(0);
                    if (p != QLatin1String("%n") && !t.contains(p))
                        problems << where + QStringLiteral(": %1 missing in \"%2\"").arg(p, t);
                }
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // lupdate over today's sources into a copy of the catalogue: a string the catalogue lacks comes
    // back unfinished, one it holds for nothing comes back vanished.
    void germanCatalogueCoversTheSources()
    {
        const QString lupdate = lupdatePath();
        if (lupdate.isEmpty())
            FOLIO_SKIP_CASE("lupdate (Debian: qt6-l10n-tools) is not installed: the catalogue cannot be compared with the sources");
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString copy = tmp.filePath(QStringLiteral("folio_de.ts"));
        QVERIFY(QFile::copy(catalogueSource(), copy));
        QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
        QProcess p;
        p.setWorkingDirectory(QStringLiteral(FOLIO_SOURCE_DIR));
        p.setProcessChannelMode(QProcess::MergedChannels);
        QStringList args = {QStringLiteral("-locations"), QStringLiteral("none"), QStringLiteral("-I"), QStringLiteral(FOLIO_SOURCE_DIR),
                            QStringLiteral("-extensions"), QStringLiteral("cpp,h")};
        args << kTranslatedFolders << QStringLiteral("-ts") << copy;
        p.start(lupdate, args);
        QVERIFY2(p.waitForFinished(120000), qPrintable(lupdate + QStringLiteral(" did not finish")));
        const QString log = QString::fromUtf8(p.readAll());
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, qPrintable(log));
        QString error;
        const QList<CatalogueEntry> entries = readCatalogue(copy, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QStringList lacking, leftOver;
        for (const CatalogueEntry &e : entries) {
            const QString where = e.context + QStringLiteral(" / \"") + e.source + QLatin1Char('"');
            if (e.type == QLatin1String("unfinished"))
                lacking << where;
            else if (e.type == QLatin1String("vanished") || e.type == QLatin1String("obsolete"))
                leftOver << where;
        }
        QVERIFY2(lacking.isEmpty(), qPrintable(QStringLiteral("%1 string(s) of the sources not translated in folio_de.ts "
                                                              "(fbuild folio_i18n_lupdate, then translate them):\n")
                                                   .arg(lacking.size()) + lacking.join(QLatin1Char('\n'))));
        QVERIFY2(leftOver.isEmpty(), qPrintable(QStringLiteral("%1 entr(ies) of folio_de.ts no longer in the sources:\n")
                                                    .arg(leftOver.size()) + leftOver.join(QLatin1Char('\n'))));
    }

    // The catalogue built by CMake (lrelease, embedded at :/i18n) translates a known menu title.
    void builtCatalogueTranslatesMenus()
    {
#ifndef FOLIO_HAVE_TRANSLATIONS
        FOLIO_SKIP_CASE("configured without Qt6 LinguistTools (Debian: qt6-tools-dev, qt6-l10n-tools): no catalogue was built");
#endif
        QTranslator t;
        QVERIFY2(t.load(QStringLiteral(":/i18n/folio_de.qm")), "no :/i18n/folio_de.qm in this build (lrelease did not run)");
        QCOMPARE(t.translate("folio::MainWindow", "&File"), QStringLiteral("&Datei"));
        QCOMPARE(t.translate("folio::MainWindow", "&Edit"), QStringLiteral("&Bearbeiten"));
        QCOMPARE(t.translate("folio::MainWindow", "&View"), QStringLiteral("&Ansicht"));
        QCOMPARE(t.translate("folio::MainWindow", "&Model"), QStringLiteral("&Modell"));
        QCOMPARE(t.translate("folio::MainWindow", "&Help"), QStringLiteral("&Hilfe"));
        // %n forms: German has two.
        QCOMPARE(t.translate("folio::QsController", "%n suggestion(s) added; accept with A, reject with R.", nullptr, 1)
                     .startsWith(QStringLiteral("%n Vorschlag ")), true);
        QVERIFY(t.translate("folio::QsController", "%n suggestion(s) added; accept with A, reject with R.", nullptr, 3)
                    .startsWith(QStringLiteral("%n Vorschläge ")));
    }

    void languageChoice()
    {
        const QLocale german(QLocale::German, QLocale::Germany), english(QLocale::English, QLocale::UnitedKingdom);
        QCOMPARE(uiLocale(UiLanguage::System, german).language(), QLocale::German);
        QCOMPARE(uiLocale(UiLanguage::System, english).language(), QLocale::English);
        QCOMPARE(uiLocale(UiLanguage::English, german).language(), QLocale::English);
        QCOMPARE(uiLocale(UiLanguage::German, english).language(), QLocale::German);
        QCOMPARE(uiLanguageFromCode(QStringLiteral("de")), UiLanguage::German);
        QCOMPARE(uiLanguageFromCode(QStringLiteral("en")), UiLanguage::English);
        QCOMPARE(uiLanguageFromCode(QStringLiteral("klingon")), UiLanguage::System); // unknown: the system's
        QCOMPARE(storedUiLanguage(), UiLanguage::System);
        storeUiLanguage(UiLanguage::German);
        QCOMPARE(QSettings().value(uiLanguageSettingsKey()).toString(), QStringLiteral("de"));
        QCOMPARE(storedUiLanguage(), UiLanguage::German);
        storeUiLanguage(UiLanguage::System);
        QVERIFY(!QSettings().contains(uiLanguageSettingsKey())); // System leaves no entry
        // English (the sources' language) and a language without a catalogue load nothing.
        QVERIFY(installUiTranslations(qApp, english).isEmpty());
        QVERIFY(installUiTranslations(qApp, QLocale(QLocale::French, QLocale::France)).isEmpty());
        QCOMPARE(QCoreApplication::translate("folio::MainWindow", "&File"), QStringLiteral("&File"));
    }

    // The window with the German catalogues installed: German menu titles, unique accelerators in
    // every menu, the same shortcut settings ids as in English, Settings > Language offers
    // System / English / Deutsch and stores the choice.
    void germanWindow()
    {
#ifndef FOLIO_HAVE_TRANSLATIONS
        FOLIO_SKIP_CASE("configured without Qt6 LinguistTools (Debian: qt6-tools-dev, qt6-l10n-tools): no catalogue was built");
#endif
        QStringList englishIds;
        {
            MainWindow english;
            for (QAction *a : ShortcutSettings::actions(&english))
                englishIds << ShortcutSettings::id(a);
            englishIds.sort();
        }
        QVERIFY(englishIds.size() > 40);
        const QStringList loaded = installUiTranslations(qApp, QLocale(QLocale::German, QLocale::Germany));
        QVERIFY2(loaded.contains(QStringLiteral(":/i18n/folio_de.qm")), qPrintable(loaded.join(QLatin1Char(' '))));
        auto removeTranslators = qScopeGuard([] {
            for (QTranslator *t : qApp->findChildren<QTranslator *>())
                QCoreApplication::removeTranslator(t);
            qDeleteAll(qApp->findChildren<QTranslator *>());
        });
        {
            MainWindow w;
            QStringList titles, clashes;
            QList<QMenu *> menus;
            for (QAction *a : w.menuBar()->actions())
                if (a->menu() && a->isVisible() && !a->text().isEmpty()) {
                    titles << a->text();
                    collectMenus(a->menu(), &menus);
                }
            for (const char *german : {"&Datei", "&Bearbeiten", "&Ansicht", "&Modell", "&Einstellungen", "&Hilfe"})
                QVERIFY2(titles.contains(QLatin1String(german)), qPrintable(titles.join(QLatin1String(", "))));
            for (const char *english : {"&File", "&Edit", "&View", "&Model", "&Settings", "&Help"})
                QVERIFY2(!titles.contains(QLatin1String(english)), english);
            {   // the menu bar itself
                QMenu bar;
                for (QAction *a : w.menuBar()->actions())
                    if (a->isVisible() && !a->text().isEmpty())
                        bar.addAction(a->text());
                clashes << clashingAccelerators(&bar);
            }
            for (QMenu *m : menus)
                clashes << clashingAccelerators(m);
            QVERIFY2(menus.size() >= 6, qPrintable(QString::number(menus.size())));
            QVERIFY2(clashes.isEmpty(), qPrintable(QStringLiteral("accelerators used twice:\n") + clashes.join(QLatin1Char('\n'))));

            // The keys a user chose stay with their actions in German: every action's settings id
            // (the English text where it has no object name) is the one the English window has.
            QStringList germanIds;
            int unnamed = 0;
            for (QAction *a : ShortcutSettings::actions(&w)) {
                germanIds << ShortcutSettings::id(a);
                unnamed += a->objectName().isEmpty() ? 1 : 0;
            }
            germanIds.sort();
            QVERIFY(unnamed > 0); // else this compares nothing the translation could change
            QCOMPARE(germanIds, englishIds);
            QMenu *language = w.findChild<QMenu *>(QStringLiteral("languageMenu"));
            QVERIFY(language);
            QCOMPARE(language->title(), QStringLiteral("&Sprache"));
            QStringList choices;
            for (QAction *a : language->actions())
                choices << a->text();
            QCOMPARE(choices, QStringList({QStringLiteral("&Systemsprache"), QStringLiteral("&English"), QStringLiteral("&Deutsch")}));
            QVERIFY(language->actions().at(0)->isChecked());
            language->actions().at(2)->trigger();
            QCOMPARE(QSettings().value(uiLanguageSettingsKey()).toString(), QStringLiteral("de"));
            QVERIFY(language->actions().at(2)->isChecked());
            QVERIFY(!language->actions().at(0)->isChecked());
            QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("nächsten Start")), qPrintable(w.statusBar()->currentMessage()));
            language->actions().at(1)->trigger();
            QCOMPARE(storedUiLanguage(), UiLanguage::English);
            language->actions().at(0)->trigger();
            QCOMPARE(storedUiLanguage(), UiLanguage::System);
        }
    }
};

FOLIO_TEST_MAIN(TestTranslations)
#include "tst_translations.moc"
