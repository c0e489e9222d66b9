#include "ui/explain/explaindocks.h"

#include "ui/annotation/annotationsession.h"
#include "ui/documents/scanpanel.h"
#include "ui/explain/whatifpanel.h"
#include "ui/explain/whylabelpanel.h"
#include "widgets/pagecanvas.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QStatusBar>

#include <algorithm>

namespace folio {

ExplainDocks installExplainDocks(QMainWindow *window, QDockWidget *tabWith, ScanPanel *scan, AnnotationSession *session,
                                 std::function<QString()> modelDirectory)
{
    ExplainDocks out;
    out.whatIf = new WhatIfPanel(window);
    out.whatIf->setObjectName(QStringLiteral("whatIfPanel"));
    out.why = new WhyLabelPanel(window);
    out.why->setObjectName(QStringLiteral("whyLabelPanel"));
    out.whatIf->setCheckpointProvider(modelDirectory);
    out.why->setCheckpointProvider(modelDirectory);
    out.whatIfDock = new QDockWidget(WhatIfPanel::tr("What If"), window);
    out.whatIfDock->setObjectName(QStringLiteral("whatIfDock"));
    out.whatIfDock->setWidget(out.whatIf);
    out.whyDock = new QDockWidget(WhyLabelPanel::tr("Why This Label"), window);
    out.whyDock->setObjectName(QStringLiteral("whyLabelDock"));
    out.whyDock->setWidget(out.why);
    for (QDockWidget *d : {out.whatIfDock, out.whyDock}) {
        window->addDockWidget(Qt::BottomDockWidgetArea, d);
        if (tabWith)
            window->tabifyDockWidget(tabWith, d);
        d->hide();
    }
    WhatIfPanel *whatIf = out.whatIf;
    WhyLabelPanel *why = out.why;
    QDockWidget *whyDock = out.whyDock;
    PageCanvas *canvas = scan->canvas();
    whatIf->attachCanvas(canvas);
    const auto follow = [session, whatIf, why] {
        whatIf->setDocument(session->document());
        why->setDocument(session->document());
    };
    QObject::connect(session, &AnnotationSession::documentOpened, whatIf, follow);
    QObject::connect(session, &AnnotationSession::documentReplaced, whatIf, follow);
    QObject::connect(session, &AnnotationSession::documentChanged, whatIf, follow);
    QObject::connect(whatIf, &WhatIfPanel::overlayColorsChanged, scan, &ScanPanel::setOverlayColors);
    QObject::connect(whatIf, &WhatIfPanel::overlayLabelsChanged, scan, &ScanPanel::setOverlayLabels);
    QObject::connect(why, &WhyLabelPanel::wordColorsChanged, scan, &ScanPanel::setOverlayColors);
    QObject::connect(canvas, &PageCanvas::boxClicked, why, [why, whyDock](int word) {
        if (whyDock->isVisible())
            why->explainWord(word);
    });
    // Closing the What If dock goes back to the document (and the plain select tool).
    QObject::connect(out.whatIfDock, &QDockWidget::visibilityChanged, whatIf, [whatIf, dock = out.whatIfDock](bool) {
        if (!dock->toggleViewAction()->isChecked()) { // closed, not just a tab behind another
            whatIf->backToDocument();
            if (whatIf->isEditing())
                whatIf->setEditing(false);
        }
    });
    // The page shows one overlay at a time: the dock brought to the front brings its own back.
    QObject::connect(out.whatIfDock, &QDockWidget::visibilityChanged, whatIf, [whatIf](bool visible) {
        if (visible)
            whatIf->reshowDiff();
    });
    QObject::connect(out.whyDock, &QDockWidget::visibilityChanged, why, [why, scan](bool visible) {
        if (visible && !why->wordColors().isEmpty()) {
            scan->setOverlayLabels({});
            why->reshowOverlay();
        }
    });
    // Opened from the View menu: room for the page above (a third of the window).
    for (QDockWidget *d : {out.whatIfDock, out.whyDock})
        QObject::connect(d->toggleViewAction(), &QAction::triggered, d, [window, d](bool on) {
            if (on && !d->isFloating())
                window->resizeDocks({d}, {std::max(240, window->height() / 3)}, Qt::Vertical);
        });
    QObject::connect(whatIf, &WhatIfPanel::message, window, [window](const QString &t) { window->statusBar()->showMessage(t, 8000); });
    QObject::connect(why, &WhyLabelPanel::message, window, [window](const QString &t) { window->statusBar()->showMessage(t, 8000); });
    return out;
}

} // namespace folio
