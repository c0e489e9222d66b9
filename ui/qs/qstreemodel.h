#pragma once
// QsTreeModel: a question-summary hierarchy (Annotations::qsRoots) as a Qt item model for the
// hierarchy editor. Columns: question (shown as "1.2  question"), summary, review state. It is a
// read-only snapshot rebuilt by setHierarchy(); edits leave as signals (the panel turns them into
// undoable session edits, which come back through setHierarchy):
//   - setData(question or summary)  -> textEdited(id, question, summary)
//   - a drop (drag and drop, or dropMimeData called directly) -> moveRequested(id, parentId, row),
//     delivered queued so the view finishes its drop before the model is rebuilt.
// Suggestions are shown in italics, rejected items struck out and grey, items whose evidence no
// longer exists with a warning icon and a tooltip.
#include "document/annotations.h"

#include <QAbstractItemModel>
#include <QHash>

#include <vector>

namespace folio {

class QsTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { QuestionColumn, SummaryColumn, StateColumn, ColumnCount };
    static constexpr int IdRole = Qt::UserRole + 1;
    static constexpr int NumberRole = Qt::UserRole + 2;
    static inline const QString MimeType = QStringLiteral("application/x-folio-qs-ids");

    explicit QsTreeModel(QObject *parent = nullptr);

    void setHierarchy(const std::vector<QsNode> &roots);
    QModelIndex indexOf(const QString &id, int column = 0) const;
    QString idOf(const QModelIndex &index) const;
    int itemCount() const { return int(m_rows.size()); }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;

    Qt::DropActions supportedDropActions() const override { return Qt::MoveAction; }
    Qt::DropActions supportedDragActions() const override { return Qt::MoveAction; }
    QStringList mimeTypes() const override { return {MimeType}; }
    QMimeData *mimeData(const QModelIndexList &indexes) const override;
    bool canDropMimeData(const QMimeData *data, Qt::DropAction action, int row, int column,
                         const QModelIndex &parent) const override;
    bool dropMimeData(const QMimeData *data, Qt::DropAction action, int row, int column, const QModelIndex &parent) override;

Q_SIGNALS:
    void textEdited(const QString &id, const QString &question, const QString &summary);
    void moveRequested(const QString &id, const QString &newParentId, int row);

private:
    struct Row
    {
        const QsNode *node = nullptr; // into m_roots
        int parent = -1;              // index into m_rows
        int row = 0;
        std::vector<int> children;
        QString number;
    };
    const Row *rowOf(const QModelIndex &index) const;
    bool isInside(int row, int ancestor) const;

    std::vector<QsNode> m_roots; // the snapshot the rows point into
    std::vector<Row> m_rows;
    std::vector<int> m_top;
    QHash<QString, int> m_byId;
};

} // namespace folio
