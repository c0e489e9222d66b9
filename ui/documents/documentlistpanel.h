#pragma once
// DocumentListPanel: the project's documents with their review status, in the session's order:
// the project's order, most uncertain first (the current model's uncertainty, refreshed after the
// labelling loop's model update: reorder()), or at random (a fixed shuffle per project).
//
//   auto *list = new folio::DocumentListPanel(session, parent);
//   // refreshes itself on session signals; picking a row opens that document in the session.
#include <QWidget>

class QComboBox;
class QListWidget;

namespace folio {

class AnnotationSession;

class DocumentListPanel : public QWidget
{
    Q_OBJECT
public:
    explicit DocumentListPanel(AnnotationSession *session, QWidget *parent = nullptr);
    QListWidget *list() const { return m_list; }

    QComboBox *orderBox() const { return m_order; }

public Q_SLOTS:
    void refresh();
    // Reads the order again (the uncertainties changed) and refreshes.
    void reorder();

private:
    AnnotationSession *m_session;
    QListWidget *m_list;
    QComboBox *m_order;
    bool m_refreshing = false;
};

} // namespace folio
