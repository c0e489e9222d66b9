// Web fields in the GUI (issue 15), driving the real widgets: the field set stored in the project
// (dialog, refusals, a corrupt setting), a product page of the Zyte benchmark opened in the main
// window and rendered, a value corrected by a page text selection and by picking a DOM node, "no
// value" answered, Train Field Extractor on the project (a real, tiny WebFormer), Extract Fields in
// the worker with the trained model (suggestions, unknown-field note), highlights on the page and
// in the DOM tree, accept / reject, undo / redo, the answers surviving a reopen, and the three
// exports (product-benchmark, SWDE, HF JSONL) read back. Bad input: a page with no text, a page
// past the model's text budget, fields with no examples, a changed field set, scans without a
// matching tagger, a non-WebFormer field model. A screenshot is saved (path printed).
#include "tests/common/testdata.h"
#include "tests/common/tinywebformer.h"
#include "document/documentjson.h"
#include "document/formats/datasetformat.h"
#include "document/html/htmlloader.h"
#include "document/project/project.h"
#include "inference/formtagger/predictor.h"
#include "pipeline/modelinputs/webpages.h"
#include "pipeline/documentsource.h"
#include "pipeline/webfieldextraction.h"
#include "pipeline/webfieldset.h"
#include "pipeline/webfieldtraining.h"
#include "ui/annotation/annotationsession.h"
#include "ui/commands/fieldcommands.h"
#include "ui/documents/domtreemodel.h"
#include "ui/documents/domtreepanel.h"
#include "ui/fields/fieldhighlight.h"
#include "ui/fields/fieldscontroller.h"
#include "ui/fields/fieldsetdialog.h"
#include "ui/fields/fieldspanel.h"
#include "ui/workers/fieldsworker.h"
#include "ui/fields/fieldtrainingdialog.h"
#include "ui/mainwindow.h"
#include "ui/training/trainingdialog.h"
#include "tests/common/pagejs.h"
#include "ui/documents/webpage.h"
#include "ui/documents/webpagepanel.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeView>
#include <QUndoStack>
#include <QWebEngineScript>

using namespace folio;

namespace {

const QString kPageKey = QStringLiteral("3d3ee8ebe15603b2ffc77b0c9f87f4e033ff4784cfdd50a135ae17395c0d3263");

QString benchmarkPage()
{
    return test::sharedPath(QStringLiteral("data/product-extraction-benchmark/dataset/html/") + kPageKey
                            + QStringLiteral(".html.gz"));
}

QVariant runJs(WebPage *page, const QString &js) { return test::runPageJs(page, js); }

// A synthetic product page: "<brand> ... Price: <price> EUR".
QByteArray productHtml(const QString &brand, const QString &price, int fillerWords = 6)
{
    QString filler;
    for (int i = 0; i < fillerWords; ++i)
        filler += QStringLiteral(" word%1").arg(i % 50);
    return QStringLiteral("<html><body><h1>%1 kettle</h1><p>%2</p><div class=price>Price: <b>%3</b> EUR</div>"
                          "<p>Made by <span>%1</span></p></body></html>")
        .arg(brand, filler, price)
        .toUtf8();
}

FieldValue answer(const QString &field, const QString &text, ReviewState state = ReviewState::Accepted)
{
    FieldValue v;
    v.field = field;
    v.text = text;
    v.state = state;
    return v;
}

Document loadBytes(const QByteArray &html, const QString &name)
{
    const HtmlLoadResult r = loadHtmlBytes(html, name);
    return r.document;
}

} // namespace

class TestFieldsGui : public QObject
{
    Q_OBJECT

    QString m_shots = QStringLiteral(FOLIO_BINARY_DIR "/screenshots");
    QTemporaryDir m_models;
    QString m_tinyModel; // WebFormer trained in initTestCase on synthetic pages (price, brand)

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("FOLIO_NO_DIALOGS", "1");
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_fieldsgui"));
        QStandardPaths::setTestModeEnabled(true);
        QDir().mkpath(m_shots);

        // A tiny WebFormer on 4 synthetic pages: a real checkpoint for the bad-input cases.
        pipeline::FieldTrainingData data;
        const QStringList brands{QStringLiteral("Acme"), QStringLiteral("Zeta"), QStringLiteral("Orbit"), QStringLiteral("Nova")};
        for (int i = 0; i < brands.size(); ++i) {
            const QString price = QStringLiteral("%1.99").arg(10 + i);
            inference::WebPage page = pipeline::webPageFromDocument(
                loadBytes(productHtml(brands[i], price), QStringLiteral("p%1.html").arg(i)), "p" + std::to_string(i));
            page.gold["price"] = {price.toStdString()};
            page.gold["brand"] = {brands[i].toStdString()};
            data.pages.push_back(page);
        }
        data.fields = {"price", "brand"};
        const pipeline::FieldTrainingOutcome out =
            pipeline::trainFieldExtractor(test::tinyWebFormerOptions(m_models.filePath(QStringLiteral("tiny")).toStdString()), data);
        QVERIFY2(out.ok, qPrintable(out.error));
        QCOMPARE(out.fields, QStringList({QStringLiteral("price"), QStringLiteral("brand")}));
        m_tinyModel = out.checkpointDir;
        QCOMPARE(pipeline::checkpointModelType(m_tinyModel), QStringLiteral("webformer"));
    }

    void init()
    {
        QSettings().clear();
        QFile::remove(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/default.folio"));
    }

    // ---- the field set ----

    void fieldSetIsStoredInTheProject()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("fields.folio"));
        QString error;
        {
            auto project = Project::create(path, &error);
            QVERIFY2(project, qPrintable(error));
            std::vector<pipeline::FieldSpec> fields;
            QVERIFY(pipeline::projectFieldSet(*project, &fields, &error));
            QCOMPARE(pipeline::fieldNames(fields),
                     QStringList({"price", "currency", "sku", "gtin", "mpn", "brand", "availability", "name"}));
            QCOMPARE(fields.front().type, pipeline::FieldType::Price);

            // The dialog refuses a bad name and a duplicate, then stores what it accepts.
            FieldSetDialog dialog(fields);
            dialog.addField(QStringLiteral("bad name!"), pipeline::FieldType::Text);
            dialog.accept();
            QVERIFY(dialog.result() != QDialog::Accepted);
            QVERIFY2(dialog.message().contains(QStringLiteral("bad name!")), qPrintable(dialog.message()));
            dialog.table()->item(dialog.table()->rowCount() - 1, 0)->setText(QStringLiteral("PRICE"));
            dialog.accept();
            QVERIFY2(dialog.message().contains(QStringLiteral("twice")), qPrintable(dialog.message()));
            dialog.table()->item(dialog.table()->rowCount() - 1, 0)->setText(QStringLiteral("released"));
            qobject_cast<QComboBox *>(dialog.table()->cellWidget(dialog.table()->rowCount() - 1, 1))->setCurrentText(QStringLiteral("date"));
            dialog.accept();
            QCOMPARE(dialog.result(), int(QDialog::Accepted));
            QVERIFY(pipeline::setProjectFieldSet(*project, dialog.fieldSet(), &error));
        }
        {
            auto project = Project::open(path, &error);
            QVERIFY2(project, qPrintable(error));
            std::vector<pipeline::FieldSpec> fields;
            QVERIFY(pipeline::projectFieldSet(*project, &fields, &error));
            QCOMPARE(int(fields.size()), 9);
            QCOMPARE(fields.back().name, QStringLiteral("released"));
            QCOMPARE(fields.back().type, pipeline::FieldType::Date);
            // A corrupt stored value: a message naming the project, and the defaults.
            QVERIFY(project->setSetting(QStringLiteral("fields"), QStringLiteral("[{\"name\": 3}]"), &error));
            QVERIFY(!pipeline::projectFieldSet(*project, &fields, &error));
            QVERIFY2(error.contains(path) && error.contains(QStringLiteral("entry 0")), qPrintable(error));
            QCOMPARE(int(fields.size()), 8);
        }
        std::vector<pipeline::FieldSpec> parsed;
        QVERIFY(pipeline::parseFieldSpecs(QStringLiteral("price:price, sku:identifier,title"), &parsed, &error));
        QCOMPARE(pipeline::formatFieldSpecs(parsed), QStringLiteral("price:price,sku:identifier,title:text"));
        QVERIFY(!pipeline::parseFieldSpecs(QStringLiteral("price:money"), &parsed, &error));
        QVERIFY2(error.contains(QStringLiteral("money")), qPrintable(error));
        QVERIFY(!pipeline::parseFieldSpecs(QString(), &parsed, &error));
        QString many;
        for (int i = 0; i < pipeline::kMaxFields + 1; ++i)
            many += QStringLiteral("f%1,").arg(i);
        QVERIFY(!pipeline::parseFieldSpecs(many, &parsed, &error));

        // Values read as their type.
        const pipeline::FieldSpec price{QStringLiteral("price"), pipeline::FieldType::Price};
        const pipeline::FieldSpec gtin{QStringLiteral("gtin"), pipeline::FieldType::Identifier};
        const pipeline::FieldSpec stock{QStringLiteral("availability"), pipeline::FieldType::Availability};
        QCOMPARE(pipeline::readFieldValue(price, QStringLiteral("\u00a31,299.50")).value, QStringLiteral("1299.50 GBP"));
        QVERIFY(!pipeline::readFieldValue(price, QStringLiteral("call us")).ok);
        QCOMPARE(pipeline::readFieldValue(gtin, QStringLiteral("4006381333931")).value, QStringLiteral("4006381333931"));
        QVERIFY(pipeline::readFieldValue(gtin, QStringLiteral("4006381333932")).problem.contains(QStringLiteral("check digit")));
        QCOMPARE(pipeline::readFieldValue(stock, QStringLiteral("In stock")).value, QStringLiteral("InStock"));
        QVERIFY(!pipeline::readFieldValue(stock, QStringLiteral("blue")).ok);
        FieldsPanel panel;
        panel.setFieldSpecs({price, gtin});
        Annotations a;
        a.fields = {answer(QStringLiteral("price"), QStringLiteral("call us")),
                    answer(QStringLiteral("gtin"), QStringLiteral("4006381333931"))};
        panel.setAnswers(a);
        QVERIFY(panel.cellText(QStringLiteral("price"), FieldsPanel::StateColumn).contains(QStringLiteral("\u26a0")));
        QVERIFY(!panel.cellText(QStringLiteral("gtin"), FieldsPanel::StateColumn).contains(QStringLiteral("\u26a0")));
    }

    // folio-cli project fields: shows the defaults, sets a new set, refuses a bad type (exit 2, named).
    void cliProjectFields()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cli.folio"));
        QString error;
        QVERIFY(Project::create(path, &error));
        const auto run = [&](const QStringList &args, QByteArray *out, QByteArray *err) {
            QProcess p;
            p.start(QStringLiteral(FOLIO_CLI_PATH), args);
            if (!p.waitForFinished(60000))
                return -1;
            *out = p.readAllStandardOutput();
            *err = p.readAllStandardError();
            return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        };
        QByteArray out, err;
        QCOMPARE(run({QStringLiteral("project"), QStringLiteral("fields"), path}, &out, &err), 0);
        QCOMPARE(QJsonDocument::fromJson(out).object().value(QStringLiteral("fields")).toArray().size(), 8);
        QCOMPARE(run({QStringLiteral("project"), QStringLiteral("fields"), path, QStringLiteral("--set"),
                      QStringLiteral("price:price,title,isbn:identifier")}, &out, &err), 0);
        const QJsonArray fields = QJsonDocument::fromJson(out).object().value(QStringLiteral("fields")).toArray();
        QCOMPARE(fields.size(), 3);
        QCOMPARE(fields[2].toObject().value(QStringLiteral("type")).toString(), QStringLiteral("identifier"));
        QCOMPARE(run({QStringLiteral("project"), QStringLiteral("fields"), path, QStringLiteral("--set"), QStringLiteral("price:money")},
                     &out, &err), 2);
        QVERIFY2(err.contains("money") && err.contains("cli.folio"), err.constData());
        auto project = Project::open(path, &error);
        std::vector<pipeline::FieldSpec> stored;
        QVERIFY(pipeline::projectFieldSet(*project, &stored, &error));
        QCOMPARE(pipeline::formatFieldSpecs(stored), QStringLiteral("price:price,title:text,isbn:identifier")); // unchanged by the refusal
    }

    // ---- the whole flow on a real product page ----

    void extractCorrectTrainUndoReopenExport()
    {
        FOLIO_REQUIRE_DATA(benchmarkPage());
        QTemporaryDir dir;
        const QString page = dir.filePath(kPageKey + QStringLiteral(".html.gz"));
        QVERIFY(QFile::copy(benchmarkPage(), page));
        const QString projectPath = dir.filePath(QStringLiteral("products.folio"));
        const QString fieldModel = dir.filePath(QStringLiteral("models/products-fields"));
        QString priceText; // the accepted model answer for price ("" when it was "no value")
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(w.openProject(projectPath));
            FieldsController *fields = w.fields();
            QVERIFY(fields);
            auto *dock = w.findChild<QDockWidget *>(QStringLiteral("fieldsDock"));
            QVERIFY(dock);
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
            QCOMPARE(panel->fields().size(), 8);
            QCOMPARE(panel->cellText(QStringLiteral("price"), FieldsPanel::StateColumn), QStringLiteral("no answer"));

            // A WebFormer is required as the field model: a tagger folder is refused.
            QVERIFY(!fields->setFieldModelDir(QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout-reading")));
            QVERIFY2(fields->lastMessage().contains(QStringLiteral("not a WebFormer")), qPrintable(fields->lastMessage()));

            // price: the user selects "£50" on the rendered page and presses "Use selection".
            const QVariant selected = runJs(web->page(),
                QStringLiteral("(function(){var w=document.createTreeWalker(document.body,NodeFilter.SHOW_TEXT);"
                               "while(w.nextNode()){var n=w.currentNode,i=n.data.indexOf('\\u00a350');"
                               "if(i>=0){var r=document.createRange();r.setStart(n,i);r.setEnd(n,i+3);"
                               "var s=window.getSelection();s.removeAllRanges();s.addRange(r);return s.toString();}}"
                               "return '';})()"));
            QCOMPARE(selected.toString(), QStringLiteral("\u00a350"));
            QTRY_COMPARE_WITH_TIMEOUT(web->page()->selectedText(), QStringLiteral("\u00a350"), 5000);
            panel->setCurrentField(QStringLiteral("price"));
            panel->findChild<QPushButton *>(QStringLiteral("correctField"))->click();
            const FieldValue *price = fieldedits::answerOf(session->annotations(), QStringLiteral("price"));
            QVERIFY2(price, qPrintable(fields->lastMessage()));
            QCOMPARE(price->text, QStringLiteral("\u00a350"));
            QCOMPARE(price->state, ReviewState::Accepted);
            QCOMPARE(panel->cellText(QStringLiteral("price"), FieldsPanel::StateColumn), QStringLiteral("corrected"));
            runJs(web->page(), QStringLiteral("window.getSelection().removeAllRanges();0"));
            QTRY_VERIFY_WITH_TIMEOUT(web->page()->selectedText().isEmpty(), 5000);

            // brand: the user picks the "Indesit" text node after "make/manufacturer:" in the DOM tree.
            const Document &doc = session->document();
            int brandNode = -1;
            for (int i = 0; i < int(doc.nodes.size()); ++i)
                if (doc.nodes[size_t(i)].kind == NodeKind::Text && doc.nodes[size_t(i)].text.trimmed() == QLatin1String("Indesit"))
                    brandNode = i;
            QVERIFY(brandNode > 0);
            dom->treeView()->setCurrentIndex(dom->model()->indexForNode(brandNode));
            QCOMPARE(session->selectedWords().size(), 1);
            QVERIFY(fields->correctField(QStringLiteral("brand")));
            QCOMPARE(fieldedits::answerOf(session->annotations(), QStringLiteral("brand"))->text, QStringLiteral("Indesit"));
            // A selection that is not on the page is refused with a message, nothing changes.
            QVERIFY(!fields->correctFieldWith(QStringLiteral("brand"), QStringLiteral("Bosch Serie 4")));
            QVERIFY(fields->lastMessage().contains(QStringLiteral("Bosch")));

            // gtin: "no value on this page" is an answer.
            panel->setCurrentField(QStringLiteral("gtin"));
            panel->findChild<QPushButton *>(QStringLiteral("noValueField"))->click();
            QVERIFY(fieldedits::isNoValue(*fieldedits::answerOf(session->annotations(), QStringLiteral("gtin"))));
            QCOMPARE(panel->cellText(QStringLiteral("gtin"), FieldsPanel::ValueColumn), QStringLiteral("(no value on this page)"));

            // Highlights: price and brand boxes over the page, their nodes marked in the DOM tree.
            QTRY_COMPARE_WITH_TIMEOUT(runJs(web->page(), fieldOverlayCountScript()).toInt(), 2, 10000);
            QVERIFY(dom->model()->nodeMarks().contains(brandNode));
            QVERIFY(dom->model()->data(dom->model()->indexForNode(brandNode), Qt::DisplayRole).toString().contains(QStringLiteral("brand")));

            // Train Field Extractor on the project: price and brand have examples, the rest not.
            FieldTrainingDialog training(w.project(), fields->fieldSet(), &w);
            QVERIFY2(training.canTrain(), qPrintable(training.summary()));
            QVERIFY2(training.summary().contains(QStringLiteral("No example value yet for currency, sku")), qPrintable(training.summary()));
            training.setOptions(fieldModel, 2, 6, 120);
            QSignalSpy trained(training.worker(), &FieldsWorker::trained);
            training.startTraining();
            QVERIFY(trained.wait(180000));
            QVERIFY2(!training.checkpointDir().isEmpty(), qPrintable(training.log()));
            // One answered page is too few to train a price ranker: the shipped one comes along, and the log says so.
            QVERIFY2(training.rankerNotes().join(QLatin1Char(' ')).contains(QStringLiteral("price: the shipped ranker kept")),
                     qPrintable(training.log()));
            QVERIFY(training.log().contains(QStringLiteral("price: the shipped ranker kept")));
            QVERIFY(QFile::exists(training.checkpointDir() + QStringLiteral("/price-ranker.json")));
            QVERIFY(fields->setFieldModelDir(training.checkpointDir()));

            // Extract Fields with the trained model: the user's answers untouched, a note naming the
            // fields the model does not know (they take the page's structured data, which this page lacks).
            QSignalSpy finished(fields, &FieldsController::extractionFinished);
            QVERIFY(fields->extractFields());
            QVERIFY(finished.wait(120000));
            QCOMPARE(finished.takeFirst().front().toBool(), true);
            QVERIFY2(fields->lastMessage().contains(QStringLiteral("does not know currency, sku")), qPrintable(fields->lastMessage()));
            QCOMPARE(fieldedits::answerOf(session->annotations(), QStringLiteral("price"))->text, QStringLiteral("\u00a350"));
            QCOMPARE(fieldedits::answerOf(session->annotations(), QStringLiteral("brand"))->state, ReviewState::Accepted);
            QVERIFY(fieldedits::isNoValue(*fieldedits::answerOf(session->annotations(), QStringLiteral("gtin"))));
            QVERIFY(!fieldedits::answerOf(session->annotations(), QStringLiteral("sku")));
            // "name" comes from the page's JSON-LD, placed on the words of the page that spell it.
            const FieldValue *title = fieldedits::answerOf(session->annotations(), QStringLiteral("name"));
            QVERIFY(title);
            QCOMPARE(title->source.checkpoint, QStringLiteral("structured-data:json-ld"));
            QVERIFY2(!title->wordIds.isEmpty(), qPrintable(title->text));

            // Clear price and brand, extract again: the model's suggestions arrive with confidences.
            panel->setCurrentField(QStringLiteral("price"));
            panel->findChild<QPushButton *>(QStringLiteral("clearField"))->click();
            QVERIFY(fields->clearField(QStringLiteral("brand")));
            QVERIFY(!fieldedits::answerOf(session->annotations(), QStringLiteral("price")));
            const int undoBefore = session->undoStack()->count();
            QVERIFY(fields->extractFields());
            QVERIFY(finished.wait(120000));
            QCOMPARE(finished.takeFirst().front().toBool(), true);
            QCOMPARE(session->undoStack()->count(), undoBefore + 1);
            for (const char *name : {"price", "brand"}) {
                const FieldValue *v = fieldedits::answerOf(session->annotations(), QLatin1String(name));
                QVERIFY2(v, name);
                QCOMPARE(v->state, ReviewState::Suggested);
                QCOMPARE(v->source.kind, AnnotationSource::Model);
                // the trained model, its price ranker, or the page's JSON-LD where the model answered "no value"
                QVERIFY2(v->source.checkpoint == QLatin1String("products-fields")
                             || (QLatin1String(name) == QLatin1String("price") && v->source.checkpoint == QLatin1String("price-ranker"))
                             || v->source.checkpoint.startsWith(QLatin1String("structured-data:")),
                         qPrintable(v->source.checkpoint));
                QVERIFY(!panel->cellText(QLatin1String(name), FieldsPanel::ConfidenceColumn).isEmpty());
                QCOMPARE(panel->cellText(QLatin1String(name), FieldsPanel::StateColumn), QStringLiteral("suggested"));
            }

            // accept one suggestion, reject the other; undo / redo them.
            panel->setCurrentField(QStringLiteral("price"));
            panel->findChild<QPushButton *>(QStringLiteral("acceptField"))->click();
            QCOMPARE(fieldedits::answerOf(session->annotations(), QStringLiteral("price"))->state, ReviewState::Accepted);
            QVERIFY(fields->rejectField(QStringLiteral("brand")));
            QCOMPARE(fieldedits::answerOf(session->annotations(), QStringLiteral("brand"))->state, ReviewState::Rejected);
            session->undoStack()->undo();
            QCOMPARE(fieldedits::answerOf(session->annotations(), QStringLiteral("brand"))->state, ReviewState::Suggested);
            session->undoStack()->undo();
            QCOMPARE(fieldedits::answerOf(session->annotations(), QStringLiteral("price"))->state, ReviewState::Suggested);
            session->undoStack()->redo();
            session->undoStack()->redo();
            QCOMPARE(fieldedits::answerOf(session->annotations(), QStringLiteral("price"))->state, ReviewState::Accepted);
            QCOMPARE(fieldedits::answerOf(session->annotations(), QStringLiteral("brand"))->state, ReviewState::Rejected);
            const FieldValue acceptedPrice = *fieldedits::answerOf(session->annotations(), QStringLiteral("price"));
            // Extracting again keeps every decision the user made; the brand is corrected by a node pick again.
            QVERIFY(fields->extractFields());
            QVERIFY(finished.wait(120000));
            QCOMPARE(fieldedits::answerOf(session->annotations(), QStringLiteral("price"))->wordIds, acceptedPrice.wordIds);
            QCOMPARE(fieldedits::answerOf(session->annotations(), QStringLiteral("price"))->state, ReviewState::Accepted);
            dom->treeView()->setCurrentIndex(dom->model()->indexForNode(brandNode));
            QVERIFY(fields->correctField(QStringLiteral("brand")));
            QCOMPARE(fieldedits::answerOf(session->annotations(), QStringLiteral("brand"))->text, QStringLiteral("Indesit"));
            priceText = fieldedits::isNoValue(acceptedPrice) ? QString() : acceptedPrice.text;

            QTRY_VERIFY_WITH_TIMEOUT(runJs(web->page(), fieldOverlayCountScript()).toInt() >= 1, 10000);
            // The field set changes after training: the message names the fields the model does not know.
            std::vector<pipeline::FieldSpec> changed = fields->fieldSet();
            changed.push_back({QStringLiteral("colour"), pipeline::FieldType::Text});
            QVERIFY(fields->setFieldSet(changed));
            QVERIFY2(fields->lastMessage().contains(QStringLiteral("not trained on currency, sku, gtin, mpn, availability, name, colour")),
                     qPrintable(fields->lastMessage()));
            QCOMPARE(panel->fields().size(), 9);
            changed.push_back({QStringLiteral("Colour"), pipeline::FieldType::Text}); // a duplicate: refused, nothing stored
            QVERIFY(!fields->setFieldSet(changed));
            QVERIFY(fields->lastMessage().contains(QStringLiteral("twice")));
            QCOMPARE(panel->fields().size(), 9);

            w.findChild<QDockWidget *>(QStringLiteral("attentionDock"))->hide(); // room for the Fields dock in the picture
            QTest::qWait(300);
            const QString shot = m_shots + QStringLiteral("/fieldsgui.png");
            QVERIFY(w.grab().save(shot));
            qInfo("screenshot: %s", qPrintable(shot));
        }
        // Reopened: the answers are in the project.
        {
            MainWindow w;
            w.show();
            QSignalSpy shown(&w, &MainWindow::documentShown);
            QVERIFY(w.openProject(projectPath));
            QVERIFY(shown.count() >= 1 || shown.wait(30000));
            FieldsPanel *panel = w.fields()->panel();
            QVERIFY(panel->cellText(QStringLiteral("price"), FieldsPanel::StateColumn).startsWith(QStringLiteral("accepted")));
            if (!priceText.isEmpty())
                QCOMPARE(panel->cellText(QStringLiteral("price"), FieldsPanel::ValueColumn), priceText);
            QCOMPARE(panel->cellText(QStringLiteral("brand"), FieldsPanel::ValueColumn), QStringLiteral("Indesit"));
            QCOMPARE(panel->cellText(QStringLiteral("brand"), FieldsPanel::StateColumn), QStringLiteral("corrected"));
            QCOMPARE(panel->cellText(QStringLiteral("gtin"), FieldsPanel::ValueColumn), QStringLiteral("(no value on this page)"));
            QCOMPARE(panel->cellText(QStringLiteral("sku"), FieldsPanel::StateColumn), QStringLiteral("no answer"));
            QCOMPARE(w.fields()->fieldModelDir(), fieldModel);
            QCOMPARE(panel->fields().size(), 9); // the changed field set came back with the project
            {
                TrainingDialog tagger(w.project(), &w); // Model > Train on Project offers the field extractor here
                QVERIFY(tagger.findChild<QPushButton *>(QStringLiteral("trainFieldExtractor")));
            }

            // Exports: product-benchmark (the benchmark's key, no gtin), SWDE (gtin count 0), HF JSONL.
            QStringList written;
            QString error;
            const QString out = dir.filePath(QStringLiteral("export"));
            QVERIFY2(w.fields()->exportFields(QStringLiteral("product-benchmark"), out, &written, &error), qPrintable(error));
            QFile json(out + QStringLiteral("/data.json"));
            QVERIFY(json.open(QIODevice::ReadOnly));
            const QJsonObject pageAnswers = QJsonDocument::fromJson(json.readAll()).object().value(kPageKey).toObject();
            if (priceText.isEmpty())
                QVERIFY(!pageAnswers.contains(QStringLiteral("price")));
            else
                QCOMPARE(pageAnswers.value(QStringLiteral("price")).toArray(), QJsonArray({priceText}));
            QCOMPARE(pageAnswers.value(QStringLiteral("brand")).toArray(), QJsonArray({QStringLiteral("Indesit")}));
            QVERIFY(!pageAnswers.contains(QStringLiteral("gtin")));
            QVERIFY(!pageAnswers.contains(QStringLiteral("sku"))); // never answered
            std::vector<DatasetItem> back;
            QVERIFY2(createDatasetFormat(QStringLiteral("product-benchmark"))->importFile(json.fileName(), &back, &error), qPrintable(error));
            QCOMPARE(int(back.size()), 1);
            QCOMPARE(back[0].name, kPageKey);

            QVERIFY2(w.fields()->exportFields(QStringLiteral("swde"), out, &written, &error), qPrintable(error));
            QFile gtin(out + QStringLiteral("/fields-products-gtin.txt"));
            QVERIFY2(gtin.open(QIODevice::ReadOnly), qPrintable(written.join(QLatin1Char(' '))));
            QVERIFY(gtin.readAll().contains("0000\t0\t<NULL>"));

            QVERIFY2(w.fields()->exportFields(QStringLiteral("hfjsonl"), out, &written, &error), qPrintable(error));
            std::vector<DatasetItem> rows;
            QVERIFY2(createDatasetFormat(QStringLiteral("hfjsonl"))->importFile(out + QStringLiteral("/data.jsonl"), &rows, &error),
                     qPrintable(error));
            QCOMPARE(int(rows.size()), 1);
            QVERIFY(fieldedits::answerOf(rows[0].annotations, QStringLiteral("gtin")));
            QVERIFY(fieldedits::isNoValue(*fieldedits::answerOf(rows[0].annotations, QStringLiteral("gtin"))));
            QCOMPARE(fieldedits::answerOf(rows[0].annotations, QStringLiteral("brand"))->text, QStringLiteral("Indesit"));
        }
    }

    // Out of the box: no field model set, so Extract Fields uses the shipped product model (with the
    // page's structured-data candidates); the panel shows Cancel while it runs.
    void shippedModelOutOfTheBox()
    {
        FOLIO_REQUIRE_DATA(benchmarkPage());
        const QString shipped = pipeline::shippedFieldModelDir();
        if (shipped.isEmpty())
            FOLIO_DATA_MISSING(QStringLiteral("no WebFormer under resources/models (the shipped product model is not built in this checkout)"));
        QTemporaryDir dir;
        const QString page = dir.filePath(kPageKey + QStringLiteral(".html.gz"));
        QVERIFY(QFile::copy(benchmarkPage(), page));
        MainWindow w;
        w.show();
        QVERIFY(w.openProject(dir.filePath(QStringLiteral("shipped.folio"))));
        QSignalSpy shown(&w, &MainWindow::documentShown);
        w.openFile(page);
        QVERIFY(shown.count() == 1 || shown.wait(30000));
        FieldsController *fields = w.fields();
        QVERIFY(fields->fieldModelDir().isEmpty());
        QSignalSpy finished(fields, &FieldsController::extractionFinished);
        fields->panel()->findChild<QPushButton *>(QStringLiteral("extractFields"))->click();
        QVERIFY(fields->worker()->isBusy());
        QVERIFY(!fields->panel()->findChild<QPushButton *>(QStringLiteral("cancelFields"))->isHidden());
        QElapsedTimer clock;
        clock.start();
        QVERIFY(finished.wait(120000));
        qInfo("Extract Fields with the shipped model: %lld ms on a %d-word page (loaded machine)", clock.elapsed(),
              int(w.session()->document().words.size()));
        QCOMPARE(finished.front().front().toBool(), true);
        QVERIFY2(fields->lastMessage().contains(QStringLiteral("WebFormer ") + QDir(shipped).dirName()), qPrintable(fields->lastMessage()));
        QVERIFY(fields->panel()->findChild<QPushButton *>(QStringLiteral("cancelFields"))->isHidden());
        int suggested = 0;
        for (const FieldValue &v : w.session()->annotations().fields)
            suggested += v.state == ReviewState::Suggested ? 1 : 0;
        QVERIFY(suggested > 0);
        qInfo("shipped model: %s", qPrintable(fields->lastMessage()));
        clock.restart();
        QVERIFY(fields->extractFields()); // again: the loaded model is kept
        QVERIFY(finished.wait(120000));
        qInfo("again, model kept: %lld ms (loaded machine)", clock.elapsed());

        // Cancelled before it starts reading: cancelled, nothing applied.
        std::atomic_bool cancel{true};
        pipeline::FieldExtractionOptions options;
        options.cancel = &cancel;
        const pipeline::FieldExtraction r = pipeline::extractFields(w.session()->document(), fields->fieldSet(), options);
        QVERIFY(r.cancelled && !r.ok && r.values.empty());

        // A page with no structured-data price: the shipped price ranker picks it from the page text
        // and its words are what the page and the DOM tree highlight.
        const QString htmlDir = test::sharedPath(QStringLiteral("data/product-extraction-benchmark/dataset/html"));
        const QStringList candidates = QDir(htmlDir).entryList({QStringLiteral("01efbb74*.html.gz")}); // amazon.com, $87.11
        QCOMPARE(candidates.size(), 1);
        const HtmlLoadResult loaded = loadHtmlFile(htmlDir + QLatin1Char('/') + candidates.front());
        QVERIFY2(loaded.ok, qPrintable(loaded.error));
        const pipeline::FieldExtraction ranked = pipeline::extractFields(loaded.document, fields->fieldSet());
        QVERIFY2(ranked.ok, qPrintable(ranked.error));
        const auto price = std::find_if(ranked.values.begin(), ranked.values.end(),
                                        [](const FieldValue &v) { return v.field == QLatin1String("price"); });
        QVERIFY(price != ranked.values.end());
        QCOMPARE(price->source.checkpoint, QStringLiteral("price-ranker"));
        QCOMPARE(price->text, QStringLiteral("87.11"));
        QCOMPARE(price->wordIds.size(), 1);
        QVERIFY(price->confidence > 0 && price->confidence <= 1);
    }

    // ---- bad input ----

    void pageWithNoTextAndGiantPage()
    {
        const std::vector<pipeline::FieldSpec> fields{{QStringLiteral("price"), pipeline::FieldType::Price},
                                                      {QStringLiteral("brand"), pipeline::FieldType::Text}};
        pipeline::FieldExtractionOptions options;
        options.checkpointDir = m_tinyModel;
        const Document empty = loadBytes("<html><body><img src=x.png><div></div></body></html>", QStringLiteral("empty.html"));
        QVERIFY(empty.words.empty());
        pipeline::FieldExtraction r = pipeline::extractFields(empty, fields, options);
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(r.values.empty());
        QVERIFY2(r.notes.join(QLatin1Char(' ')).contains(QStringLiteral("no text")), qPrintable(r.notes.join(QLatin1Char(' '))));

        // Past the model's text budget (64 pieces): extracted from the head, and said so.
        const Document giant = loadBytes(productHtml(QStringLiteral("Acme"), QStringLiteral("12.99"), 3000), QStringLiteral("giant.html"));
        r = pipeline::extractFields(giant, fields, options);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(int(r.values.size()), 2);
        QVERIFY2(r.notes.join(QLatin1Char(' ')).contains(QStringLiteral("not seen")), qPrintable(r.notes.join(QLatin1Char(' '))));
        for (const FieldValue &v : r.values) {
            QCOMPARE(v.state, ReviewState::Suggested);
            for (const QString &id : v.wordIds)
                QVERIFY(giant.wordIndex(id) >= 0);
        }

        // A broken checkpoint folder and an empty field set are refused with messages.
        options.checkpointDir = m_models.filePath(QStringLiteral("missing"));
        r = pipeline::extractFields(giant, fields, options);
        QVERIFY(!r.ok && r.error.contains(QStringLiteral("config.json")));
        r = pipeline::extractFields(giant, {}, options);
        QVERIFY(!r.ok && r.error.contains(QStringLiteral("empty")));
    }

    void changedFieldSetAndScans()
    {
        // Fields the model was not trained on: answered, but named in a note.
        const std::vector<pipeline::FieldSpec> fields{{QStringLiteral("price"), pipeline::FieldType::Price},
                                                      {QStringLiteral("colour"), pipeline::FieldType::Text}};
        pipeline::FieldExtractionOptions options;
        options.checkpointDir = m_tinyModel;
        const Document page = loadBytes(productHtml(QStringLiteral("Acme"), QStringLiteral("12.99")), QStringLiteral("p.html"));
        pipeline::FieldExtraction r = pipeline::extractFields(page, fields, options);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.unknownFields, QStringList{QStringLiteral("colour")});
        QVERIFY2(r.notes.join(QLatin1Char(' ')).contains(QStringLiteral("does not know colour")), qPrintable(r.notes.join(QLatin1Char(' '))));
        QCOMPARE(int(r.values.size()), 1); // price only: the page has no structured data for colour
        QCOMPARE(r.values.front().field, QStringLiteral("price"));
        QCOMPARE(pipeline::checkpointFields(m_tinyModel), QStringList({QStringLiteral("price"), QStringLiteral("brand")}));

        // Scans: a WebFormer cannot read them; a tagger without the field names is refused naming its labels.
        Document scan = page;
        scan.kind = SourceKind::Image;
        r = pipeline::extractFields(scan, fields, options);
        QVERIFY(!r.ok && r.error.contains(QStringLiteral("layout tagger")));
        const QString tagger = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout-reading");
        if (QFileInfo::exists(tagger + QStringLiteral("/config.json"))) {
            options.checkpointDir = tagger;
            r = pipeline::extractFields(scan, fields, options);
            QVERIFY(!r.ok);
            QVERIFY2(r.error.contains(QStringLiteral("QUESTION")) && r.error.contains(QStringLiteral("colour")), qPrintable(r.error));
        }
    }

    // Model > Int8 Inference (issue 35): Extract Fields quantizes the WebFormer that answers and
    // says so; the same fields come back.
    void int8Extraction()
    {
        std::string why;
        if (inference::Predictor::int8Engine(&why).empty())
            FOLIO_SKIP_CASE(qPrintable(QString::fromStdString("no quantized engine: " + why)));
        const std::vector<pipeline::FieldSpec> fields{{QStringLiteral("price"), pipeline::FieldType::Price},
                                                      {QStringLiteral("brand"), pipeline::FieldType::Text}};
        const Document page = loadBytes(productHtml(QStringLiteral("Orbit"), QStringLiteral("12.99")), QStringLiteral("p.html"));
        pipeline::FieldExtractionOptions options;
        options.checkpointDir = m_tinyModel;
        const pipeline::FieldExtraction fp32 = pipeline::extractFields(page, fields, options);
        QVERIFY2(fp32.ok, qPrintable(fp32.error));
        QVERIFY(!fp32.source.contains(QStringLiteral("int8")));
        options.int8 = true;
        const pipeline::FieldExtraction int8 = pipeline::extractFields(page, fields, options);
        QVERIFY2(int8.ok, qPrintable(int8.error));
        QCOMPARE(int8.source, fp32.source + QStringLiteral(" (int8)"));
        QCOMPARE(int(int8.values.size()), int(fp32.values.size()));
        for (std::size_t i = 0; i < fp32.values.size(); ++i)
            QCOMPARE(int8.values[i].field, fp32.values[i].field);

        // The menu switch reaches the fields worker.
        MainWindow w;
        auto *action = w.findChild<QAction *>(QStringLiteral("int8Action"));
        QVERIFY(action);
        action->setChecked(true);
        pipeline::FieldExtraction result;
        bool delivered = false;
        connect(w.fields()->worker(), &FieldsWorker::extracted, &w, [&](qint64, const pipeline::FieldExtraction &r) {
            result = r;
            delivered = true;
        });
        QVERIFY(w.fields()->worker()->extract(1, page, fields, m_tinyModel));
        QTRY_VERIFY_WITH_TIMEOUT(delivered, 60000);
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(result.source, int8.source);
        action->setChecked(false);
    }

    // Structured data (schema.org JSON-LD) as the fallback: without any model, and for the fields
    // the model does not know.
    void structuredDataFallback()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ld.html"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("<html><head><script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@type\":\"Product\","
                    "\"name\":\"Acme kettle\",\"sku\":\"K-123\",\"brand\":{\"@type\":\"Brand\",\"name\":\"Acme\"},"
                    "\"offers\":{\"@type\":\"Offer\",\"price\":\"12.99\",\"priceCurrency\":\"EUR\"}}</script></head>");
            f.write(productHtml(QStringLiteral("Acme"), QStringLiteral("12.99")));
        }
        const HtmlLoadResult loaded = loadHtmlFile(path);
        QVERIFY2(loaded.ok, qPrintable(loaded.error));
        const std::vector<pipeline::FieldSpec> fields{{QStringLiteral("price"), pipeline::FieldType::Price},
                                                      {QStringLiteral("sku"), pipeline::FieldType::Identifier},
                                                      {QStringLiteral("colour"), pipeline::FieldType::Text}};
        pipeline::FieldExtractionOptions options;
        options.shippedModel = false;
        pipeline::FieldExtraction r = pipeline::extractFields(loaded.document, fields, options);
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(r.source.contains(QStringLiteral("structured data")));
        QCOMPARE(int(r.values.size()), 2); // no colour in the page's data
        Annotations a;
        fieldedits::mergeSuggestions(a, r.values);
        QCOMPARE(fieldedits::answerOf(a, QStringLiteral("sku"))->text, QStringLiteral("K-123"));
        QVERIFY(fieldedits::answerOf(a, QStringLiteral("price"))->text.contains(QStringLiteral("12.99")));
        QCOMPARE(fieldedits::answerOf(a, QStringLiteral("sku"))->source.checkpoint, QStringLiteral("structured-data:json-ld"));

        // With the tiny model (price, brand): sku comes from the page's data, colour stays unanswered.
        options.checkpointDir = m_tinyModel;
        r = pipeline::extractFields(loaded.document, fields, options);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.unknownFields, QStringList({QStringLiteral("sku"), QStringLiteral("colour")}));
        Annotations b;
        fieldedits::mergeSuggestions(b, r.values);
        QCOMPARE(fieldedits::answerOf(b, QStringLiteral("sku"))->text, QStringLiteral("K-123"));
        QVERIFY(!fieldedits::answerOf(b, QStringLiteral("colour")));
        QCOMPARE(fieldedits::answerOf(b, QStringLiteral("price"))->source.kind, AnnotationSource::Model);

        // No model and no structured data: nothing, and a note saying what to do.
        options.checkpointDir.clear();
        const QString plain = dir.filePath(QStringLiteral("plain.html"));
        {
            QFile f(plain);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(productHtml(QStringLiteral("Acme"), QStringLiteral("12.99")));
        }
        r = pipeline::extractFields(loadHtmlFile(plain).document, fields, options);
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(r.values.empty());
        QVERIFY2(r.notes.join(QLatin1Char(' ')).contains(QStringLiteral("Train Field Extractor")), qPrintable(r.notes.join(QLatin1Char(' '))));
    }

    // Scans through the layout tagger: fields named like its entity labels (FUNSD: question,
    // answer, header) get its most confident entity of that label as their value.
    void scanFieldsFromTaggerEntities()
    {
        const QString form = test::sharedPath(QStringLiteral("data/funsd/dataset/testing_data/annotations/82092117.json"));
        FOLIO_REQUIRE_DATA(form);
        const QString tagger = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout-reading");
        QVERIFY(QFileInfo::exists(tagger + QStringLiteral("/config.json")));
        const pipeline::LoadedDocument loaded = pipeline::loadDocumentFile(form);
        QVERIFY2(loaded.ok, qPrintable(loaded.error));
        QVERIFY(loaded.document.kind != SourceKind::Html);
        const std::vector<pipeline::FieldSpec> fields{{QStringLiteral("question"), pipeline::FieldType::Text},
                                                      {QStringLiteral("header"), pipeline::FieldType::Text},
                                                      {QStringLiteral("price"), pipeline::FieldType::Price}};
        pipeline::FieldExtractionOptions options;
        options.checkpointDir = tagger;
        const pipeline::FieldExtraction r = pipeline::extractFields(loaded.document, fields, options);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.unknownFields, QStringList{QStringLiteral("price")});
        QVERIFY(r.notes.join(QLatin1Char(' ')).contains(QStringLiteral("no label for price")));
        QVERIFY(!r.values.empty());
        for (const FieldValue &v : r.values) {
            QVERIFY(v.field == QLatin1String("question") || v.field == QLatin1String("header"));
            QVERIFY(!v.wordIds.isEmpty() && !v.text.isEmpty());
            QVERIFY(v.confidence > 0 && v.confidence <= 1);
            for (const QString &id : v.wordIds)
                QVERIFY(loaded.document.wordIndex(id) >= 0);
        }
    }

    void fieldsWithNoExamples()
    {
        QTemporaryDir dir;
        QString error;
        const QString path = dir.filePath(QStringLiteral("noexamples.folio"));
        auto project = Project::create(path, &error);
        QVERIFY2(project, qPrintable(error));
        const std::vector<pipeline::FieldSpec> fields{{QStringLiteral("price"), pipeline::FieldType::Price},
                                                      {QStringLiteral("brand"), pipeline::FieldType::Text}};
        pipeline::FieldTrainingData data;
        // No web page answered at all.
        QVERIFY(!pipeline::loadFieldTrainingData(project.get(), fields, &data, &error));
        QVERIFY2(error.contains(QStringLiteral("no web page")), qPrintable(error));
        // Only "no value" answers: no field has an example.
        Document doc = loadBytes(productHtml(QStringLiteral("Acme"), QStringLiteral("1.99")), dir.filePath(QStringLiteral("a.html")));
        Annotations a;
        QVERIFY(fieldedits::setNoValue(a, QStringLiteral("price")));
        QVERIFY(project->addDocument(doc, a, &error) >= 0);
        QVERIFY(!pipeline::loadFieldTrainingData(project.get(), fields, &data, &error));
        QVERIFY2(error.contains(QStringLiteral("no field has an example")) && error.contains(QStringLiteral("brand")), qPrintable(error));
        {
            FieldTrainingDialog dialog(project.get(), fields);
            QVERIFY(!dialog.canTrain());
            QVERIFY(dialog.summary().contains(QStringLiteral("no field has an example")));
        }
        // One value: brand is left out and named.
        Annotations b;
        QVERIFY(fieldedits::setValue(b, doc, QStringLiteral("price"), {doc.words[size_t(doc.words.size() - 4)].id}));
        QVERIFY(project->addDocument(doc, b, &error, QStringLiteral("b.html")) >= 0);
        QVERIFY2(pipeline::loadFieldTrainingData(project.get(), fields, &data, &error), qPrintable(error));
        QCOMPARE(data.fieldsWithoutExamples, QStringList{QStringLiteral("brand")});
        QCOMPARE(int(data.pages.size()), 2);
    }

    // The pure edit rules: a model run never replaces a user's answer; a rejected value is not offered again.
    void suggestionsNeverOverwriteAnswers()
    {
        Annotations a;
        const FieldValue user = answer(QStringLiteral("price"), QStringLiteral("5"));
        const FieldValue rejected = answer(QStringLiteral("sku"), QStringLiteral("X1"), ReviewState::Rejected);
        a.fields = {user, rejected};
        FieldValue p = user, s1 = rejected, s2 = rejected;
        p.text = QStringLiteral("7");
        p.source.kind = s1.source.kind = s2.source.kind = AnnotationSource::Model;
        s2.text = QStringLiteral("X2");
        QCOMPARE(fieldedits::mergeSuggestions(a, {p, s1, s2}), 1);
        QCOMPARE(fieldedits::answerOf(a, QStringLiteral("price"))->text, QStringLiteral("5"));
        QCOMPARE(fieldedits::answerOf(a, QStringLiteral("sku"))->text, QStringLiteral("X2"));
        QVERIFY(fieldedits::accept(a, QStringLiteral("sku")));
        QCOMPARE(int(a.fields.size()), 2); // the rejected X1 gave way to the accepted X2
        QVERIFY(!fieldedits::accept(a, QStringLiteral("sku")));

        const Document doc = loadBytes(productHtml(QStringLiteral("Acme"), QStringLiteral("12.99")), QStringLiteral("w.html"));
        QCOMPARE(fieldedits::wordsSpelling(doc, QStringLiteral(" Price:  12.99 ")).size(), 2);
        QVERIFY(fieldedits::wordsSpelling(doc, QStringLiteral("13.99")).isEmpty());
        QVERIFY(fieldedits::wordsSpelling(doc, QString(4097, QLatin1Char('x'))).isEmpty());
        // "Acme" twice (title and maker): the picked node's occurrence wins.
        int span = -1;
        for (int i = 0; i < int(doc.nodes.size()); ++i)
            if (doc.nodes[size_t(i)].tag == QLatin1String("span"))
                span = i;
        const QStringList inSpan = fieldedits::wordsSpelling(doc, QStringLiteral("Acme"), span);
        QCOMPARE(inSpan.size(), 1);
        QCOMPARE(inSpan.front(), doc.words.back().id);
    }
};

FOLIO_TEST_MAIN(TestFieldsGui)
#include "tst_fieldsgui.moc"
