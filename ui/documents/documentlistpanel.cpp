#include "ui/documents/documentlistpanel.h"

#include "ui/annotation/annotationsession.h"

#include <QComboBox>
#include <QHash>
#include <QListWidget>
#include <QVBoxLayout>

namespace folio {

// One shuffle for every project: the same pages come in the same order each time the list is read.
constexpr quint32 kRandomSeed = 47;

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
    m_list->setAccessibleName(tr("Documents of the project"));
    m_order->setAccessibleName(tr("Document order"));
    m_order->addItem(tr("Project order"));
    m_order->addItem(tr("Most uncertain first"));
    m_order->addItem(tr("Random order"));
    m_order->setToolTip(tr("The order of the list and of Next / Previous document: the project's pages, the current "
                           "model's most uncertain first (refreshed when the background retraining updates the model), "
                           "or at random (the same shuffle each time)"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_order);
    layout->addWidget(m_list);
    m_order->setObjectName(QStringLiteral("documentOrder"));
    connect(m_order, &QComboBox::currentIndexChanged, this, &DocumentListPanel::reorder);
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (!m_refreshing && row >= 0 && row < m_session->documentIds().size()
            && m_session->documentIds().at(row) != m_session->currentDocumentId())
            m_session->openDocumentAt(row);
    });
    connect(session, &AnnotationSession::documentOpened, this, &DocumentListPanel::refresh);
    connect(session, &AnnotationSession::statusChanged, this, &DocumentListPanel::refresh);
    connect(session, &AnnotationSession::saved, this, &DocumentListPanel::refresh);
}

void DocumentListPanel::reorder()
{
    switch (m_order->currentIndex()) {
    case 1: m_session->setDocumentOrder(DocumentOrder::Uncertainty); break;
    case 2: m_session->setRandomOrder(kRandomSeed); break;
    default: m_session->setDocumentOrder(DocumentOrder::Position); break;
    }
    refresh();
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
            item->setToolTip(info.uncertainty >= 0 ? tr("%1\nModel uncertainty %2").arg(info.sourcePath).arg(info.uncertainty, 0, 'f', 2)
                                                   : info.sourcePath);
            if (id == m_session->currentDocumentId())
                m_list->setCurrentItem(item);
        }
    }
    m_refreshing = false;
}

} // namespace folio
