#pragma once
// DocumentListPanel: the project's documents with their review status, in the session's order.
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

public Q_SLOTS:
    void refresh();

private:
    AnnotationSession *m_session;
    QListWidget *m_list;
    QComboBox *m_order;
    bool m_refreshing = false;
};

} // namespace folio
