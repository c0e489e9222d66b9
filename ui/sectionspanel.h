#pragma once
// SectionsPanel: the document's section tree (h1-h6 / <section> nesting for web pages), with the
// number of words each section holds. Picking a section selects its words (its own and its
// subsections').
//
//   auto *sections = new folio::SectionsPanel(this);
//   sections->setDocument(doc);
//   connect(sections, &folio::SectionsPanel::wordsPicked, session, &folio::AnnotationSession::setSelectedWords);
#include <QStringList>
#include <QWidget>

class QLabel;
class QTreeWidget;

namespace folio {

struct Document;

class SectionsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit SectionsPanel(QWidget *parent = nullptr);
    void setDocument(const Document &doc);
    QTreeWidget *tree() const { return m_tree; }
    // Word ids of section `index` and all its subsections, in reading order.
    static QStringList sectionWordIds(const Document &doc, int index);

Q_SIGNALS:
    void wordsPicked(const QStringList &wordIds);

private:
    QTreeWidget *m_tree;
    QLabel *m_empty;
    QList<QStringList> m_words; // per section
};

} // namespace folio
