#include "ui/attention/attentioninspectors.h"

#include "ui/attention/attentionpanel.h"
#include "ui/attention/headgridpanel.h"
#include "ui/attention/imagepatchpanel.h"
#include "widgets/pagecanvas.h"

#include <QComboBox>
#include <QDockWidget>
#include <QMainWindow>
#include <QRegularExpression>

namespace folio {

void openHeadInAttention(AttentionPanel *attention, int layer, int head, const QString &biasTerm)
{
    if (!attention)
        return;
    QString base = biasTerm;
    static const QRegularExpression layerSuffix(QStringLiteral("\\.(\\d+)$"));
    const QRegularExpressionMatch m = layerSuffix.match(biasTerm);
    if (m.hasMatch()) {
        base.chop(m.capturedLength(0));
        layer = m.captured(1).toInt();
    }
    // The dock's view choice: the combo box whose items are "attention" and "bias:<term>".
    const QString want = biasTerm.isEmpty() ? QStringLiteral("attention") : QStringLiteral("bias:") + base;
    for (QComboBox *box : attention->findChildren<QComboBox *>()) {
        if (box->findData(QStringLiteral("attention")) < 0)
            continue;
        const int i = box->findData(want);
        if (i >= 0)
            box->setCurrentIndex(i);
        break;
    }
    if (layer >= 0)
        attention->viewModel()->setLayer(layer);
    attention->viewModel()->setHead(head);
}

void connectHeadGridToAttention(HeadGridPanel *grid, AttentionPanel *attention, QDockWidget *attentionDock)
{
    grid->setViewModel(attention->viewModel());
    QObject::connect(grid, &HeadGridPanel::headChosen, attention, [attention, attentionDock](int layer, int head, const QString &term) {
        openHeadInAttention(attention, layer, head, term);
        if (attentionDock) {
            attentionDock->show();
            attentionDock->raise();
        }
    });
}

AttentionInspectors installAttentionInspectors(QMainWindow *window, AttentionPanel *attention, QDockWidget *attentionDock,
                                               PageCanvas *canvas)
{
    AttentionInspectors out;
    out.grid = new HeadGridPanel(window);
    out.patches = new ImagePatchPanel(window);
    out.gridDock = new QDockWidget(QObject::tr("Head Grid"), window);
    out.gridDock->setObjectName(QStringLiteral("headGridDock"));
    out.gridDock->setWidget(out.grid);
    out.patchDock = new QDockWidget(QObject::tr("Image Patches"), window);
    out.patchDock->setObjectName(QStringLiteral("imagePatchDock"));
    out.patchDock->setWidget(out.patches);
    for (QDockWidget *d : {out.gridDock, out.patchDock}) {
        window->addDockWidget(Qt::BottomDockWidgetArea, d);
        if (attentionDock)
            window->tabifyDockWidget(attentionDock, d);
        d->hide();
    }
    connectHeadGridToAttention(out.grid, attention, attentionDock);
    out.patches->setViewModel(attention->viewModel());
    if (canvas) {
        HeadGridPanel *grid = out.grid;
        ImagePatchPanel *patches = out.patches;
        // Both follow the clicked word even while closed, so they show it when opened.
        QObject::connect(canvas, &PageCanvas::boxClicked, grid, [grid](int word) { grid->selectWord(word); });
        QObject::connect(canvas, &PageCanvas::boxClicked, patches, [patches](int word) { patches->selectWord(word); });
    }
    return out;
}

} // namespace folio
