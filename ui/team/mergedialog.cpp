#include "ui/team/mergedialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace folio {

namespace {
constexpr int kMineColumn = 3;
}

MergeDialog::MergeDialog(const SaveConflict &conflict, const Annotations &theirs, const Annotations &mine,
                         const Document *document, QWidget *parent)
    : QDialog(parent), m_theirs(theirs), m_mine(mine), m_items(annotationDifferences(theirs, mine, document)),
      m_table(new QTableWidget(int(m_items.size()), 4, this))
{
    setWindowTitle(tr("Merge your changes"));
    const QString who = conflict.changedBy.isEmpty() ? tr("Someone") : conflict.changedBy;
    auto *intro = new QLabel(tr("%1 saved this document at %2 (revision %3) after you opened it (revision %4). "
                                "Nothing of yours was written and nothing of theirs was overwritten. Choose, item by item, "
                                "which version to keep; the merge is saved on top of theirs.")
                                 .arg(who, conflict.changedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")))
                                 .arg(conflict.storedRevision)
                                 .arg(conflict.baseRevision),
                             this);
    intro->setWordWrap(true);
    m_table->setObjectName(QStringLiteral("mergeTable"));
    m_table->setHorizontalHeaderLabels({tr("Item"), tr("Theirs (%1)").arg(who), tr("Mine"), tr("Keep mine")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    for (int row = 0; row < int(m_items.size()); ++row) {
        const MergeItem &item = m_items[size_t(row)];
        m_table->setItem(row, 0, new QTableWidgetItem(QStringLiteral("%1 %2").arg(mergeItemKindName(item.kind), item.key).trimmed()));
        m_table->setItem(row, 1, new QTableWidgetItem(item.theirs.isEmpty() ? tr("(none)") : item.theirs));
        m_table->setItem(row, 2, new QTableWidgetItem(item.mine.isEmpty() ? tr("(none)") : item.mine));
        auto *choice = new QTableWidgetItem;
        choice->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        choice->setCheckState(item.takeMine ? Qt::Checked : Qt::Unchecked);
        m_table->setItem(row, kMineColumn, choice);
    }
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_table->resizeColumnToContents(0);

    auto *buttons = new QDialogButtonBox(this);
    QPushButton *allMine = buttons->addButton(tr("All mine"), QDialogButtonBox::ActionRole);
    QPushButton *allTheirs = buttons->addButton(tr("All theirs"), QDialogButtonBox::ActionRole);
    QPushButton *save = buttons->addButton(tr("Save merge"), QDialogButtonBox::AcceptRole);
    QPushButton *takeTheirs = buttons->addButton(tr("Drop mine, reload theirs"), QDialogButtonBox::DestructiveRole);
    save->setObjectName(QStringLiteral("saveMergeButton"));
    takeTheirs->setObjectName(QStringLiteral("takeTheirsButton"));
    allMine->setObjectName(QStringLiteral("allMineButton"));
    allTheirs->setObjectName(QStringLiteral("allTheirsButton"));
    connect(allMine, &QPushButton::clicked, this, [this] { chooseAll(true); });
    connect(allTheirs, &QPushButton::clicked, this, [this] { chooseAll(false); });
    connect(save, &QPushButton::clicked, this, &QDialog::accept);
    connect(takeTheirs, &QPushButton::clicked, this, [this] {
        m_tookTheirs = true;
        accept();
    });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    resize(900, 420);
}

void MergeDialog::chooseAll(bool mine)
{
    for (int row = 0; row < m_table->rowCount(); ++row)
        m_table->item(row, kMineColumn)->setCheckState(mine ? Qt::Checked : Qt::Unchecked);
}

Annotations MergeDialog::merged() const
{
    std::vector<MergeItem> items = m_items;
    for (int row = 0; row < int(items.size()); ++row)
        items[size_t(row)].takeMine = m_table->item(row, kMineColumn)->checkState() == Qt::Checked;
    return mergeAnnotations(m_theirs, m_mine, items);
}

} // namespace folio
