#pragma once
// How Folio's window is composed (issue 34's 50 ms aim). The web view is a Qt Quick item; with it in
// the window, Qt composes every repaint of the whole window through OpenGL. On a software OpenGL
// (Mesa llvmpipe: no GPU device, a virtual X server such as Xvfb, remote desktops) one flush of a
// 1680x1050 window takes 30-70 ms and the GUI thread waits for each (measured with
// FOLIO_STALL_TRACE). Qt Quick's software renderer avoids OpenGL altogether: repaints are plain raster.
//
//   QApplication app(argc, argv);
//   const RenderingChoice r = chooseRendering(qEnvironmentVariable("FOLIO_RENDERING"));
//   applyRendering(r);        // before the first window
//
// FOLIO_RENDERING=software|gpu|auto (default auto): auto picks software when OpenGL is software.
// A QT_QUICK_BACKEND the user set is kept.

#include <QString>

namespace folio {

struct RenderingChoice
{
    bool software = false;
    QString reason; // one line, for the log and Help > About
};

// After the QApplication exists, before any window.
RenderingChoice chooseRendering(const QString &requested);
void applyRendering(const RenderingChoice &choice);

} // namespace folio
