#pragma once
// The Attention dock's two companions (issue 48), installed beside it by MainWindow:
//  - Head Grid (headgridpanel.h): every layer x head at once; a click opens that head here;
//  - Image Patches (imagepatchpanel.h): the selected word's attention to the image tokens over the
//    page image, and an image cell's attention back to the words.
// Both follow the AttentionPanel's trace (its view model) and the page's word clicks; both are
// tabbed with the Attention dock and closed until asked for (View menu).

#include <QString>

class QDockWidget;
class QMainWindow;

namespace folio {

class AttentionPanel;
class HeadGridPanel;
class ImagePatchPanel;
class PageCanvas;

struct AttentionInspectors
{
    HeadGridPanel *grid = nullptr;
    ImagePatchPanel *patches = nullptr;
    QDockWidget *gridDock = nullptr;    // "headGridDock"
    QDockWidget *patchDock = nullptr;   // "imagePatchDock"
};

// Creates both docks (hidden) tabbed with `attentionDock`; `canvas` (may be null) feeds them the
// clicked word.
AttentionInspectors installAttentionInspectors(QMainWindow *window, AttentionPanel *attention, QDockWidget *attentionDock,
                                               PageCanvas *canvas);

// Grid clicks open the head in `attention` (and raise `attentionDock` when given).
void connectHeadGridToAttention(HeadGridPanel *grid, AttentionPanel *attention, QDockWidget *attentionDock = nullptr);

// Shows layer / head of the attention probabilities, or of `biasTerm` ("bias.2d_x", "bias.c2p.3":
// a per-layer term also picks its layer), in the Attention dock. layer -1 keeps the current layer.
void openHeadInAttention(AttentionPanel *attention, int layer, int head, const QString &biasTerm = QString());

} // namespace folio
