#pragma once
// WhyLabelPanel: the Why This Label dock (issue 48). For one word of the page (the clicked one), the
// layout tagger's attributions of its predicted label over the words of its model window
// (pipeline/explainrun.h; inference/formtagger/taggerexplain.h defines them): attention rollout,
// gradient x input, integrated gradients with the steps said. Computed in this dock's own thread
// in three stages that appear as they finish (rollout: one forward; gradient x input: one forward
// + backward; integrated gradients: about steps x (forward + backward)), with a progress bar
// estimated from the gradient pass and Cancel. Shown as a table (largest first) and as a heat
// overlay on the page (red: for the label, blue: against; the explained word gold).
//
// Cancel (or a newer word) drops the run's result at once; a stage already inside the model
// finishes in the background (the tagger has no way to stop one midway), and queued stages
// never start.
//
// Usage (ui/explain/explaindocks.h):
//   auto *why = new folio::WhyLabelPanel(parent);
//   why->setCheckpointProvider([]{ return modelDir; });
//   why->setDocument(doc);
//   why->explainWord(word);
//   connect(why, &WhyLabelPanel::wordColorsChanged, scanPanel, &ScanPanel::setOverlayColors);

#include "document/document.h"
#include "pipeline/explainrun.h"

#include <QColor>
#include <QElapsedTimer>
#include <QHash>
#include <QThreadPool>
#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace folio {

struct TaggerHolder;

class WhyLabelPanel : public QWidget
{
    Q_OBJECT
public:
    // The table's value columns; each item holds its exact value in Qt::UserRole, and the word
    // column its Document word index.
    enum Column { WordColumn, TextColumn, LabelColumn, RolloutColumn, GradInputColumn, IgColumn, IgBoxColumn, IgTextColumn, ColumnCount };
    enum class Shown { IntegratedGradients, GradientInput, Rollout };

    explicit WhyLabelPanel(QWidget *parent = nullptr);
    ~WhyLabelPanel() override;

    void setCheckpointProvider(std::function<QString()> provider);
    void setDocument(const Document &document);
    void setIgSteps(int steps); // 0 = no integrated gradients
    int igSteps() const;
    void setShown(Shown shown);  // which attribution colours the page

    bool isRunning() const { return m_active; }
    int word() const { return m_word; }
    // The latest stage shown: 0 none, 1 rollout, 2 + gradient x input, 3 + integrated gradients.
    int stage() const { return m_stage; }
    const pipeline::WordAttributions &attributions() const { return m_result; }
    QTableWidget *table() const { return m_table; }
    QString statusText() const;
    QString lastMessage() const { return m_lastMessage; }
    const QHash<int, QColor> &wordColors() const { return m_colors; }
    // Sends the heat overlay again (the dock raised after another overlay took the page); false
    // when there is none.
    bool reshowOverlay();

public Q_SLOTS:
    // Starts explaining `word` (a newer call supersedes the run in flight).
    void explainWord(int word);
    void cancel();

Q_SIGNALS:
    void wordColorsChanged(const QHash<int, QColor> &colors);
    void message(const QString &text);
    void stageShown(int stage);
    void finished(bool ok); // after the last stage, or an error (not after Cancel)

private:
    struct StageResult;
    void buildUi();
    void runStage(int stage);
    void onStageDone(const StageResult &result, int generation, int stage);
    void showResult();
    void refreshOverlay();
    void say(const QString &text);
    void syncControls();
    QString checkpoint() const;

    QLabel *m_title = nullptr;
    QSpinBox *m_steps = nullptr;
    QComboBox *m_shownBox = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_method = nullptr;
    QTableWidget *m_table = nullptr;
    QTimer *m_tick = nullptr;
    QElapsedTimer m_stageClock;
    double m_estimate = 0; // seconds the running stage should take

    std::function<QString()> m_checkpointProvider;
    Document m_document;
    pipeline::WordLabels m_labels; // the document's labels with m_labelsCheckpoint
    QString m_labelsCheckpoint;
    int m_documentGeneration = 0;
    int m_word = -1;
    int m_stage = 0;
    int m_runSteps = 0;
    pipeline::WordAttributions m_result;
    QHash<int, QColor> m_colors;
    Shown m_shown = Shown::IntegratedGradients;
    QString m_lastMessage;
    int m_generation = 0;
    int m_running = 0;
    bool m_active = false; // a word's stages are under way (not cancelled, not finished)
    std::shared_ptr<std::atomic<int>> m_latest;
    std::shared_ptr<TaggerHolder> m_tagger;
    QThreadPool m_pool;
};

} // namespace folio
