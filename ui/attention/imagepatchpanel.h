#pragma once
// ImagePatchPanel: the Image Patches dock (issue 48) — the image the model saw. For a trace whose
// windows hold image tokens (attention/imagepatches.h: LayoutLMv3's patches, LayoutLMv2's 7 x 7
// visual tokens) the page image is drawn with the patch grid over it: select a word and each cell
// is coloured by the word's attention to that image token (the Attention dock's layer / head,
// avg = mean); click a cell and the words are coloured by that image token's attention to them
// (wordColorsChanged, for the page canvas; the cell stays outlined). A checkpoint without an
// image branch: message() says so and the view stays as it was.
//
// Usage:
//   auto *patches = new folio::ImagePatchPanel(this);
//   patches->setViewModel(attentionPanel->viewModel());
//   connect(canvas, &PageCanvas::boxClicked, patches, [patches](int w) { patches->selectWord(w); });
//   connect(patches, &folio::ImagePatchPanel::wordColorsChanged, scanPanel, &ScanPanel::setOverlayColors);

#include "attention/imagepatches.h"
#include "document/document.h"

#include <QColor>
#include <QHash>
#include <QImage>
#include <QPointer>
#include <QWidget>

#include <vector>

class QLabel;

namespace folio {

class AttentionViewModel;
class ImagePatchCanvas;

class ImagePatchPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ImagePatchPanel(QWidget *parent = nullptr);
    ~ImagePatchPanel() override;

    void setViewModel(AttentionViewModel *model);

    // False + message() (the view unchanged) when the trace has no image tokens for the word.
    bool selectWord(int wordIndex);
    // Row-major patch index of the current grid; false + message() without a grid.
    bool selectPatch(int patch);

    bool hasImageBranch() const { return m_grid.side > 0; }
    const ImagePatchGrid &grid() const { return m_grid; }
    int selectedWord() const { return m_word; }
    int selectedPatch() const { return m_patch; }
    const std::vector<float> &patchValues() const { return m_patchValues; } // word -> patches
    const std::vector<float> &wordValues() const { return m_wordValues; }   // patch -> words
    const QHash<int, QColor> &wordColors() const { return m_wordColors; }
    QString lastMessage() const { return m_lastMessage; }
    ImagePatchCanvas *canvas() const { return m_canvas; }
    // The cell of patch `patch` in the canvas's coordinates (empty without a grid).
    QRect cellRect(int patch) const;

Q_SIGNALS:
    void wordColorsChanged(const QHash<int, QColor> &colors);
    void message(const QString &text);

private:
    void takeTrace();
    void refreshFromModel();
    void say(const QString &text);
    int pageOfWindow(int window) const;

    QPointer<AttentionViewModel> m_model;
    ImagePatchCanvas *m_canvas = nullptr;
    QLabel *m_status = nullptr;
    Document m_document;
    ImagePatchGrid m_grid;
    int m_word = -1;
    int m_patch = -1;
    std::vector<float> m_patchValues;
    std::vector<float> m_wordValues;
    QHash<int, QColor> m_wordColors;
    QString m_lastMessage;
};

} // namespace folio
