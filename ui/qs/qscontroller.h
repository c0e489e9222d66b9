#pragma once
// QsController: question-summary hierarchies in the main window (issue 14), composed by
// MainWindow. It owns the hierarchy editor dock (QsPanel) and the generation worker and connects
// them to the session and the views:
//   - the current item's evidence is highlighted on the scan page (a green band per word; the
//     page of its first word is shown when the current page has none), on the rendered web page
//     (an overlay layer "__folio_qs_evidence") and in the Sections tab (green rows);
//   - a section picked in the Sections tab, then E in the editor, attaches that section; on a
//     rendered web page E takes the text selected on the page first (its words, found by spelling);
//   - Model > Generate Question-Summary Hierarchy (Ctrl+Shift+G) runs the chosen QS checkpoint
//     (Model > Choose QS Model…; default the shipped resources/models/qmsum-qs) in a worker with
//     progress and cancel in the dock; results arrive as suggestions (qsedit::mergeGenerated:
//     accepted, edited, rejected and user items are never overwritten); G in the editor
//     regenerates below the current item, keeping the rest;
//   - Model > Questions: Templates | Neural question writer (qs-questions) picks how the drafter
//     writes its questions (kept in QSettings "qs/questions": templates | neural); neural hands the
//     shipped question generator to the worker (QsWorker::setQuestionModel).
// Nothing throws; failures are shown in the dock's message line (lastMessage()).
#include <QObject>
#include <QString>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;
class QListWidget;
class QProgressBar;
class QPushButton;

namespace folio {

class AnnotationSession;
class QsPanel;
class QsWorker;
class ScanPanel;
class SectionsPanel;
class WebPagePanel;
struct QsGeneration;

class QsController : public QObject
{
    Q_OBJECT
public:
    QsController(QMainWindow *window, AnnotationSession *session, ScanPanel *scan, WebPagePanel *web, SectionsPanel *sections);
    ~QsController() override;

    QsPanel *panel() const { return m_panel; }
    QDockWidget *dock() const { return m_dock; }
    QsWorker *worker() const { return m_worker; }
    QProgressBar *progressBar() const { return m_progress; }
    QListWidget *arrivals() const { return m_arrivals; } // drafts as they arrive, while a run goes on
    void addModelActions(QMenu *model);

    QString checkpointDir() const; // the chosen QS checkpoint, else the shipped one
    void setCheckpointDir(const QString &dir);
    void setMaxLength(int tokens) { m_maxLength = tokens; } // 0: the checkpoint's (tests use less)
    // The drafter's question writer: the neural question generator (true) or templates; kept in QSettings.
    bool neuralQuestions() const { return m_neuralQuestions; }
    void setNeuralQuestions(bool on);
    QAction *neuralQuestionsAction() const { return m_neuralAction; } // Model > Questions (after addModelActions)
    QString lastMessage() const { return m_lastMessage; }
    // Word indices (Document::words) and section indices highlighted for the current item.
    QList<int> highlightedWords() const { return m_words; }
    QList<int> highlightedSections() const { return m_sections; }
    // The overlay script for the rendered page (words' boxes merged per DOM node); tests.
    static QString webOverlayScript(const struct Document &doc, const QList<int> &words);

public Q_SLOTS:
    bool generate(const QString &belowId = {}); // false when it could not start (see lastMessage())
    void cancel();
    void chooseCheckpointDialog();
    void highlightEvidence(const QString &id);

Q_SIGNALS:
    void generationFinished(int added); // also after a cancel or failure (added = -1)

private:
    void onGenerated(const QsGeneration &g);
    void setBusy(bool busy);
    void showMessage(const QString &text);
    void paintSections();

    QMainWindow *m_window;
    AnnotationSession *m_session;
    ScanPanel *m_scan;
    WebPagePanel *m_web;
    SectionsPanel *m_sectionsPanel;
    QsPanel *m_panel = nullptr;
    QDockWidget *m_dock = nullptr;
    QsWorker *m_worker = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancel = nullptr;
    QListWidget *m_arrivals = nullptr;
    QString m_checkpoint;
    QString m_lastMessage;
    int m_maxLength = 0;
    bool m_neuralQuestions = false;
    QAction *m_templatesAction = nullptr;
    QAction *m_neuralAction = nullptr;
    QList<int> m_words;
    QList<int> m_sections;
};

} // namespace folio
