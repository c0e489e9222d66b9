#pragma once
// SectionsPanel: the document's section tree (h1-h6 / <section> nesting for web pages, outlines
// and heading lines for PDFs and scans, topics for transcripts), with the number of words each
// section holds. Picking a section selects its words (its own and its subsections').
//
// With a session (setSession), the tree can be fixed, each edit one undoable step on the
// session's undo stack, saved with the document at once:
//   Split      (Ctrl+Return) the section owning the first selected word is cut there; the new
//              section takes the rest of its words (title: its first words; rename it);
//   Merge      (Ctrl+Backspace) the current section joins the one before it;
//   Promote / Demote (Alt+Left / Alt+Right) the current section and its subsections one level;
//   Rename     (F2 or double-click) in place.
// The keys work while the tree has focus; the toolbar buttons do the same.
//
//   auto *sections = new folio::SectionsPanel(this);
//   sections->setSession(session);             // enables editing; follows the session's document
//   sections->setDocument(doc);                // without a session: on every document change
//   connect(sections, &folio::SectionsPanel::wordsPicked, session, &folio::AnnotationSession::setSelectedWords);
#include <QColor>
#include <QHash>
#include <QStringList>
#include <QWidget>

class QAction;
class QLabel;
class QToolBar;
class QTreeWidget;
class QTreeWidgetItem;

namespace folio {

class AnnotationSession;
struct Document;

class SectionsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit SectionsPanel(QWidget *parent = nullptr);
    void setSession(AnnotationSession *session);
    void setDocument(const Document &doc);
    QTreeWidget *tree() const { return m_tree; }
    // Index into Document::sections of the current tree item, -1 when none.
    int currentSection() const;
    void setCurrentSection(int index);
    // Word ids of section `index` and all its subsections, in reading order.
    static QStringList sectionWordIds(const Document &doc, int index);

    // Heat by section (AttentionPanel::sectionColorsChanged): section index -> row background;
    // empty clears. Cleared when the document changes.
    void setSectionColors(const QHash<int, QColor> &colors);
    QColor sectionColor(int index) const;

    // The edits (what the actions call); false when the edit does not apply.
    bool splitAtSelectedWord();
    bool mergeCurrentWithPrevious();
    bool changeCurrentLevel(int delta);
    bool renameSection(int index, const QString &title);

Q_SIGNALS:
    void wordsPicked(const QStringList &wordIds);

private:
    bool commit(const QString &text, const Document &edited, int current);
    void updateActions();

    AnnotationSession *m_session = nullptr;
    QTreeWidget *m_tree;
    QLabel *m_empty;
    QToolBar *m_toolBar;
    QAction *m_split, *m_merge, *m_promote, *m_demote, *m_rename;
    QList<QStringList> m_words; // per section
    bool m_filling = false;
};

} // namespace folio
