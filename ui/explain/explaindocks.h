#pragma once
// The What If and Why This Label docks (issue 48), installed by MainWindow beside the Attention
// dock (tabbed, closed until asked for from the View menu). Both follow the session's current
// document and the window's model; both draw on the scan page's canvas.
//  - What If (whatifpanel.h): drag / resize / delete word boxes, the labels re-run on an edited copy,
//    the changed labels as a diff; closing the dock goes back to the document.
//  - Why This Label (whylabelpanel.h): the clicked word's attributions while the dock is open.

#include <QString>

#include <functional>

class QDockWidget;
class QMainWindow;

namespace folio {

class AnnotationSession;
class ScanPanel;
class WhatIfPanel;
class WhyLabelPanel;

struct ExplainDocks
{
    WhatIfPanel *whatIf = nullptr;
    WhyLabelPanel *why = nullptr;
    QDockWidget *whatIfDock = nullptr; // "whatIfDock"
    QDockWidget *whyDock = nullptr;    // "whyLabelDock"
};

ExplainDocks installExplainDocks(QMainWindow *window, QDockWidget *tabWith, ScanPanel *scan, AnnotationSession *session,
                                 std::function<QString()> modelDirectory);

} // namespace folio
