#pragma once
// The main window's layout, per user (QSettings): window geometry, dock state and the sizes of
// every splitter inside it, saved on close and restored on start; View > Reset Layout puts the
// splitters back to their children's natural proportions (the docks are MainWindow's business).
//
//   windowlayout::save(window);               // closeEvent
//   windowlayout::restore(window);            // constructor, after the docks exist
//   windowlayout::resetSplitters(window);     // View > Reset Layout
//
// Splitters need no object name: each is keyed by its path of ancestors (object name, else class
// and index among same-class siblings), which is stable as long as the panels are built the same
// way. A state saved by an older layout (another kStateVersion) is ignored: the defaults apply.

#include <QString>

class QMainWindow;
class QSplitter;
class QWidget;

namespace folio::windowlayout {

// Bumped when the default layout changes in a way an old saved state must not override
// (2: the Attention dock starts closed; side docks wider).
constexpr int kStateVersion = 2;

// "FolioMainWindow/structureDock/QStackedWidget#0/domTreePanel/QSplitter#0"
QString splitterKey(const QSplitter *splitter, const QWidget *root);
void save(QMainWindow *window);
// False when nothing (or only an outdated state) was saved: the window keeps its defaults.
bool restore(QMainWindow *window);
void resetSplitters(QWidget *root);
// Forgets the saved layout (the next start uses the defaults).
void clear();

} // namespace folio::windowlayout
