#pragma once
// WhatIfPanel: the What If dock (issue 48). With "Edit boxes" on, the page canvas's word boxes can
// be dragged (moved), resized from their bottom-right corner, or deleted (Delete key); each edit
// makes an edited copy of the document (pipeline/whatif.h; the document itself is untouched), and
// the layout tagger re-runs on that copy in this dock's own thread. A newer edit supersedes the run
// in flight (its result is dropped; queued runs never start). The words whose label changed are
// listed (word, before, after) and drawn on the page as "before → after"; "Undo Last Edit" and
// "Back to the Document" undo.
//
// Refused with a message, the view unchanged: no document or no model, a model that is not
// Folio's layout tagger, a box dropped wholly off the page (one partly off is clamped onto it and
// said so), an edit that leaves a page without words, a web page (no boxes to drag).
//
// Usage (ui/explain/explaindocks.h wires it into the main window):
//   auto *whatIf = new folio::WhatIfPanel(parent);
//   whatIf->setCheckpointProvider([]{ return modelDir; });
//   whatIf->attachCanvas(scanPanel->canvas());
//   whatIf->setDocument(doc);
//   connect(whatIf, &WhatIfPanel::overlayColorsChanged, scanPanel, &ScanPanel::setOverlayColors);
//   connect(whatIf, &WhatIfPanel::overlayLabelsChanged, scanPanel, &ScanPanel::setOverlayLabels);

#include "document/document.h"
#include "pipeline/explainrun.h"
#include "pipeline/whatif.h"

#include <QColor>
#include <QHash>
#include <QPointer>
#include <QStringList>
#include <QThreadPool>
#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

class QCheckBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace folio {

class PageCanvas;
struct TaggerHolder;

class WhatIfPanel : public QWidget
{
    Q_OBJECT
public:
    explicit WhatIfPanel(QWidget *parent = nullptr);
    ~WhatIfPanel() override;

    void setCheckpointProvider(std::function<QString()> provider);
    void attachCanvas(PageCanvas *canvas);
    // A new (or replaced) document: back to it, edits and cached labels dropped.
    void setDocument(const Document &document);

    bool isEditing() const { return m_editing; }
    // Edit mode on: the canvas's Tool::EditBoxes, and the unedited labels computed ahead.
    void setEditing(bool on);

    // The edits the canvas asks for (also callable directly). False + message() when refused.
    bool requestBox(int word, const QRectF &pageRect);
    bool requestDelete(int word);
    void undoLastEdit();
    void backToDocument();
    // Sends the shown diff's overlays again (the dock raised after another overlay took the page).
    void reshowDiff();

    bool isRunning() const { return m_running > 0; }
    bool hasDiff() const { return m_diffGeneration == m_generation && !m_edits.empty(); }
    const Document &document() const { return m_document; }
    const Document &editedDocument() const { return m_edited; }
    const std::vector<pipeline::WordEdit> &edits() const { return m_edits; }
    const std::vector<pipeline::LabelChange> &changes() const { return m_changes; }
    const QStringList &labelsBefore() const { return m_before.labels; }
    const QStringList &labelsAfter() const { return m_after; }
    QString statusText() const;
    QString lastMessage() const { return m_lastMessage; }
    QTableWidget *table() const { return m_table; }

Q_SIGNALS:
    void overlayColorsChanged(const QHash<int, QColor> &colors);
    void overlayLabelsChanged(const QHash<int, QString> &labels);
    void message(const QString &text);
    // The diff of the latest edit is in the table and its overlays went out.
    void diffShown();
    // The unedited labels are known (edit mode on, or the first run).
    void labelsReady();

private:
    struct RunResult;
    void buildUi();
    bool applyEdits(std::vector<pipeline::WordEdit> edits, const QString &clampNote = QString());
    void startRun();
    void onRunDone(const RunResult &result, int generation);
    void showDiff();
    void clearDiff();
    void refreshCanvas();
    void say(const QString &text);
    void syncControls();
    QString checkpoint() const;

    QCheckBox *m_editToggle = nullptr;
    QPushButton *m_undo = nullptr;
    QPushButton *m_back = nullptr;
    QLabel *m_status = nullptr;
    QTableWidget *m_table = nullptr;
    QPointer<PageCanvas> m_canvas;
    std::function<QString()> m_checkpointProvider;

    Document m_document;
    Document m_edited;
    std::vector<pipeline::WordEdit> m_edits;
    pipeline::WordLabels m_before; // of m_document with m_beforeCheckpoint
    QString m_beforeCheckpoint;
    QStringList m_after;
    std::vector<pipeline::LabelChange> m_changes;
    QString m_lastMessage;
    bool m_editing = false;
    int m_documentGeneration = 0;  // bumped by setDocument
    int m_generation = 0;          // bumped by every edit, undo, back and new document
    int m_diffGeneration = -1;     // the generation whose diff is shown
    int m_running = 0;
    std::shared_ptr<std::atomic<int>> m_latest; // m_generation, read by the running job
    std::shared_ptr<TaggerHolder> m_tagger;     // used only in m_pool's thread
    QThreadPool m_pool;
};

} // namespace folio
