#pragma once
// AttentionPanel: the Attention dock. Shows a traced run's attention (or one bias term, or the
// attention with a bias family switched off) as a heatmap, and puts it on the document: select a
// word box (scan) or a DOM node (web page) and every other box is coloured by how much the
// selection attends to it (or, with "attended by", how much it attends to the selection).
// Bias ablation, live: tick families under "Ablate", press Re-run, and the words whose predicted
// label changed are listed and coloured as a diff.
//
// Usage (MainWindow composes and connects only):
//   auto *attention = new folio::AttentionPanel(this);
//   attentionDock->setWidget(attention);
//   attention->setDocument(doc, annotations);          // on every document change
//   attention->runOn(checkpointDir);                   // traced run in a worker thread
//   // or attention->setTrace(trace) with a trace made elsewhere (returns false + message())
//   connect(pageCanvas, &PageCanvas::boxClicked, attention, &folio::AttentionPanel::onBoxClicked);
//   connect(attention, &folio::AttentionPanel::wordColorsChanged, pageCanvas, &PageCanvas::setBoxColors);
//   connect(attention, &folio::AttentionPanel::wordLabelsChanged, pageCanvas, &PageCanvas::setBoxLabels);
//   connect(domTree, &folio::DomTreePanel::nodeSelected, attention, &folio::AttentionPanel::selectNode);
//   connect(attention, &folio::AttentionPanel::nodeColorsChanged, ...);   // DOM node index -> colour
//   connect(attention, &folio::AttentionPanel::message, statusBar, ...);   // errors and notes
// The colour maps are keyed by word index (Document::words) / node index (Document::nodes); an
// empty map means "clear the overlay". Nothing here throws.

#include "document/annotations.h"
#include "document/document.h"
#include "attention/attentionviewmodel.h"
#include "pipeline/hibridsbias.h"

#include <QColor>
#include <QHash>
#include <QWidget>

#include <cstdint>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace folio {

class HeatmapView;
struct AttentionRunResult;

class AttentionPanel : public QWidget
{
    Q_OBJECT
public:
    explicit AttentionPanel(QWidget *parent = nullptr);
    ~AttentionPanel() override;

    void setDocument(const Document &document, const Annotations &annotations = Annotations());
    // Shows a finished trace (labels: the run's predicted labels per word, may be empty).
    // Returns false and emits message() when it does not fit the document (another document or
    // checkpoint, a window larger than the model's, an empty trace).
    bool setTrace(AttentionTrace trace, const QStringList &labels = QStringList());
    // Runs `checkpointDir` on the current document with tracing on, in a worker thread.
    void runOn(const QString &checkpointDir);
    bool isRunning() const { return m_running > 0; }

    AttentionViewModel *viewModel() const { return m_model; }
    HeatmapView *heatmap() const { return m_heatmap; }
    QString statusText() const;
    // The last word colours sent out (for tests).
    const QHash<int, QColor> &wordColors() const { return m_wordColors; }
    // Words whose label differs between the full and the ablated run: word -> (full, ablated).
    const QHash<int, QPair<QString, QString>> &labelDiff() const { return m_labelDiff; }

    // HIBRIDS' hierarchical bias of `checkpointDir` over the document's sections, shown as a
    // sections x sections matrix under the attention (the panel's layer / head; avg = mean).
    // Clicking a row (or selectHierarchySection) colours every section, in the Sections tab and
    // on the page, by the bias from that section. False + message() when the checkpoint has no
    // such table or the document no sections. Recomputed when the document changes.
    // Reads the tables on the calling thread (tests); the panel's own button and a document change
    // read them in the pool (loadHierarchyBias) and show them when they arrive.
    bool showHierarchyBias(const QString &checkpointDir);
    void loadHierarchyBias(const QString &checkpointDir);
    void selectHierarchySection(int section);
    HeatmapView *hierarchyHeatmap() const { return m_hierHeatmap; }
    const pipeline::HibridsSectionBias &hierarchyBias() const { return m_hier; }
    // The last section colours sent out (for tests).
    const QHash<int, QColor> &sectionColors() const { return m_sectionColors; }

    bool exportPng(const QString &path, QString *error) const;
    bool exportSvg(const QString &path, QString *error) const;
    bool exportSafetensors(const QString &path, QString *error) const;

public Q_SLOTS:
    // A click on a word box; add = true extends the selection (Ctrl/Shift click): sums.
    void selectWord(int wordIndex, bool add = false);
    // PageCanvas::boxClicked: Ctrl or Shift adds to the selection.
    void onBoxClicked(int wordIndex, Qt::KeyboardModifiers modifiers);
    // A DOM node (web page / DOM tree): selects the units of the words under it.
    void selectNode(int nodeIndex, bool add = false);
    void clearSelection();
    // Re-runs the checkpoint with the ticked bias families switched off and shows the label diff.
    void runAblation();

Q_SIGNALS:
    void wordColorsChanged(const QHash<int, QColor> &colors);
    // Section index -> colour: the selection's attention rolled up to sections (mean over each
    // section's own words), or the hierarchical bias from the picked section; empty = clear.
    void sectionColorsChanged(const QHash<int, QColor> &colors);
    void nodeColorsChanged(const QHash<int, QColor> &colors);
    // After an ablation run: word -> "FULL → ABLATED" for the words whose label changed.
    void wordLabelsChanged(const QHash<int, QString> &labels);
    void message(const QString &text);
    void runFinished(bool ok);

private:
    bool applyHierarchyBias(const QString &checkpointDir, pipeline::HibridsSectionBias bias);
    void buildUi();
    void syncControls();
    void refreshMatrix();
    void refreshOverlay();
    void onModeChosen();
    void startRun(std::uint32_t disabled);
    void onRunDone(AttentionRunResult result);
    void say(const QString &text);
    void exportWithDialog(const QString &kind);
    void refreshHierarchy();

    AttentionViewModel *m_model = nullptr;
    HeatmapView *m_heatmap = nullptr;
    QSpinBox *m_layer = nullptr;
    QSpinBox *m_head = nullptr;
    QComboBox *m_mode = nullptr;
    QComboBox *m_granularity = nullptr;
    QComboBox *m_direction = nullptr;
    QList<QCheckBox *> m_ablate;
    QPushButton *m_rerun = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_diff = nullptr;

    Document m_document;
    Annotations m_annotations;
    QString m_checkpoint;
    QStringList m_labels;        // full run, per word
    QStringList m_ablatedLabels; // ablated run, per word
    QHash<int, QPair<QString, QString>> m_labelDiff;
    QHash<int, QColor> m_wordColors;
    QHash<int, QColor> m_sectionColors;
    HeatmapView *m_hierHeatmap = nullptr;
    QString m_hierCheckpoint;
    pipeline::HibridsSectionBias m_hier;
    int m_hierSection = -1;
    QString m_lastMessage;
    int m_running = 0;
    int m_generation = 0; // drops results of runs started before a document change
    bool m_syncing = false;
};

} // namespace folio
