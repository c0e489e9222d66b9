#include "ui/commands/shortcuteditordialog.h"

#include "ui/commands/shortcutsettings.h"
#include "ui/legibility.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequenceEdit>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QPushButton>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace folio {

ShortcutEditorDialog::ShortcutEditorDialog(QMainWindow *window, QWidget *parent)
    : QDialog(parent ? parent : window)
{
    setObjectName(QStringLiteral("shortcutEditorDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    auto *layout = new QVBoxLayout(this);

    auto *filter = new QLineEdit(this);
    filter->setObjectName(QStringLiteral("shortcutEditorFilter"));
    filter->setAccessibleName(tr("Filter actions"));
    filter->setPlaceholderText(tr("Filter (an action, a menu or a key)"));
    filter->setClearButtonEnabled(true);
    layout->addWidget(filter);

    m_actions = ShortcutSettings::actions(window);
    m_table = new QTableWidget(int(m_actions.size()), 3, this);
    m_table->setObjectName(QStringLiteral("shortcutEditorTable"));
    m_table->setAccessibleName(tr("Actions and their keys"));
    m_table->setHorizontalHeaderLabels({tr("Action"), tr("Keys"), tr("Default")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    for (int r = 0; r < m_actions.size(); ++r) {
        QAction *a = m_actions[r];
        ShortcutSettings::rememberDefaults(a);
        m_keys << a->shortcuts();
        const QString menu = ShortcutSettings::menuPath(a);
        auto *name = new QTableWidgetItem(menu.isEmpty() ? ShortcutSettings::displayText(a)
                                                         : tr("%1 (%2)").arg(ShortcutSettings::displayText(a), menu));
        name->setIcon(a->icon());
        m_table->setItem(r, ActionColumn, name);
        m_table->setItem(r, KeysColumn, new QTableWidgetItem);
        m_table->setItem(r, DefaultColumn, new QTableWidgetItem(ShortcutSettings::keysText(ShortcutSettings::defaults(a))));
        refreshRow(r);
    }
    m_table->horizontalHeader()->setSectionResizeMode(ActionColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(KeysColumn, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(DefaultColumn, QHeaderView::ResizeToContents);
    layout->addWidget(m_table, 1);
    connect(filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        for (int r = 0; r < m_table->rowCount(); ++r) {
            bool match = text.isEmpty();
            for (int c = 0; c < 3 && !match; ++c)
                match = m_table->item(r, c)->text().contains(text, Qt::CaseInsensitive);
            m_table->setRowHidden(r, !match);
        }
    });

    // The selected row's key: typed into the editor, cleared, or reset.
    auto *editRow = new QHBoxLayout;
    auto *keyLabel = new QLabel(tr("&Key:"), this);
    m_keyEdit = new QKeySequenceEdit(this);
    m_keyEdit->setObjectName(QStringLiteral("shortcutEditorKey"));
    keyLabel->setBuddy(m_keyEdit);
    auto *clear = new QPushButton(tr("&Clear"), this);
    clear->setObjectName(QStringLiteral("shortcutEditorClear"));
    auto *reset = new QPushButton(tr("&Reset"), this);
    reset->setObjectName(QStringLiteral("shortcutEditorReset"));
    auto *resetAllButton = new QPushButton(tr("Reset &All"), this);
    resetAllButton->setObjectName(QStringLiteral("shortcutEditorResetAll"));
    editRow->addWidget(keyLabel);
    editRow->addWidget(m_keyEdit, 1);
    editRow->addWidget(clear);
    editRow->addWidget(reset);
    editRow->addWidget(resetAllButton);
    layout->addLayout(editRow);

    m_conflictLabel = new QLabel(this);
    m_conflictLabel->setObjectName(QStringLiteral("shortcutEditorConflicts"));
    m_conflictLabel->setWordWrap(true);
    QPalette warn = m_conflictLabel->palette();
    warn.setColor(QPalette::WindowText, errorTextColor(palette())); // light or dark palette (ui/legibility.h)
    m_conflictLabel->setPalette(warn);
    layout->addWidget(m_conflictLabel);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ShortcutEditorDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);

    connect(m_table, &QTableWidget::currentCellChanged, this, [this] { showCurrentRow(); });
    connect(m_keyEdit, &QKeySequenceEdit::keySequenceChanged, this, [this](const QKeySequence &key) {
        const int row = m_table->currentRow();
        if (m_settingEditor || row < 0)
            return;
        // The editor holds one key: it replaces the row's first key, the others stay.
        QList<QKeySequence> keys = m_keys.value(row);
        if (keys.isEmpty())
            keys << key;
        else
            keys[0] = key;
        setPendingKeys(row, keys);
    });
    connect(clear, &QPushButton::clicked, this, [this] {
        if (m_table->currentRow() >= 0)
            setPendingKeys(m_table->currentRow(), {});
        showCurrentRow();
    });
    connect(reset, &QPushButton::clicked, this, [this] {
        if (m_table->currentRow() >= 0)
            resetRow(m_table->currentRow());
    });
    connect(resetAllButton, &QPushButton::clicked, this, &ShortcutEditorDialog::resetAll);

    if (!m_actions.isEmpty())
        m_table->setCurrentCell(0, ActionColumn);
    refreshConflicts();
    resize(720, 620);
}

void ShortcutEditorDialog::setPendingKeys(int row, const QList<QKeySequence> &keys)
{
    if (row < 0 || row >= m_keys.size())
        return;
    QList<QKeySequence> clean;
    for (const QKeySequence &k : keys)
        if (!k.isEmpty() && !clean.contains(k))
            clean << k;
    m_keys[row] = clean;
    refreshRow(row);
    refreshConflicts();
    if (row == m_table->currentRow() && !m_keyEdit->hasFocus())
        showCurrentRow();
}

QList<int> ShortcutEditorDialog::conflictingRows() const
{
    QList<int> rows = ShortcutSettings::conflicts(m_keys).keys();
    std::sort(rows.begin(), rows.end());
    return rows;
}

void ShortcutEditorDialog::resetRow(int row)
{
    if (row >= 0 && row < m_actions.size())
        setPendingKeys(row, ShortcutSettings::defaults(m_actions[row]));
    showCurrentRow();
}

void ShortcutEditorDialog::resetAll()
{
    for (int r = 0; r < m_actions.size(); ++r) {
        m_keys[r] = ShortcutSettings::defaults(m_actions[r]);
        refreshRow(r);
    }
    refreshConflicts();
    showCurrentRow();
}

bool ShortcutEditorDialog::apply()
{
    if (!conflictingRows().isEmpty())
        return false;
    for (int r = 0; r < m_actions.size(); ++r)
        ShortcutSettings::setKeys(m_actions[r], m_keys[r]);
    return true;
}

void ShortcutEditorDialog::accept()
{
    if (apply())
        QDialog::accept();
}

void ShortcutEditorDialog::refreshRow(int row)
{
    QTableWidgetItem *keys = m_table->item(row, KeysColumn);
    keys->setText(ShortcutSettings::keysText(m_keys[row]));
    QFont font = keys->font();
    // Keys that differ from the defaults are bold.
    font.setBold(m_keys[row] != ShortcutSettings::defaults(m_actions[row]));
    keys->setFont(font);
}

void ShortcutEditorDialog::refreshConflicts()
{
    const QHash<int, QList<int>> clashes = ShortcutSettings::conflicts(m_keys);
    for (int r = 0; r < m_table->rowCount(); ++r) {
        const bool clash = clashes.contains(r);
        QStringList others;
        for (int o : clashes.value(r))
            others << ShortcutSettings::displayText(m_actions[o]);
        for (int c = 0; c < 3; ++c) {
            QTableWidgetItem *item = m_table->item(r, c);
            item->setBackground(clash ? QBrush(QColor(0xff, 0xd6, 0xd6)) : QBrush());
            item->setForeground(clash ? QBrush(QColor(0x80, 0x00, 0x10)) : QBrush());
            item->setToolTip(clash ? tr("Same key as: %1").arg(others.join(QStringLiteral(", "))) : QString());
        }
        // Seen on the selected row too, where the selection colour hides the background.
        m_table->item(r, KeysColumn)->setIcon(clash ? style()->standardIcon(QStyle::SP_MessageBoxWarning) : QIcon());
    }
    QStringList lines;
    QList<int> rows = clashes.keys();
    std::sort(rows.begin(), rows.end());
    for (int r : std::as_const(rows)) {
        QStringList others;
        for (int o : clashes.value(r))
            if (o > r)
                others << ShortcutSettings::displayText(m_actions[o]);
        if (!others.isEmpty())
            lines << tr("%1 shares a key with %2").arg(ShortcutSettings::displayText(m_actions[r]), others.join(QStringLiteral(", ")));
    }
    m_conflictLabel->setText(lines.isEmpty() ? QString()
                                             : tr("Two actions on one key: change or clear one of them before saving. %1")
                                                   .arg(lines.join(QStringLiteral("; "))));
    m_conflictLabel->setVisible(!lines.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(lines.isEmpty());
}

void ShortcutEditorDialog::showCurrentRow()
{
    const int row = m_table->currentRow();
    m_settingEditor = true;
    m_keyEdit->setKeySequence(row >= 0 && !m_keys.value(row).isEmpty() ? m_keys[row].first() : QKeySequence());
    m_settingEditor = false;
    m_keyEdit->setEnabled(row >= 0);
    if (QTableWidgetItem *item = m_table->item(row, ActionColumn))
        m_table->scrollToItem(item);
}

} // namespace folio
