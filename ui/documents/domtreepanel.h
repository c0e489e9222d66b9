#pragma once
// DomTreePanel: the DOM tree dock of a web page — tree, tag/text search, node details.
//
//   auto *tree = new folio::DomTreePanel(this);
//   tree->setDocument(doc);                                   // after the loader ran (off the GUI thread)
//   connect(tree, &folio::DomTreePanel::nodeSelected, webPanel, &folio::WebPagePanel::selectNode);
//   connect(webPanel, &folio::WebPagePanel::nodeSelected, tree, &folio::DomTreePanel::selectNode);
//
// nodeSelected(node) is emitted only when the user picks a node here (tree click, search), never
// when selectNode() is called, so the two-way sync above does not loop. Search: type a tag
// ("p", "<td>") or any text, Enter / "Next" goes to the next match. The details pane shows the
// XPath, attributes, box and text of the current node. The tree model is lazy (DomTreeModel).

#include "document/document.h"

#include <QWidget>

#include <vector>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTreeView;

namespace folio {

class DomTreeModel;

class DomTreePanel : public QWidget
{
    Q_OBJECT
public:
    explicit DomTreePanel(QWidget *parent = nullptr);

    void setDocument(const Document &doc);
    int currentNode() const { return m_current; }
    QString detailsText() const;
    DomTreeModel *model() const { return m_model; }
    QTreeView *treeView() const { return m_tree; }

public Q_SLOTS:
    void selectNode(int node);
    // Search: returns the number of matches and selects the next one after the current node.
    int findNext(const QString &query);

Q_SIGNALS:
    void nodeSelected(int node);

private:
    void showDetails(int node);
    void onCurrentChanged();

    DomTreeModel *m_model = nullptr;
    QTreeView *m_tree = nullptr;
    QLineEdit *m_search = nullptr;
    QLabel *m_matches = nullptr;
    QPlainTextEdit *m_details = nullptr;
    int m_current = -1;
    bool m_syncing = false;
    QString m_lastQuery;
    std::vector<int> m_hits;
};

} // namespace folio
