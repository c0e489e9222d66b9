#pragma once
// AnnotationPalette: one button per label; a click, or number key 1-9 anywhere in the window,
// assigns that label to the selected words (AnnotationSession::assignLabel).
//
// Usage:
//   auto *palette = new folio::AnnotationPalette(session, parent); // session not owned
//   palette->setLabels(project->labels());                          // also follows the session
#include <QStringList>
#include <QWidget>

class QShortcut;

namespace folio {

class AnnotationSession;

class AnnotationPalette : public QWidget
{
    Q_OBJECT

public:
    explicit AnnotationPalette(AnnotationSession *session, QWidget *parent = nullptr);
    void setLabels(const QStringList &labels);
    QStringList labels() const { return m_labels; }

Q_SIGNALS:
    void labelChosen(const QString &label);

private:
    void choose(int index);

    AnnotationSession *m_session;
    QStringList m_labels;
    QWidget *m_buttons;
    QList<QShortcut *> m_shortcuts;
};

} // namespace folio
