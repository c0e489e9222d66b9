#pragma once
// Settings > Keyboard Shortcuts… (issue 50): every action of the main window's menus with its
// keys and its default keys; the user picks a row and types its new key in a QKeySequenceEdit,
// clears it, or resets it (or all rows) to the defaults. Two actions on one key are both marked
// (red, with a tooltip naming the other) and OK is refused until the clash is resolved: nothing is
// cleared behind the user's back. OK applies the keys and saves them per user (ShortcutSettings).
//
//   ShortcutEditorDialog dialog(mainWindow);
//   if (dialog.exec() == QDialog::Accepted) ...   // applied and saved

#include <QDialog>
#include <QKeySequence>
#include <QList>

class QAction;
class QDialogButtonBox;
class QKeySequenceEdit;
class QLabel;
class QLineEdit;
class QMainWindow;
class QPushButton;
class QTableWidget;

namespace folio {

class ShortcutEditorDialog : public QDialog
{
    Q_OBJECT
public:
    enum Column { ActionColumn, KeysColumn, DefaultColumn };

    explicit ShortcutEditorDialog(QMainWindow *window, QWidget *parent = nullptr);

    QTableWidget *table() const { return m_table; }
    QKeySequenceEdit *keyEdit() const { return m_keyEdit; }
    QList<QAction *> actions() const { return m_actions; }
    int rowOf(const QAction *action) const { return int(m_actions.indexOf(const_cast<QAction *>(action))); }
    // The keys pending for row `row` (applied on OK).
    QList<QKeySequence> pendingKeys(int row) const { return m_keys.value(row); }
    void setPendingKeys(int row, const QList<QKeySequence> &keys);
    // Rows in a clash with another row (pending keys).
    QList<int> conflictingRows() const;
    void resetRow(int row);
    void resetAll();
    // Applies and saves every row's keys; refused (false, nothing applied) while rows clash.
    bool apply();

public Q_SLOTS:
    void accept() override;

private:
    void refreshRow(int row);
    void refreshConflicts();
    void showCurrentRow();

    QList<QAction *> m_actions;
    QList<QList<QKeySequence>> m_keys;
    QTableWidget *m_table = nullptr;
    QKeySequenceEdit *m_keyEdit = nullptr;
    QLabel *m_conflictLabel = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    bool m_settingEditor = false;
};

} // namespace folio
