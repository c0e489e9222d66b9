#pragma once
// HeadGridPanel: the Head Grid dock (issue 48) — every layer x head of the Attention dock's trace
// at once, as thumbnails (attention/headgrid.h draws them), the bias terms as extra rows. Shows
// the selected word's attention on the page, or each head's whole matrix. Thumbnails are drawn
// off the GUI thread (QtConcurrent) and appear row by row as they are computed; a new trace,
// word or option cancels the run in flight. Heads sort inside each layer by mean 2-D distance on
// the page, by mean DOM-tree distance (web pages) or section-tree distance (documents with
// sections), or by entropy. A click on a thumbnail emits headChosen (the Attention dock opens
// that layer / head: attentioninspectors.h). Export: PNG, SVG or HTML by the file's suffix.
//
// Inside a hidden dock (a parent, not visible) nothing is computed: the request waits for the
// panel to be shown, so Show Attention does not draw a grid nobody looks at.
//
// A trace larger than memoryBudget() is not copied: the panel says how large it is and shows a
// smaller window (the first tokens of one window that fit, cropAttentionWindow); the Tokens
// control picks another size.
//
// Usage:
//   auto *grid = new folio::HeadGridPanel(this);
//   grid->setViewModel(attentionPanel->viewModel());  // follows its trace
//   connect(canvas, &PageCanvas::boxClicked, grid, [grid](int w) { grid->selectWord(w); });
//   connect(grid, &folio::HeadGridPanel::headChosen, ...);

#include "attention/headgrid.h"
#include "document/document.h"

#include <QFuture>
#include <QPointer>
#include <QWidget>

#include <atomic>
#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;

namespace folio {

class AttentionViewModel;
class HeadGridView;

class HeadGridPanel : public QWidget
{
    Q_OBJECT
public:
    explicit HeadGridPanel(QWidget *parent = nullptr);
    ~HeadGridPanel() override;

    // Follows `model`'s trace and document (nullptr: none). Recomputes on every trace change.
    void setViewModel(AttentionViewModel *model);
    // Bytes of trace the grid may copy (default 1 GiB); larger traces are cropped to a window.
    void setMemoryBudget(qint64 bytes);
    qint64 memoryBudget() const { return m_budget; }
    void setThumbnailSide(int pixels);

    void setSort(folio::HeadSort sort);
    void setBiasRows(bool on);
    bool hasTreeDistance() const { return !m_treeParent.empty(); }
    QString treeName() const { return m_treeName; } // "DOM-tree" / "section-tree" / ""

    bool isComputing() const { return m_inFlight > 0; }
    HeadGridView *view() const { return m_view; }
    int expectedThumbnailCount() const;
    // The trace the grid shows (cropped when the source was too large); null before a trace.
    std::shared_ptr<const AttentionTrace> shownTrace() const { return m_trace; }
    const std::vector<HeadStatistics> &statistics() const { return m_stats; }
    // Heads of one row in drawing order; the row's layer (-1 for a bias row) and bias term.
    std::vector<int> headOrder(int row) const;
    int rowLayer(int row) const;
    QString rowBiasTerm(int row) const;
    int selectedWord() const { return m_word; }
    int window() const { return m_window; }
    QString statusText() const;

    // .png / .svg / .html by suffix; false + *error naming the file or the problem.
    bool exportTo(const QString &path, QString *error) const;

public Q_SLOTS:
    void selectWord(int wordIndex); // -1: the whole matrix
    void showWholeMatrix() { selectWord(-1); }
    void recompute();

Q_SIGNALS:
    void headChosen(int layer, int head, const QString &biasTerm);
    void gridReady(); // every thumbnail of the current request has arrived
    void message(const QString &text);

protected:
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override; // a palette turned dark or light: the thumbnails again (issue 50)

private:
    void buildUi();
    void takeTrace();
    void applyOrder();
    void onThumbnailClicked(int row, int column);
    void exportWithDialog(const QString &suffix);
    void say(const QString &text);
    HeadGridOptions options() const;

    QPointer<AttentionViewModel> m_model;
    HeadGridView *m_view = nullptr;
    QComboBox *m_show = nullptr;
    QComboBox *m_sort = nullptr;
    QCheckBox *m_bias = nullptr;
    QSpinBox *m_windowBox = nullptr;
    QSpinBox *m_tokens = nullptr;
    QLabel *m_status = nullptr;

    std::shared_ptr<const AttentionTrace> m_trace;
    Document m_document;
    std::vector<QRectF> m_boxes;
    std::vector<int> m_tokenNode, m_treeParent;
    QString m_treeName;
    std::vector<HeadGridRow> m_rows;
    std::vector<HeadStatistics> m_stats;
    std::vector<std::vector<int>> m_order;
    qint64 m_budget = qint64(1) << 30;
    qint64 m_sourceBytes = 0;
    bool m_cropped = false;
    int m_side = 72;
    bool m_dark = false; // the thumbnails were drawn for a dark palette
    int m_word = -1;
    int m_window = 0;
    int m_selectedToken = -1;
    int m_inFlight = 0;
    int m_generation = 0;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::vector<QFuture<void>> m_futures;
    QString m_note;
    bool m_deferred = false; // a recompute asked for while hidden in a dock: done when shown
};

} // namespace folio
