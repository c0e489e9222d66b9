#pragma once
// WebPagePanel: the rendered web page of an HTML Document, offline and untrusted.
//
//   auto *web = new folio::WebPagePanel(this);
//   web->setDocument(doc);                  // doc.sourcePath is the .html/.htm(.gz) file
//   connect(web, &folio::WebPagePanel::rendered, this, [](const folio::Document &withBoxes) { ... });
//   connect(web, &folio::WebPagePanel::nodeSelected, tree, &folio::DomTreePanel::selectNode);
//   connect(tree, &folio::DomTreePanel::nodeSelected, web, &folio::WebPagePanel::selectNode);
//
// After the page loads, the DOM snapshot (isolated world) gives every node a box; rendered()
// hands out the Document with node/word boxes and 0-1000 boxes (page size = scroll size).
// selectNode() outlines the node on the page (an overlay drawn by an isolated-world script) and
// scrolls to it; a click on the page selects the smallest visible node under the pointer and
// emits nodeSelected() (links are not followed). The "Run page scripts" box turns page
// JavaScript on for this document only (the page reloads); network access stays blocked.
// The header says what happened (ui/documents/webloadstatus.h): "Rendered offline ..." with a button naming
// the outside requests it blocked (their list in its tooltip and on click), or "Could not render
// ...: why". Only a page that did not render comes as failed(message); nothing throws.

#include "document/document.h"
#include "ui/documents/webloadstatus.h"

#include <QColor>
#include <QHash>
#include <QSet>
#include <QWidget>

class QCheckBox;
class QLabel;
class QToolButton;
class QWebEngineView;

namespace folio {

class WebPage;

class WebPagePanel : public QWidget
{
    Q_OBJECT
public:
    explicit WebPagePanel(QWidget *parent = nullptr);
    ~WebPagePanel() override;

    void setDocument(const Document &doc);
    const Document &document() const { return m_doc; }
    bool isRendered() const { return m_rendered; }
    // True from setDocument() until the header has its verdict (rendered or failed).
    bool isLoading() const { return m_loading; }
    WebPage *page() const { return m_page; }
    QWebEngineView *view() const { return m_view; }

    // The smallest visible node whose box contains `pagePoint` (CSS px, page coordinates); -1 if none.
    int nodeAt(const QPointF &pagePoint) const;
    // Page JavaScript for the current document (reloads it).
    void setScriptsEnabled(bool enabled);
    // What the header says about the last load (text, tooltip, blocked requests).
    const WebLoadStatus &loadStatus() const { return m_loadStatus; }
    // The list of blocked requests as the button's click shows it (a dialog; for tests, no exec).
    void showBlockedRequests();

public Q_SLOTS:
    void selectNode(int node);
    // Fills node boxes with colours (attention heatmaps): an overlay drawn over the page by an
    // isolated-world script, kept across re-renders; an empty map removes it.
    void setNodeColors(const QHash<int, QColor> &colors);

Q_SIGNALS:
    void nodeSelected(int node);
    void rendered(const folio::Document &documentWithBoxes);
    void failed(const QString &message);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void load();
    void onLoadFinished(bool ok);
    void drawOutline(int node);
    void showStatus(const WebLoadStatus &status);
    void finishLoad(const WebLoadFacts &facts);

    QWebEngineView *m_view = nullptr;
    WebPage *m_page = nullptr;
    QCheckBox *m_scripts = nullptr;
    QLabel *m_status = nullptr;
    QToolButton *m_blocked = nullptr;
    WebLoadStatus m_loadStatus;
    Document m_doc;
    bool m_rendered = false;
    bool m_loading = false;
    int m_selected = -1;
    QHash<int, QColor> m_nodeColors;
    void drawNodeColors();
    QSet<QString> m_scriptsAllowed; // documents the user trusted with JavaScript (this session)
    QObject *m_filtered = nullptr;
};

} // namespace folio
