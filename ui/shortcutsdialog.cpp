#include "ui/shortcutsdialog.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableWidget>
#include <QVBoxLayout>

namespace folio {

QList<ShortcutEntry> keyboardShortcuts()
{
    // lupdate files these under the context "folio" (a free function in the namespace): so does this.
    const auto tr = [](const char *s) { return QCoreApplication::translate("folio", s); };
    const QString anywhere = tr("Anywhere"), page = tr("Page"), entities = tr("Entity list"), links = tr("Link list"),
                  sections = tr("Sections tab"), questions = tr("Questions dock"), heatmap = tr("Attention heatmap");
    return {
        // Files and projects
        {QStringLiteral("Ctrl+O"), anywhere, tr("Open a document (scan, PDF, web page, FUNSD or Folio JSON) into the project")},
        {QStringLiteral("Ctrl+N"), anywhere, tr("New project")},
        {QStringLiteral("Ctrl+Shift+O"), anywhere, tr("Open a project")},
        {QStringLiteral("Ctrl+Q"), anywhere, tr("Quit (the layout is saved)")},
        {QStringLiteral("F1"), anywhere, tr("This list of keys (Help > Keyboard Shortcuts)")},
        {QStringLiteral("Ctrl+Shift+P"), anywhere, tr("Find an action by its name and run it (Help > Find Action)")},
        {QStringLiteral("PageDown / PageUp"), anywhere, tr("Next / previous document")},
        {QStringLiteral("Ctrl+D"), anywhere, tr("Mark the document done")},
        {QStringLiteral("Ctrl+Z"), anywhere, tr("Undo (every edit is saved at once)")},
        {QStringLiteral("Ctrl+Shift+Z"), anywhere, tr("Redo")},
        // Models
        {QStringLiteral("Ctrl+R"), anywhere, tr("Suggest Labels: run the current model on the document")},
        {QStringLiteral("Ctrl+Shift+R"), anywhere, tr("Show Attention (opens the Attention dock)")},
        {QStringLiteral("Ctrl+E"), anywhere, tr("Extract Fields")},
        {QStringLiteral("Ctrl+Shift+G"), anywhere, tr("Generate the question-summary hierarchy")},
        // The page
        {tr("Ctrl+wheel"), page, tr("Zoom")},
        {QStringLiteral("+ / -"), page, tr("Zoom in / out")},
        {tr("F or 0"), page, tr("Fit the page to the window")},
        {tr("Click / Shift-click / drag"), page, tr("Select words")},
        {QStringLiteral("1-9"), page, tr("Label the selected words with the palette's label of that number")},
        {tr("F2 or double-click"), page, tr("Fix the selected word's text")},
        {QStringLiteral("Esc"), page, tr("Leave the region tool")},
        // Entities and links
        {QStringLiteral("A"), entities, tr("Accept the suggestion")},
        {QStringLiteral("R"), entities, tr("Reject the suggestion")},
        {QStringLiteral("U"), anywhere, tr("Jump to the least certain suggestion")},
        {QStringLiteral("Ctrl+Shift+A"), anywhere, tr("Accept all suggestions")},
        {QStringLiteral("M"), entities, tr("Merge the selected entities")},
        {QStringLiteral("S"), entities, tr("Split the entity")},
        {QStringLiteral("L"), entities, tr("Link the two selected entities (key → value)")},
        {QStringLiteral("Delete"), entities, tr("Delete the entity")},
        {QStringLiteral("A / R"), links, tr("Accept / reject the suggested link (with its two entities)")},
        {QStringLiteral("Delete"), links, tr("Delete the link")},
        // Sections
        {QStringLiteral("Ctrl+Return"), sections, tr("Split: start a new section at the selected word")},
        {QStringLiteral("Ctrl+Backspace"), sections, tr("Merge the section into the one before it")},
        {QStringLiteral("Alt+Left / Alt+Right"), sections, tr("Promote / demote the section with its subsections")},
        {QStringLiteral("F2"), sections, tr("Rename the section")},
        // Questions
        {QStringLiteral("Insert"), questions, tr("Add a question after the current one")},
        {QStringLiteral("Shift+Insert"), questions, tr("Add a follow-up question")},
        {QStringLiteral("F2 / Shift+F2"), questions, tr("Edit the question / the summary in place")},
        {QStringLiteral("Delete"), questions, tr("Delete the question with its follow-ups")},
        {QStringLiteral("Tab / Shift+Tab"), questions, tr("Demote / promote")},
        {QStringLiteral("Alt+Up / Alt+Down"), questions, tr("Move up / down")},
        {QStringLiteral("E / Shift+E"), questions, tr("Attach the selected words as evidence / clear the evidence")},
        {QStringLiteral("A / R"), questions, tr("Accept / reject the suggested question")},
        {QStringLiteral("Shift+A"), questions, tr("Accept all suggested questions")},
        {QStringLiteral("G"), questions, tr("Regenerate below the current question")},
        // Attention
        {QStringLiteral("Left / Right"), heatmap, tr("Previous / next head")},
        {QStringLiteral("Up / Down"), heatmap, tr("Previous / next layer")},
        {QStringLiteral("H / L"), heatmap, tr("Average over heads / over layers")},
    };
}

ShortcutsDialog::ShortcutsDialog(QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    auto *layout = new QVBoxLayout(this);
    auto *filter = new QLineEdit(this);
    filter->setObjectName(QStringLiteral("shortcutsFilter"));
    filter->setAccessibleName(tr("Filter shortcuts"));
    filter->setPlaceholderText(tr("Filter (a key, a place or a word)"));
    filter->setClearButtonEnabled(true);
    layout->addWidget(filter);

    const QList<ShortcutEntry> rows = keyboardShortcuts();
    m_table = new QTableWidget(int(rows.size()), 3, this);
    m_table->setObjectName(QStringLiteral("shortcutsTable"));
    m_table->setAccessibleName(tr("Keyboard shortcuts"));
    m_table->setHorizontalHeaderLabels({tr("Keys"), tr("Where"), tr("What it does")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(true);
    for (int r = 0; r < rows.size(); ++r) {
        const ShortcutEntry &e = rows[r];
        auto *keys = new QTableWidgetItem(e.keys);
        QFont bold = keys->font();
        bold.setBold(true);
        keys->setFont(bold);
        m_table->setItem(r, 0, keys);
        m_table->setItem(r, 1, new QTableWidgetItem(e.where));
        auto *what = new QTableWidgetItem(e.what);
        what->setToolTip(e.what);
        m_table->setItem(r, 2, what);
    }
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    // Rows follow their text as the dialog is resized (sized once, in the constructor, they were
    // measured against a narrow column and came out uneven).
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(m_table, 1);
    connect(filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        for (int r = 0; r < m_table->rowCount(); ++r) {
            bool match = text.isEmpty();
            for (int c = 0; c < 3 && !match; ++c)
                match = m_table->item(r, c)->text().contains(text, Qt::CaseInsensitive);
            m_table->setRowHidden(r, !match);
        }
    });

    auto *note = new QLabel(tr("Keys in a dock work when that dock has the focus; the page's keys when the page has it. "
                               "The menus' keys listed here are the defaults: Settings > Keyboard Shortcuts changes them."), this);
    note->setWordWrap(true);
    layout->addWidget(note);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(760, 640);
}

} // namespace folio
