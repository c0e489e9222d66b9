#pragma once
// The command palette (issue 50): Help > Find Action… (Ctrl+Shift+P) opens a filter box over every
// enabled action of the main window's menus, by the text it shows (the current language, & removed)
// with its menu and its keys; every word typed must occur in the text or the menu. Enter (or a
// double-click) triggers the chosen action and closes the palette; Esc closes it.
//
//   auto *palette = new CommandPalette(mainWindow);
//   palette->popup();

#include <QDialog>

class QAction;
class QLineEdit;
class QMainWindow;
class QTreeWidget;
class QTreeWidgetItem;

namespace folio {

class CommandPalette : public QDialog
{
    Q_OBJECT
public:
    explicit CommandPalette(QMainWindow *window);

    // Lists the window's enabled actions afresh, clears the filter and shows the palette.
    void popup();
    QLineEdit *filter() const { return m_filter; }
    QTreeWidget *list() const { return m_list; }
    // The actions offered now (filter applied), in order.
    QList<QAction *> offered() const;
    // Triggers the current row's action (after closing); false when none is offered.
    bool triggerCurrent();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void rebuild();
    void applyFilter(const QString &text);

    QMainWindow *m_window = nullptr;
    QLineEdit *m_filter = nullptr;
    QTreeWidget *m_list = nullptr;
};

} // namespace folio
