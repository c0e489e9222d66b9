#include "ui/qs/qstreemodel.h"

#include "document/qstree.h"
#include "ui/legibility.h"

#include <QApplication>
#include <QColor>
#include <QFont>
#include <QMimeData>
#include <QStyle>

namespace folio {

QsTreeModel::QsTreeModel(QObject *parent) : QAbstractItemModel(parent) {}

void QsTreeModel::setHierarchy(const std::vector<QsNode> &roots)
{
    beginResetModel();
    m_roots = roots;
    m_rows.clear();
    m_top.clear();
    m_byId.clear();
    const std::vector<QsItem> items = qsItems(m_roots); // pre-order: a parent comes before its children
    m_rows.reserve(items.size());
    for (const QsItem &it : items) {
        Row r;
        r.node = it.node;
        r.row = it.order;
        r.number = it.number;
        r.parent = it.parentId.isEmpty() ? -1 : m_byId.value(it.parentId, -1);
        const int self = int(m_rows.size());
        if (r.parent >= 0)
            m_rows[size_t(r.parent)].children.push_back(self);
        else
            m_top.push_back(self);
        m_byId.insert(it.node->id, self);
        m_rows.push_back(std::move(r));
    }
    endResetModel();
}

const QsTreeModel::Row *QsTreeModel::rowOf(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this || index.internalId() == 0 || index.internalId() > m_rows.size())
        return nullptr;
    return &m_rows[size_t(index.internalId() - 1)];
}

QModelIndex QsTreeModel::indexOf(const QString &id, int column) const
{
    const auto it = m_byId.constFind(id);
    if (it == m_byId.constEnd())
        return {};
    return createIndex(m_rows[size_t(*it)].row, column, quintptr(*it + 1));
}

QString QsTreeModel::idOf(const QModelIndex &index) const
{
    const Row *r = rowOf(index);
    return r ? r->node->id : QString();
}

QModelIndex QsTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column < 0 || column >= ColumnCount || row < 0)
        return {};
    const std::vector<int> *list = &m_top;
    if (parent.isValid()) {
        const Row *p = rowOf(parent);
        if (!p) return {};
        list = &p->children;
    }
    if (row >= int(list->size()))
        return {};
    return createIndex(row, column, quintptr((*list)[size_t(row)] + 1));
}

QModelIndex QsTreeModel::parent(const QModelIndex &child) const
{
    const Row *r = rowOf(child);
    if (!r || r->parent < 0)
        return {};
    return createIndex(m_rows[size_t(r->parent)].row, 0, quintptr(r->parent + 1));
}

int QsTreeModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_top.size());
    if (parent.column() != 0)
        return 0;
    const Row *r = rowOf(parent);
    return r ? int(r->children.size()) : 0;
}

int QsTreeModel::columnCount(const QModelIndex &) const { return ColumnCount; }

static QString stateText(const QsNode &n)
{
    switch (n.state) {
    case ReviewState::Suggested: return QCoreApplication::translate("QsTreeModel", "suggested %1").arg(n.confidence, 0, 'f', 2);
    case ReviewState::Rejected: return QCoreApplication::translate("QsTreeModel", "rejected");
    case ReviewState::Edited: return QCoreApplication::translate("QsTreeModel", "edited");
    case ReviewState::Accepted: break;
    }
    return n.source.kind == AnnotationSource::Model ? QCoreApplication::translate("QsTreeModel", "accepted") : QString();
}

QVariant QsTreeModel::data(const QModelIndex &index, int role) const
{
    const Row *r = rowOf(index);
    if (!r)
        return {};
    const QsNode &n = *r->node;
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == QuestionColumn)
            return r->number + QStringLiteral("  ") + (n.question.isEmpty() ? tr("(no question)") : n.question.left(500));
        if (index.column() == SummaryColumn)
            return n.summary.left(500);
        return stateText(n);
    case Qt::EditRole:
        return index.column() == QuestionColumn ? n.question : index.column() == SummaryColumn ? n.summary : QVariant();
    case IdRole:
        return n.id;
    case NumberRole:
        return r->number;
    case Qt::DecorationRole:
        if (index.column() == QuestionColumn && n.evidenceMissing && qApp)
            return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
        return {};
    case Qt::ToolTipRole: {
        QStringList lines; // the full text first: the columns cut long questions and summaries
        const QString full = index.column() == SummaryColumn ? n.summary : n.question;
        if (!full.isEmpty())
            lines << full;
        if (n.evidenceMissing) {
            lines << tr("Some evidence of this item no longer exists (the page was re-read or its sections changed).");
            for (const QsEvidenceSpan &s : n.evidenceSpans)
                lines << tr("Attached text: \u201c%1\u201d").arg(s.text.left(200));
        } else if (!n.evidenceSpans.empty() || !n.evidenceSections.isEmpty()) {
            lines << tr("Evidence: %n text span(s)", nullptr, int(n.evidenceSpans.size()))
                  << tr("%n section(s)", nullptr, int(n.evidenceSections.size()));
        }
        if (n.source.kind == AnnotationSource::Model)
            lines << tr("From model %1").arg(n.source.checkpoint);
        return lines.isEmpty() ? QVariant() : QVariant(lines.join(QLatin1Char('\n')));
    }
    case Qt::FontRole: {
        if (n.state != ReviewState::Suggested && n.state != ReviewState::Rejected)
            return {};
        QFont f;
        f.setItalic(n.state == ReviewState::Suggested);
        f.setStrikeOut(n.state == ReviewState::Rejected);
        return f;
    }
    case Qt::ForegroundRole:
        // Read at each repaint: a palette turned dark at run time is followed (ui/legibility.h).
        if (n.state == ReviewState::Rejected) return secondaryTextColor(QApplication::palette());
        if (n.state == ReviewState::Suggested) return suggestedTextColor(QApplication::palette());
        return {};
    default:
        return {};
    }
}

QVariant QsTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case QuestionColumn: return tr("Question");
    case SummaryColumn: return tr("Summary");
    case StateColumn: return tr("State");
    default: return {};
    }
}

Qt::ItemFlags QsTreeModel::flags(const QModelIndex &index) const
{
    if (!rowOf(index))
        return Qt::ItemIsDropEnabled; // the empty area: drop to the top level
    Qt::ItemFlags f = Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsDragEnabled | Qt::ItemIsDropEnabled;
    if (index.column() == QuestionColumn || index.column() == SummaryColumn)
        f |= Qt::ItemIsEditable;
    return f;
}

bool QsTreeModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    const Row *r = rowOf(index);
    if (!r || role != Qt::EditRole || index.column() == StateColumn)
        return false;
    const QString text = value.toString();
    const QsNode &n = *r->node;
    const QString question = index.column() == QuestionColumn ? text : n.question;
    const QString summary = index.column() == SummaryColumn ? text : n.summary;
    if (question == n.question && summary == n.summary)
        return false;
    Q_EMIT textEdited(n.id, question, summary);
    return true;
}

QMimeData *QsTreeModel::mimeData(const QModelIndexList &indexes) const
{
    QStringList ids;
    for (const QModelIndex &i : indexes)
        if (i.column() == QuestionColumn && rowOf(i))
            ids << idOf(i);
    if (ids.isEmpty())
        return nullptr;
    auto *data = new QMimeData;
    data->setData(MimeType, ids.join(QLatin1Char('\n')).toUtf8());
    return data;
}

bool QsTreeModel::isInside(int row, int ancestor) const
{
    for (int r = row; r >= 0; r = m_rows[size_t(r)].parent)
        if (r == ancestor)
            return true;
    return false;
}

bool QsTreeModel::canDropMimeData(const QMimeData *data, Qt::DropAction action, int, int, const QModelIndex &parent) const
{
    if (!data || action != Qt::MoveAction || !data->hasFormat(MimeType))
        return false;
    const QString id = QString::fromUtf8(data->data(MimeType)).section(QLatin1Char('\n'), 0, 0);
    const auto moving = m_byId.constFind(id);
    if (moving == m_byId.constEnd())
        return false;
    const Row *target = rowOf(parent.siblingAtColumn(0));
    return !target || !isInside(int(target - m_rows.data()), *moving);
}

bool QsTreeModel::dropMimeData(const QMimeData *data, Qt::DropAction action, int row, int column, const QModelIndex &parent)
{
    if (!canDropMimeData(data, action, row, column, parent))
        return false;
    const QString id = QString::fromUtf8(data->data(MimeType)).section(QLatin1Char('\n'), 0, 0);
    const Row &moving = m_rows[size_t(m_byId.value(id))];
    const QString parentId = idOf(parent.siblingAtColumn(0));
    const QString oldParentId = moving.parent >= 0 ? m_rows[size_t(moving.parent)].node->id : QString();
    // Qt counts `row` before the item leaves its place; qsedit::move counts after.
    int to = row;
    if (to >= 0 && parentId == oldParentId && moving.row < to)
        --to;
    QMetaObject::invokeMethod(this, [this, id, parentId, to] { Q_EMIT moveRequested(id, parentId, to); }, Qt::QueuedConnection);
    return true;
}

} // namespace folio
