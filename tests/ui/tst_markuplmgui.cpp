// MarkupLM folders in the Fields dock (issue 32), driving the real main window: Choose Field
// Extractor takes a Hugging Face MarkupLMForQuestionAnswering folder (a tiny one built from the parity
// fixtures, tests/common/tinymarkuplm.h); Extract Fields runs it in the worker on a rendered product
// page; each field's answer arrives as a suggestion in the dock (value, confidence, "suggested"),
// highlighted on the page (overlay boxes) and in the DOM tree (its nodes marked). A folder with a
// missing tokenizer file, one with a tokenizer without tags_dict and one whose model_type is unknown
// are refused naming the file, and the chosen extractor stays. Then a MarkupLMForTokenClassification
// folder: its labels answer the fields named like them. A screenshot is saved (path printed).
#include "tests/common/testdata.h"
#include "tests/common/tinymarkuplm.h"

#include "ui/annotation/annotationsession.h"
#include "ui/commands/fieldcommands.h"
#include "ui/documents/domtreemodel.h"
#include "ui/documents/domtreepanel.h"
#include "tests/common/pagejs.h"
#include "ui/documents/webpage.h"
#include "ui/documents/webpagepanel.h"
#include "ui/fields/fieldhighlight.h"
#include "ui/fields/fieldscontroller.h"
#include "ui/fields/fieldspanel.h"
#include "ui/mainwindow.h"

#include <QDockWidget>
#include <QFile>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QWebEngineScript>
#include <QtTest>

#include <fstream>

using namespace folio;

namespace {

const QByteArray kPage = "<html><head><title>Walnut desk lamp</title></head><body><div class=product>"
                         "<h1>Walnut desk lamp</h1><p class=brand>Made by <span>Lumen &amp; Oak</span></p>"
                         "<div class=price>Price: <b>EUR 89.00</b></div><ul><li>Solid walnut base</li>"
                         "<li>Warm white LED, 8 W</li><li>SKU: WL-2041</li></ul>"
                         "<p>Ships in 2 days. Free returns within 30 days.</p></div></body></html>";

QVariant runJs(WebPage *page, const QString &js) { return test::runPageJs(page, js); }

void editJson(const QString &file, const std::function<void(nlohmann::json &)> &edit)
{
    std::ifstream in(file.toStdString());
    nlohmann::json j = nlohmann::json::parse(in);
    in.close();
    edit(j);
    std::ofstream(file.toStdString()) << j.dump();
}

} // namespace

class TestMarkupLMGui : public QObject
{
    Q_OBJECT

    QString m_shots = QStringLiteral(FOLIO_BINARY_DIR "/screenshots");

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("FOLIO_NO_DIALOGS", "1");
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_markuplmgui"));
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QDir().mkpath(m_shots);
    }

    void chooseExtractHighlight()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString qa = test::makeTinyMarkupLM(tmp.filePath(QStringLiteral("markuplm-qa")), true);
        FOLIO_REQUIRE_DATA(qa);
        const QString tokcls = test::makeTinyMarkupLM(tmp.filePath(QStringLiteral("markuplm-tokcls")), false,
                                                      {QStringLiteral("O"), QStringLiteral("B-price"), QStringLiteral("I-price"),
                                                       QStringLiteral("B-brand"), QStringLiteral("I-brand")});
        const QString page = tmp.filePath(QStringLiteral("lamp.html"));
        {
            QFile f(page);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(kPage);
        }

        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openProject(tmp.filePath(QStringLiteral("lamps.folio"))));
        FieldsController *fields = w.fields();
        auto *dock = w.findChild<QDockWidget *>(QStringLiteral("fieldsDock"));
        QVERIFY(fields && dock);
        dock->show();
        dock->raise();
        auto *web = w.findChild<WebPagePanel *>();
        auto *dom = w.findChild<DomTreePanel *>();
        QSignalSpy rendered(web, &WebPagePanel::rendered);
        QSignalSpy shown(&w, &MainWindow::documentShown);
        w.openFile(page);
        QVERIFY(shown.count() == 1 || shown.wait(30000));
        QVERIFY(rendered.count() == 1 || rendered.wait(30000));
        AnnotationSession *session = w.session();
        FieldsPanel *panel = fields->panel();

        // Choose Field Extractor: the QA folder is taken.
        QVERIFY2(fields->setFieldModelDir(qa), qPrintable(fields->lastMessage()));
        QCOMPARE(fields->fieldModelDir(), qa);
        QVERIFY2(fields->lastMessage().contains(QStringLiteral("MarkupLM markuplm-qa")), qPrintable(fields->lastMessage()));

        // Refused folders name the file; the QA folder stays chosen.
        const QString noVocab = tmp.filePath(QStringLiteral("no-vocab")), noTags = tmp.filePath(QStringLiteral("no-tags")),
                      badType = tmp.filePath(QStringLiteral("bad-type"));
        test::copyFolderFiles(qa, noVocab, {QStringLiteral("vocab.json")});
        test::copyFolderFiles(qa, noTags);
        editJson(noTags + "/tokenizer_config.json", [](nlohmann::json &j) { j.erase("tags_dict"); });
        test::copyFolderFiles(qa, badType);
        editJson(badType + "/config.json", [](nlohmann::json &j) { j["model_type"] = "markuplm-v9"; });
        for (const auto &[dir, file] : {std::pair{noVocab, QStringLiteral("vocab.json")},
                                        std::pair{noTags, QStringLiteral("tokenizer_config.json")}}) {
            QVERIFY(!fields->setFieldModelDir(dir));
            QVERIFY2(fields->lastMessage().contains(dir + "/" + file), qPrintable(fields->lastMessage()));
            QVERIFY2(fields->lastMessage().contains(QStringLiteral("unchanged")), qPrintable(fields->lastMessage()));
            QCOMPARE(fields->fieldModelDir(), qa);
        }
        QVERIFY(!fields->setFieldModelDir(badType));
        QVERIFY2(fields->lastMessage().contains(QStringLiteral("markuplm-v9")), qPrintable(fields->lastMessage()));
        QCOMPARE(fields->fieldModelDir(), qa);

        // Extract Fields in the worker: each field of the set asked, answers in the dock.
        QSignalSpy finished(fields, &FieldsController::extractionFinished);
        QVERIFY(fields->extractFields());
        QVERIFY(!panel->findChild<QPushButton *>(QStringLiteral("extractFields"))->isEnabled()); // busy: progress + cancel
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.takeFirst().front().toBool(), true);
        QVERIFY(panel->findChild<QPushButton *>(QStringLiteral("extractFields"))->isEnabled());
        QVERIFY2(fields->lastMessage().contains(QStringLiteral("from MarkupLM markuplm-qa")), qPrintable(fields->lastMessage()));
        const Document &doc = session->document();
        QSet<int> answerNodes;
        int answered = 0;
        for (const QString &field : pipeline::fieldNames(fields->fieldSet())) {
            const FieldValue *v = fieldedits::answerOf(session->annotations(), field);
            if (!v || v->source.checkpoint != QLatin1String("markuplm-qa"))
                continue;
            ++answered;
            QCOMPARE(v->state, ReviewState::Suggested);
            QVERIFY(!v->wordIds.isEmpty());
            QCOMPARE(panel->cellText(field, FieldsPanel::ValueColumn), v->text);
            // "suggested", with a warning sign where the value does not read as the field's type (the tiny model's price)
            QVERIFY2(panel->cellText(field, FieldsPanel::StateColumn).startsWith(QStringLiteral("suggested")),
                     qPrintable(panel->cellText(field, FieldsPanel::StateColumn)));
            QVERIFY(!panel->cellText(field, FieldsPanel::ConfidenceColumn).isEmpty());
            for (const Word &word : doc.words)
                if (v->wordIds.contains(word.id))
                    answerNodes.insert(word.node);
        }
        QCOMPARE(answered, int(fields->fieldSet().size())); // the tiny model always finds a span
        // Highlights: every answer node marked in the DOM tree, boxes drawn over the rendered page.
        for (int node : answerNodes)
            QVERIFY2(dom->model()->nodeMarks().contains(node), qPrintable(doc.nodes[std::size_t(node)].text));
        const std::vector<FieldMark> marks = fieldMarks(doc, session->annotations(), pipeline::fieldNames(fields->fieldSet()));
        QVERIFY(!marks.empty());
        QTRY_VERIFY_WITH_TIMEOUT(runJs(web->page(), fieldOverlayCountScript()).toInt() >= 1, 10000);

        const QString shot = m_shots + QStringLiteral("/markuplmgui.png");
        QTest::qWait(300);
        QVERIFY(w.grab().save(shot));
        qInfo("screenshot: %s", qPrintable(shot));

        // A token classifier: its labels (price, brand) answer the fields named like them; the rest are named in a note.
        for (const QString &field : pipeline::fieldNames(fields->fieldSet()))
            fields->clearField(field);
        QVERIFY2(fields->setFieldModelDir(tokcls), qPrintable(fields->lastMessage()));
        // A field set saved with a MarkupLM extractor is no "model not trained on" warning.
        QVERIFY(fields->setFieldSet({{QStringLiteral("price"), pipeline::FieldType::Price}, {QStringLiteral("brand")},
                                     {QStringLiteral("colour")}}));
        QVERIFY2(fields->lastMessage().startsWith(QStringLiteral("Field set: price, brand, colour")), qPrintable(fields->lastMessage()));
        QVERIFY(fields->extractFields());
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.takeFirst().front().toBool(), true);
        QVERIFY2(fields->lastMessage().contains(QStringLiteral("has no label for colour")), qPrintable(fields->lastMessage()));
        for (const QString &field : pipeline::fieldNames(fields->fieldSet())) {
            const FieldValue *v = fieldedits::answerOf(session->annotations(), field);
            if (v && v->source.checkpoint == QLatin1String("markuplm-tokcls")) {
                QVERIFY2(field == QLatin1String("price") || field == QLatin1String("brand"), qPrintable(field));
                QVERIFY(!v->wordIds.isEmpty());
                QCOMPARE(panel->cellText(field, FieldsPanel::ValueColumn), v->text);
            }
        }
    }
};

FOLIO_TEST_MAIN(TestMarkupLMGui)
#include "tst_markuplmgui.moc"
