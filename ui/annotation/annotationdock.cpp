#include "ui/annotation/annotationdock.h"

#include "ui/annotation/annotationsession.h"

#include "document/qstree.h"

#include <QKeyEvent>
#include <QLabel>
#include <QListWidget>
#include <QVBoxLayout>

namespace folio {

static const int kIdRole = Qt::UserRole;

AnnotationDock::AnnotationDock(AnnotationSession *session, QWidget *parent)
    : QWidget(parent), m_session(session), m_entities(new QListWidget(this)), m_links(new QListWidget(this))
{
    setObjectName(QStringLiteral("annotationDock"));
    m_entities->setObjectName(QStringLiteral("entityList"));
    m_links->setObjectName(QStringLiteral("linkList"));
    m_entities->setAccessibleName(tr("Entities"));
    m_links->setAccessibleName(tr("Links"));
    m_entities->setSelectionMode(QAbstractItemView::ExtendedSelection);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Entities"), this));
    layout->addWidget(m_entities, 3);
    layout->addWidget(new QLabel(tr("Links"), this));
    layout->addWidget(m_links, 1);
    m_entities->installEventFilter(this);
    m_links->installEventFilter(this);

    connect(session, &AnnotationSession::annotationsChanged, this, &AnnotationDock::refresh);
    connect(session, &AnnotationSession::documentChanged, this, &AnnotationDock::refresh);
    connect(session, &AnnotationSession::currentEntityChanged, this, &AnnotationDock::syncCurrent);
    connect(m_entities, &QListWidget::currentItemChanged, this, [this](QListWidgetItem *item) {
        if (!m_syncing && item)
            m_session->setCurrentEntity(item->data(kIdRole).toString());
    });
    refresh();
}

QStringList AnnotationDock::selectedEntityIds() const
{
    QStringList ids;
    for (int i = 0; i < m_entities->count(); ++i) // list order, not click order
        if (m_entities->item(i)->isSelected())
            ids << m_entities->item(i)->data(kIdRole).toString();
    return ids;
}

void AnnotationDock::refresh()
{
    m_syncing = true;
    m_entities->clear();
    m_links->clear();
    const Document &doc = m_session->document();
    const Annotations &a = m_session->annotations();
    const QHash<QString, int> wordIndex = a.entities.empty() ? QHash<QString, int>() : qsWordIndex(doc); // not a scan per word
    auto entityText = [&](const Entity &e) {
        QStringList words;
        for (const QString &w : e.wordIds) {
            const int i = wordIndex.value(w, -1);
            words << (i >= 0 ? doc.words[size_t(i)].text : w);
        }
        QString t = QStringLiteral("%1: %2").arg(e.label, words.join(QLatin1Char(' ')));
        if (e.state == ReviewState::Suggested)
            t += AnnotationDock::tr("  [suggested %1%]").arg(qRound(e.confidence * 100));
        return t;
    };
    for (const Entity &e : a.entities) {
        if (e.state == ReviewState::Rejected)
            continue;
        auto *item = new QListWidgetItem(entityText(e), m_entities);
        item->setToolTip(item->text()); // a long entity is cut at the dock's edge
        item->setData(kIdRole, e.id);
        if (e.state == ReviewState::Suggested) {
            QFont f = item->font();
            f.setItalic(true);
            item->setFont(f);
        }
    }
    for (const Link &l : a.links) {
        if (l.state == ReviewState::Rejected)
            continue;
        const Entity *from = a.entity(l.from);
        const Entity *to = a.entity(l.to);
        QString text = QStringLiteral("%1 \u2192 %2").arg(from ? entityText(*from) : l.from, to ? entityText(*to) : l.to);
        if (l.state == ReviewState::Suggested)
            text = QStringLiteral("[suggested link %1%]  ").arg(qRound(l.confidence * 100)) + text;
        auto *item = new QListWidgetItem(text, m_links);
        item->setToolTip(text);
        item->setData(kIdRole, l.id);
        if (l.state == ReviewState::Suggested) {
            QFont f = item->font();
            f.setItalic(true);
            item->setFont(f);
        }
    }
    m_syncing = false;
    syncCurrent(m_session->currentEntity());
}

void AnnotationDock::syncCurrent(const QString &entityId)
{
    m_syncing = true;
    for (int i = 0; i < m_entities->count(); ++i)
        if (m_entities->item(i)->data(kIdRole).toString() == entityId) {
            if (m_entities->currentRow() != i)
                m_entities->setCurrentRow(i);
            break;
        }
    m_syncing = false;
}

bool AnnotationDock::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::KeyPress)
        return QWidget::eventFilter(watched, event);
    auto *key = static_cast<QKeyEvent *>(event);
    if (watched == m_links) {
        const QString link = m_links->currentItem() ? m_links->currentItem()->data(kIdRole).toString() : QString();
        if (key->key() == Qt::Key_Delete && !link.isEmpty()) {
            m_session->deleteLink(link);
            return true;
        }
        if (key->key() == Qt::Key_A && !link.isEmpty()) {
            m_session->acceptLink(link);
            return true;
        }
        if (key->key() == Qt::Key_R && !link.isEmpty()) {
            m_session->rejectLink(link);
            return true;
        }
        return QWidget::eventFilter(watched, event);
    }
    if (watched != m_entities || key->modifiers() & (Qt::ControlModifier | Qt::AltModifier))
        return QWidget::eventFilter(watched, event);
    const QString current = m_entities->currentItem() ? m_entities->currentItem()->data(kIdRole).toString() : QString();
    const QStringList selected = selectedEntityIds();
    switch (key->key()) {
    case Qt::Key_Delete:
    case Qt::Key_Backspace:
        m_session->deleteEntity(current);
        return true;
    case Qt::Key_A:
        m_session->acceptSuggestion(current);
        return true;
    case Qt::Key_R:
        m_session->rejectSuggestion(current);
        return true;
    case Qt::Key_M:
        m_session->mergeEntities(selected);
        return true;
    case Qt::Key_S:
        m_session->splitEntity(current);
        return true;
    case Qt::Key_L:
        if (selected.size() == 2)
            m_session->addLink(selected[0], selected[1]);
        return true;
    default:
        break;
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace folio
