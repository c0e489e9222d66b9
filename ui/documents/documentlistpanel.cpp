#include "ui/documents/documentlistpanel.h"

#include "ui/annotation/annotationsession.h"

#include <QComboBox>
#include <QHash>
#include <QListWidget>
#include <QVBoxLayout>

namespace folio {

static QString statusMark(DocumentStatus status)
{
    switch (status) {
    case DocumentStatus::Done: return QStringLiteral("✔ ");
    case DocumentStatus::InProgress: return QStringLiteral("✎ ");
    case DocumentStatus::ToDo: break;
    }
    return QStringLiteral("   ");
}

DocumentListPanel::DocumentListPanel(AnnotationSession *session, QWidget *parent)
    : QWidget(parent), m_session(session), m_list(new QListWidget(this)), m_order(new QComboBox(this))
{
    m_list->setObjectName(QStringLiteral("documentList"));
    m_order->addItem(tr("Project order"));
    m_order->addItem(tr("Most uncertain first"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_order);
    layout->addWidget(m_list);
    connect(m_order, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_session->setDocumentOrder(index == 1 ? DocumentOrder::Uncertainty : DocumentOrder::Position);
        refresh();
    });
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (!m_refreshing && row >= 0 && row < m_session->documentIds().size()
            && m_session->documentIds().at(row) != m_session->currentDocumentId())
            m_session->openDocumentAt(row);
    });
    connect(session, &AnnotationSession::documentOpened, this, &DocumentListPanel::refresh);
    connect(session, &AnnotationSession::statusChanged, this, &DocumentListPanel::refresh);
    connect(session, &AnnotationSession::saved, this, &DocumentListPanel::refresh);
}

void DocumentListPanel::refresh()
{
    m_refreshing = true;
    m_list->clear();
    Project *project = m_session->project();
    if (project) {
        // One query for all rows (this runs after every saved edit), shown in the session's order.
        QHash<qint64, ProjectDocument> byId;
        for (const ProjectDocument &info : project->documents())
            byId.insert(info.id, info);
        const QList<qint64> ids = m_session->documentIds();
        for (qint64 id : ids) {
            const auto found = byId.constFind(id);
            if (found == byId.constEnd())
                continue;
            const ProjectDocument &info = *found;
            QString text = statusMark(info.status) + info.name;
            if (info.suggestionCount > 0)
                text += tr("  (%1 to review)").arg(info.suggestionCount);
            auto *item = new QListWidgetItem(text, m_list);
            item->setToolTip(info.sourcePath);
            if (id == m_session->currentDocumentId())
                m_list->setCurrentItem(item);
        }
    }
    m_refreshing = false;
}

} // namespace folio
