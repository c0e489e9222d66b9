#pragma once
// StructureTreeModel: a read-only QAbstractItemModel over Document::nodes (OCR page → block →
// paragraph → line → word trees, and DOM element/text trees alike).
//
// Usage:
//     auto *model = new folio::StructureTreeModel(this);
//     model->setDocument(doc);                    // copies what it shows; call again after edits
//     treeView->setModel(model);
//     // canvas → tree: treeView->setCurrentIndex(model->indexForWord(wordIndex));
//     // tree → canvas: model->wordForIndex(index) (-1 for non-word nodes), model->nodeForIndex(index)
//
// Column 0 shows the node ("word", "line", "<div>"), column 1 its text (words, lines, text nodes),
// column 2 its confidence when it has one. The root node is not shown: its children are the top
// rows. Qt::ToolTipRole gives id, box and confidence.

#include "document/document.h"

#include <QAbstractItemModel>

#include <vector>

namespace folio {

class StructureTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Roles { NodeIndexRole = Qt::UserRole + 1, WordIndexRole, NodeIdRole, NodeKindRole };

    explicit StructureTreeModel(QObject *parent = nullptr);

    void setDocument(const Document &doc);
    void clear();

    QModelIndex indexForNode(int node, int column = 0) const;
    QModelIndex indexForWord(int wordIndex, int column = 0) const;
    int nodeForIndex(const QModelIndex &index) const; // -1 when invalid
    int wordForIndex(const QModelIndex &index) const; // -1 when not a word node

    QModelIndex index(int row, int column, const QModelIndex &parent = QModelIndex()) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<Node> m_nodes;
    std::vector<int> m_row;        // row of each node under its parent
    std::vector<int> m_wordOfNode; // Document::words index, -1
    std::vector<int> m_nodeOfWord;
};

} // namespace folio
