#include "ui/fields/fieldscontroller.h"

#include "document/formats/datasetformat.h"
#include "document/project/project.h"
#include "pipeline/markuplmfields.h"
#include "ui/annotation/annotationsession.h"
#include "ui/commands/fieldcommands.h"
#include "ui/documents/domtreemodel.h"
#include "ui/documents/domtreepanel.h"
#include "ui/fields/fieldhighlight.h"
#include "ui/fields/fieldsetdialog.h"
#include "ui/fields/fieldspanel.h"
#include "ui/workers/fieldsworker.h"
#include "ui/fields/fieldtrainingdialog.h"
#include "ui/team/projectservice.h"
#include "ui/documents/webpage.h"
#include "ui/documents/webpagepanel.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMainWindow>
#include <QMenu>
#include <QStatusBar>

namespace folio {

FieldsController::FieldsController(QMainWindow *window, AnnotationSession *session, ProjectService *projects,
                                   WebPagePanel *web, DomTreePanel *dom, std::function<QString()> modelDirectory)
    : QObject(window), m_window(window), m_session(session), m_projects(projects), m_web(web), m_dom(dom),
      m_modelDirectory(std::move(modelDirectory)), m_panel(new FieldsPanel(window)), m_worker(new FieldsWorker(this))
{
    m_fields = pipeline::defaultProductFields();
    m_panel->setFieldSpecs(m_fields);

    connect(m_session, &AnnotationSession::documentOpened, this, &FieldsController::refresh);
    connect(m_session, &AnnotationSession::annotationsChanged, this, &FieldsController::refresh);
    connect(m_session, &AnnotationSession::documentReplaced, this, &FieldsController::refresh);
    connect(m_projects, &ProjectService::projectOpened, this, [this] { reloadFieldSet(); refresh(); });
    connect(m_web, &WebPagePanel::rendered, this, [this] { highlight(); });

    connect(m_panel, &FieldsPanel::extractRequested, this, &FieldsController::extractFields);
    connect(m_panel, &FieldsPanel::cancelRequested, this, &FieldsController::cancel);
    connect(m_panel, &FieldsPanel::acceptRequested, this, &FieldsController::acceptField);
    connect(m_panel, &FieldsPanel::rejectRequested, this, &FieldsController::rejectField);
    connect(m_panel, &FieldsPanel::correctRequested, this, &FieldsController::correctField);
    connect(m_panel, &FieldsPanel::noValueRequested, this, &FieldsController::setNoValue);
    connect(m_panel, &FieldsPanel::clearRequested, this, &FieldsController::clearField);
    connect(m_panel, &FieldsPanel::fieldActivated, this, [this](const QString &field) {
        const std::vector<FieldMark> marks = fieldMarks(m_session->document(), m_session->annotations(), {field});
        if (marks.empty() || m_session->document().kind != SourceKind::Html)
            return;
        m_web->selectNode(marks.front().nodes.front());
        m_dom->selectNode(marks.front().nodes.front());
    });

    connect(m_worker, &FieldsWorker::progress, this, [this](int done, int total, const QString &text) {
        m_panel->setBusy(true, done, total);
        if (m_window)
            m_window->statusBar()->showMessage(text);
    });
    connect(m_worker, &FieldsWorker::extracted, this, &FieldsController::onExtracted);
}

FieldsController::~FieldsController() { m_worker->cancel(); }

void FieldsController::addModelActions(QMenu *model)
{
    model->addSeparator();
    QAction *extract = model->addAction(tr("&Extract Fields"), this, &FieldsController::extractFields);
    extract->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    extract->setObjectName(QStringLiteral("extractFieldsAction"));
    model->addAction(tr("Field &Set…"), this, &FieldsController::editFieldSet);
    model->addAction(tr("Choose &Field Extractor…"), this, &FieldsController::chooseFieldModel);
    model->addAction(tr("Train Field E&xtractor on Project…"), this, &FieldsController::trainFieldExtractor);
}

void FieldsController::addFileActions(QMenu *file)
{
    file->addAction(tr("Export &Fields…"), this, &FieldsController::exportFieldsDialog);
}

void FieldsController::say(const QString &text)
{
    m_lastMessage = text;
    m_panel->setMessage(text);
    if (m_window)
        m_window->statusBar()->showMessage(text, 10000);
    Q_EMIT message(text);
}

void FieldsController::reloadFieldSet()
{
    Project *project = m_projects->project();
    QString error;
    if (project && !pipeline::projectFieldSet(*project, &m_fields, &error))
        say(error);
    if (!project)
        m_fields = pipeline::defaultProductFields();
    m_panel->setFieldSpecs(m_fields);
}

bool FieldsController::setFieldSet(const std::vector<pipeline::FieldSpec> &fields)
{
    Project *project = m_projects->project();
    QString error;
    if (!project) {
        say(tr("Open a project first"));
        return false;
    }
    if (!pipeline::setProjectFieldSet(*project, fields, &error)) {
        say(error);
        return false;
    }
    m_fields = fields;
    m_panel->setFieldSpecs(m_fields);
    refresh();
    const QString model = fieldModelDir();
    // (a MarkupLM folder asks any field, or names the fields its labels miss when it extracts)
    const QStringList unknown = model.isEmpty() || pipeline::isMarkupLMFolder(model) ? QStringList()
                                                : pipeline::fieldsUnknownTo(pipeline::checkpointFields(model), m_fields);
    say(unknown.isEmpty() ? tr("Field set: %1").arg(pipeline::fieldNames(m_fields).join(QStringLiteral(", ")))
                          : tr("Field set saved. The field model %1 was not trained on %2: train it again on the project "
                               "(Model > Train Field Extractor) before trusting those fields.")
                                .arg(QDir(model).dirName(), unknown.join(QStringLiteral(", "))));
    return true;
}

QString FieldsController::fieldModelDir() const
{
    const Project *project = m_projects->project();
    return project ? pipeline::projectFieldModel(*project) : QString();
}

bool FieldsController::setFieldModelDir(const QString &checkpointDir)
{
    Project *project = m_projects->project();
    QString error;
    if (!project) {
        say(tr("Open a project first"));
        return false;
    }
    const QString type = checkpointDir.isEmpty() ? QString() : pipeline::checkpointModelType(checkpointDir);
    if (type == QLatin1String("markuplm")) {
        // Checked before anything is loaded: a refused folder leaves the current extractor chosen.
        if (!pipeline::checkMarkupLMFolder(checkpointDir, &error)) {
            say(tr("MarkupLM folder refused, the field extractor is unchanged: %1").arg(error));
            return false;
        }
    } else if (!checkpointDir.isEmpty() && type != QLatin1String("webformer")) {
        say(tr("%1: not a WebFormer or MarkupLM field extractor (config.json model_type is \"%2\")").arg(checkpointDir, type));
        return false;
    }
    if (!pipeline::setProjectFieldModel(*project, checkpointDir, &error)) {
        say(error);
        return false;
    }
    say(checkpointDir.isEmpty()                  ? tr("Field extractor: the shipped model")
        : type == QLatin1String("markuplm") ? tr("Field extractor: MarkupLM %1").arg(QDir(checkpointDir).dirName())
                                            : tr("Field extractor: %1").arg(QDir(checkpointDir).dirName()));
    return true;
}

bool FieldsController::extractFields()
{
    if (m_session->currentDocumentId() < 0) {
        say(tr("Open a document first"));
        return false;
    }
    if (m_worker->isBusy()) {
        say(tr("Field extraction is already running"));
        return false;
    }
    const Document &doc = m_session->document();
    QString dir;
    if (doc.kind == SourceKind::Html) {
        dir = fieldModelDir();
        if (!dir.isEmpty() && !QFileInfo(QDir(dir).filePath(QStringLiteral("config.json"))).isFile()) {
            say(tr("The project's field extractor %1 is gone; using the shipped model").arg(dir));
            dir.clear();
        }
    } else {
        dir = m_modelDirectory ? m_modelDirectory() : QString();
    }
    m_panel->setBusy(true, 0, 0);
    say(tr("Extracting fields…"));
    m_worker->extract(m_session->currentDocumentId(), doc, m_fields, dir);
    return true;
}

void FieldsController::cancel() { m_worker->cancel(); }

void FieldsController::onExtracted(qint64 documentId, const pipeline::FieldExtraction &result)
{
    m_panel->setBusy(false);
    if (result.cancelled) {
        say(tr("Field extraction cancelled"));
        Q_EMIT extractionFinished(false);
        return;
    }
    if (!result.ok) {
        say(result.error);
        Q_EMIT extractionFinished(false);
        return;
    }
    if (documentId != m_session->currentDocumentId()) {
        say(tr("Another document was opened while fields were extracted: the answers were not applied"));
        Q_EMIT extractionFinished(false);
        return;
    }
    // Values taken from the page's structured data carry text only: where the page spells them in
    // its own words, those words are the value's place (so it is highlighted like the others).
    std::vector<FieldValue> values = result.values;
    for (FieldValue &v : values)
        if (v.wordIds.isEmpty() && !v.text.trimmed().isEmpty())
            v.wordIds = fieldedits::wordsSpelling(m_session->document(), v.text);
    Annotations after = m_session->annotations();
    const int added = fieldedits::mergeSuggestions(after, values);
    if (added > 0)
        fieldedits::pushFieldEdit(m_session, tr("Extract fields (%1)").arg(added), after);
    QStringList text{tr("%1 field answers from %2").arg(added).arg(result.source)};
    text += result.notes;
    say(text.join(QStringLiteral(". ")));
    Q_EMIT extractionFinished(true);
}

void FieldsController::refresh()
{
    m_panel->setAnswers(m_session->annotations());
    highlight();
}

void FieldsController::highlight()
{
    const Document &doc = m_session->document();
    const std::vector<FieldMark> marks =
        m_session->currentDocumentId() >= 0 ? fieldMarks(doc, m_session->annotations(), pipeline::fieldNames(m_fields))
                                            : std::vector<FieldMark>();
    if (doc.kind != SourceKind::Html)
        return;
    QHash<int, DomTreeModel::NodeMark> domMarks;
    for (const FieldMark &m : marks)
        for (int node : m.nodes) {
            QColor c = m.color;
            c.setAlpha(m.suggested ? 60 : 110);
            domMarks.insert(node, {c, m.label});
            const int parent = node < int(doc.nodes.size()) ? doc.nodes[size_t(node)].parent : -1;
            if (parent > 0 && !domMarks.contains(parent))
                domMarks.insert(parent, {c, m.label});
        }
    if (m_dom->model()->document().sourcePath == doc.sourcePath)
        m_dom->model()->setNodeMarks(domMarks);
    if (m_web->isRendered() && m_web->document().sourcePath == doc.sourcePath)
        drawFieldOverlay(m_web->page(), m_web->document(), marks);
}

bool FieldsController::acceptField(const QString &field)
{
    Annotations after = m_session->annotations();
    return fieldedits::accept(after, field) && fieldedits::pushFieldEdit(m_session, tr("Accept %1").arg(field), after);
}

bool FieldsController::rejectField(const QString &field)
{
    Annotations after = m_session->annotations();
    return fieldedits::reject(after, field) && fieldedits::pushFieldEdit(m_session, tr("Reject %1").arg(field), after);
}

bool FieldsController::correctFieldWith(const QString &field, const QString &text)
{
    const QStringList words = fieldedits::wordsSpelling(m_session->document(), text, m_dom->currentNode());
    if (words.isEmpty()) {
        say(tr("\"%1\" is not among the page's words: select whole words of the value").arg(text.simplified().left(80)));
        return false;
    }
    Annotations after = m_session->annotations();
    return fieldedits::setValue(after, m_session->document(), field, words)
           && fieldedits::pushFieldEdit(m_session, tr("Correct %1").arg(field), after);
}

bool FieldsController::correctField(const QString &field)
{
    if (m_session->currentDocumentId() < 0)
        return false;
    const QString selected = m_session->document().kind == SourceKind::Html ? m_web->page()->selectedText() : QString();
    if (!selected.trimmed().isEmpty())
        return correctFieldWith(field, selected);
    const QStringList words = m_session->selectedWords();
    if (words.isEmpty()) {
        say(tr("Select the value of %1 on the page (or pick its DOM node) first").arg(field));
        return false;
    }
    Annotations after = m_session->annotations();
    return fieldedits::setValue(after, m_session->document(), field, words)
           && fieldedits::pushFieldEdit(m_session, tr("Correct %1").arg(field), after);
}

bool FieldsController::setNoValue(const QString &field)
{
    Annotations after = m_session->annotations();
    return fieldedits::setNoValue(after, field)
           && fieldedits::pushFieldEdit(m_session, tr("%1: no value on this page").arg(field), after);
}

bool FieldsController::clearField(const QString &field)
{
    Annotations after = m_session->annotations();
    return fieldedits::clear(after, field) && fieldedits::pushFieldEdit(m_session, tr("Clear %1").arg(field), after);
}

bool FieldsController::exportFields(const QString &format, const QString &outDir, QStringList *written, QString *error)
{
    Project *project = m_projects->project();
    const std::unique_ptr<DatasetFormat> writer = createDatasetFormat(format);
    if (!project || !writer) {
        *error = !project ? tr("Open a project first") : tr("unknown format \"%1\"").arg(format);
        return false;
    }
    std::vector<DatasetItem> items;
    for (const ProjectDocument &info : project->documents(DocumentOrder::Position, error)) {
        DatasetItem item;
        if (!project->loadDocument(info.id, &item.document, &item.annotations, error))
            return false;
        if (item.document.kind != SourceKind::Html && item.annotations.fields.empty())
            continue;
        item.name = QFileInfo(info.sourcePath).fileName();
        items.push_back(std::move(item));
    }
    if (!error->isEmpty())
        return false;
    DatasetExportOptions options;
    options.site = QFileInfo(project->path()).completeBaseName();
    options.vertical = QStringLiteral("fields");
    return writer->exportItems(items, outDir, options, written, error);
}

void FieldsController::editFieldSet()
{
    if (!m_projects->ensureOpen())
        return;
    FieldSetDialog dialog(m_fields, m_window);
    if (dialog.exec() == QDialog::Accepted)
        setFieldSet(dialog.fieldSet());
}

void FieldsController::chooseFieldModel()
{
    const QString dir = QFileDialog::getExistingDirectory(m_window, tr("Choose a field extractor folder (WebFormer or Hugging Face MarkupLM)"), fieldModelDir());
    if (!dir.isEmpty())
        setFieldModelDir(dir);
}

void FieldsController::trainFieldExtractor()
{
    if (!m_projects->ensureOpen())
        return;
    FieldTrainingDialog dialog(m_projects->project(), m_fields, m_window);
    if (dialog.exec() == QDialog::Accepted && !dialog.checkpointDir().isEmpty()) {
        setFieldModelDir(dialog.checkpointDir());
        if (!dialog.rankerNotes().isEmpty())
            say(dialog.rankerNotes().join(QStringLiteral("; ")));
        Q_EMIT extractorTrained();
    }
}

void FieldsController::exportFieldsDialog()
{
    bool ok = false;
    const QString format = QInputDialog::getItem(m_window, tr("Export fields"), tr("Format"),
                                                 {QStringLiteral("product-benchmark"), QStringLiteral("swde"),
                                                  QStringLiteral("hfjsonl")},
                                                 0, false, &ok);
    if (!ok)
        return;
    const QString dir = QFileDialog::getExistingDirectory(m_window, tr("Export fields into"));
    if (dir.isEmpty())
        return;
    QStringList written;
    QString error;
    if (exportFields(format, dir, &written, &error))
        say(tr("Exported %1 file(s) to %2").arg(written.size()).arg(dir));
    else
        say(error);
}

} // namespace folio
