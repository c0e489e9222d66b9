#pragma once
// Help > Keyboard Shortcuts: every key Folio answers to, where it works and what it does, in one
// table (the README's keys and the menus' shortcuts; tst_helpdialogs checks both are in it).
//
//   folio::ShortcutsDialog dialog(this);
//   dialog.exec();
//   folio::keyboardShortcuts();   // the rows, for tests and other views

#include <QDialog>
#include <QList>
#include <QString>

class QTableWidget;

namespace folio {

struct ShortcutEntry
{
    QString keys;  // "Ctrl+Shift+R", "A", "1-9", "Ctrl+wheel"
    QString where; // "Page", "Entity list", "Sections tab", "Questions dock", "Anywhere", ...
    QString what;
};

QList<ShortcutEntry> keyboardShortcuts();

class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ShortcutsDialog(QWidget *parent = nullptr);
    QTableWidget *table() const { return m_table; }

private:
    QTableWidget *m_table = nullptr;
};

} // namespace folio
