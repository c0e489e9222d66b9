#pragma once
// DomTreeModel: a read-only, lazy QAbstractItemModel over Document::nodes (the DOM of a web page,
// or any node tree). An index's internalId is the node index, so views ask only for what they
// show: a 50,000-node page costs one O(n) pass (row-in-parent table) and nothing per hidden row.
//
//   auto *model = new folio::DomTreeModel(this);
//   model->setDocument(doc);                 // copies the nodes it needs
//   view->setModel(model);
//   QModelIndex i = model->indexForNode(42); // node index -> model index (invalid for the root)
//   int node = model->nodeForIndex(i);
//
// Column 0: "<div id=main class=…>" for elements, the (shortened) text for text nodes.
// Qt::ToolTipRole: the XPath. FindRole-free search: see findNodes().

#include "document/document.h"

#include <QAbstractItemModel>
#include <QColor>
#include <QHash>

#include <vector>

namespace folio {

class DomTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    explicit DomTreeModel(QObject *parent = nullptr);

    void setDocument(const Document &doc);
    const Document &document() const { return m_doc; }

    QModelIndex indexForNode(int node) const;
    int nodeForIndex(const QModelIndex &index) const; // -1 when invalid

    // Nodes (document order) whose tag equals `query` (case-insensitive, "<p>" or "p"), or
    // whose text / id / class contains it. Capped at `limit` results.
    std::vector<int> findNodes(const QString &query, int limit = 100000) const;

    // A one-line label for a node (what column 0 shows).
    static QString nodeLabel(const Node &node);

    // Highlights (extracted field values): a node's background colour and a note shown after its
    // label (e.g. "price 0.93"). Replaces the previous marks; an empty map clears them.
    struct NodeMark
    {
        QColor color;
        QString note;
    };
    void setNodeMarks(const QHash<int, NodeMark> &marks);
    const QHash<int, NodeMark> &nodeMarks() const { return m_marks; }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    Document m_doc;
    std::vector<int> m_row; // node -> row in its parent's children
    QHash<int, NodeMark> m_marks;
};

} // namespace folio
