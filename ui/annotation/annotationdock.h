#pragma once
// AnnotationDock: the list of entities and links of the current document, synced with the
// session's current entity (and so with the canvas selection).
//
// Usage:
//   auto *dock = new folio::AnnotationDock(session, parent);   // session not owned
//   mainWindow->addDockWidget(Qt::RightDockWidgetArea, wrapInDock(dock));
// Keys in the list: Delete removes the entity (or link), A / R accept / reject a suggestion,
// M merges the selected entities, S splits, L links the two selected entities (first -> second).
// Rows show "label: words text", suggestions with their confidence in brackets.
#include <QWidget>

class QListWidget;

namespace folio {

class AnnotationSession;

class AnnotationDock : public QWidget
{
    Q_OBJECT

public:
    explicit AnnotationDock(AnnotationSession *session, QWidget *parent = nullptr);

    QListWidget *entityList() const { return m_entities; }
    QListWidget *linkList() const { return m_links; }
    QStringList selectedEntityIds() const;

public Q_SLOTS:
    void refresh();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void syncCurrent(const QString &entityId);

    AnnotationSession *m_session;
    QListWidget *m_entities;
    QListWidget *m_links;
    bool m_syncing = false;
};

} // namespace folio
