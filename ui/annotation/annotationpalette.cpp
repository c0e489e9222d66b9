#include "ui/annotation/annotationpalette.h"

#include "ui/annotation/annotationsession.h"

#include <QHBoxLayout>
#include <QPushButton>
#include <QShortcut>

namespace folio {

AnnotationPalette::AnnotationPalette(AnnotationSession *session, QWidget *parent)
    : QWidget(parent), m_session(session), m_buttons(new QWidget(this))
{
    setObjectName(QStringLiteral("annotationPalette"));
    auto *outer = new QHBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_buttons);
    new QHBoxLayout(m_buttons);
    for (int i = 0; i < 9; ++i) {
        auto *sc = new QShortcut(QKeySequence(Qt::Key_1 + i), this);
        sc->setContext(Qt::WindowShortcut);
        connect(sc, &QShortcut::activated, this, [this, i] { choose(i); });
        m_shortcuts << sc;
    }
    connect(session, &AnnotationSession::documentOpened, this, [this] { setLabels(m_session->labels()); });
    setLabels(session->labels());
}

void AnnotationPalette::setLabels(const QStringList &labels)
{
    if (labels == m_labels && !m_buttons->findChildren<QPushButton *>().isEmpty())
        return;
    m_labels = labels;
    qDeleteAll(m_buttons->findChildren<QPushButton *>());
    for (int i = 0; i < labels.size(); ++i) {
        auto *b = new QPushButton(i < 9 ? QStringLiteral("%1 %2").arg(i + 1).arg(labels[i]) : labels[i], m_buttons);
        b->setObjectName(QStringLiteral("label_") + labels[i]);
        b->setFocusPolicy(Qt::NoFocus); // keep the keyboard on the canvas / list
        connect(b, &QPushButton::clicked, this, [this, i] { choose(i); });
        m_buttons->layout()->addWidget(b);
    }
}

void AnnotationPalette::choose(int index)
{
    if (index < 0 || index >= m_labels.size())
        return;
    Q_EMIT labelChosen(m_labels[index]);
    m_session->assignLabel(m_labels[index]);
}

} // namespace folio
