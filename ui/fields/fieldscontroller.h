#pragma once
// FieldsController: web fields in the GUI (issue 15), composed by MainWindow. It owns the Fields
// panel, the fields worker and the field actions, and connects them to the annotation session,
// the project, the rendered page and the DOM tree:
//   - Model > Field Set… edits the project's field set (stored in the project settings);
//   - Model > Extract Fields (Ctrl+E) runs the field extractor on the current document in a worker
//     (progress and cancel in the status bar): on web pages the project's field model (set by
//     Train Field Extractor or Choose Field Extractor), else the shipped product model; on scans
//     the current layout tagger's entities (labels named like the fields). Answers arrive as
//     suggestions, never over what the user accepted;
//   - answers are highlighted on the rendered page (an overlay, colour per field, confidence) and
//     in the DOM tree (background + note), and listed in the Fields panel, where accept / reject /
//     correct (text selected on the page, else the picked DOM node's words) / "no value" / clear
//     are undoable session edits, saved at once;
//   - Model > Choose Field Extractor… takes a WebFormer or a Hugging Face MarkupLM folder (QA: each
//     field asked as a question; token classification: its labels answer the fields named like
//     them); a MarkupLM folder is checked before anything loads, and a refused one keeps the
//     current extractor;
//   - Model > Train Field Extractor… trains a WebFormer on the project's answers; the result becomes
//     the project's field model;
//   - File > Export Fields… writes the project's answers as SWDE, HF JSONL or product-benchmark.
// Failures are shown as messages (status bar / the panel's message line); nothing throws.
#include "pipeline/webfieldextraction.h"
#include "pipeline/webfieldset.h"

#include <QObject>
#include <QPointer>

#include <functional>

#include <vector>

class QAction;
class QMainWindow;
class QMenu;

namespace folio {

class AnnotationSession;
class DomTreePanel;
class FieldsPanel;
class FieldsWorker;
class ProjectService;
class WebPagePanel;

class FieldsController : public QObject
{
    Q_OBJECT
public:
    // `modelDirectory` gives the window's current (tagger) model folder, for scans.
    FieldsController(QMainWindow *window, AnnotationSession *session, ProjectService *projects, WebPagePanel *web,
                     DomTreePanel *dom, std::function<QString()> modelDirectory);
    ~FieldsController() override;

    FieldsPanel *panel() const { return m_panel; }
    FieldsWorker *worker() const { return m_worker; }
    void addModelActions(QMenu *model);
    void addFileActions(QMenu *file);

    std::vector<pipeline::FieldSpec> fieldSet() const { return m_fields; }
    bool setFieldSet(const std::vector<pipeline::FieldSpec> &fields); // stores it in the project
    // The project's field model (setting "field_model"); empty when none is set.
    QString fieldModelDir() const;
    bool setFieldModelDir(const QString &checkpointDir);
    // The last message shown (notes of an extraction, refusals).
    QString lastMessage() const { return m_lastMessage; }

    // Field edits of the current document (undoable); false when nothing changed.
    bool acceptField(const QString &field);
    bool rejectField(const QString &field);
    bool correctField(const QString &field);                      // page text selection, else picked node
    bool correctFieldWith(const QString &field, const QString &text); // text as if selected on the page
    bool setNoValue(const QString &field);
    bool clearField(const QString &field);
    // Writes every document's accepted answers of the project; false + *error naming the problem.
    bool exportFields(const QString &format, const QString &outDir, QStringList *written, QString *error);

public Q_SLOTS:
    bool extractFields(); // false when it could not start (the reason is in lastMessage())
    void cancel();
    void editFieldSet();
    void chooseFieldModel();
    void trainFieldExtractor();
    void exportFieldsDialog();
    void refresh(); // panel + highlights from the session

Q_SIGNALS:
    void message(const QString &text);
    void extractionFinished(bool ok);
    void extractorTrained(); // Train Field Extractor saved a model that is the extractor now (lastMessage())

private:
    void reloadFieldSet();
    void onExtracted(qint64 documentId, const pipeline::FieldExtraction &result);
    void highlight();
    void say(const QString &text);

    QPointer<QMainWindow> m_window;
    AnnotationSession *m_session;
    ProjectService *m_projects;
    WebPagePanel *m_web;
    DomTreePanel *m_dom;
    std::function<QString()> m_modelDirectory;
    FieldsPanel *m_panel;
    FieldsWorker *m_worker;
    std::vector<pipeline::FieldSpec> m_fields;
    QString m_lastMessage;
};

} // namespace folio
