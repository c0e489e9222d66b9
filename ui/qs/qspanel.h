#pragma once
// QsPanel: the question-summary hierarchy editor (issue 14), a dock page over the annotation
// session. The hierarchy of the current document is a tree numbered 1, 1.1, 1.2 …; question and
// summary are edited in place, and every change is one undoable session edit saved at once.
//
// Keys on the tree (when no cell is being edited):
//   Insert add a sibling after the current item (top level when none), Shift+Insert add a child,
//   Delete delete (with its children), Tab demote (child of the previous sibling), Shift+Tab
//   promote, Alt+Up / Alt+Down move among siblings, F2 edit the question, Shift+F2 the summary,
//   A accept a suggestion, R reject it, Shift+A accept all, E attach the selected words (or the
//   section picked in the Sections tab) as evidence, Shift+E clear the evidence, G regenerate
//   below the item (when a generator is connected). Drag and drop reorders and reparents.
//
//   auto *qs = new folio::QsPanel(session, this);
//   connect(qs, &QsPanel::currentItemChanged, ...);   // highlight the item's evidence
//   sections tree -> qs->setPickedSection(index, wordIds);
#include "document/annotations.h"

#include <QStringList>
#include <QWidget>

#include <functional>

class QLabel;
class QTextBrowser;
class QLineEdit;
class QTreeView;

namespace folio {

class AnnotationSession;
class QsTreeModel;

class QsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit QsPanel(AnnotationSession *session, QWidget *parent = nullptr);

    QTreeView *view() const { return m_view; }
    QsTreeModel *model() const { return m_model; }
    QLineEdit *rootSummaryEdit() const { return m_rootSummary; }
    // The current item in full beneath the tree: question, summary, evidence, source (word-wrapped).
    QTextBrowser *detailView() const { return m_detail; }
    QString currentId() const;
    void setCurrentId(const QString &id);
    QString message() const;
    void showMessage(const QString &text); // the line under the tree

    // The edits behind the keys and buttons; false when there is nothing to do.
    bool addSibling();
    bool addChild();
    bool deleteCurrent();
    bool promote();
    bool demote();
    bool moveUp();
    bool moveDown();
    bool acceptCurrent();
    bool rejectCurrent();
    bool acceptAll();
    bool attachEvidence(); // the session's selected words, or the picked section when they are its words
    bool clearEvidence();
    bool editQuestion(const QString &id, const QString &question, const QString &summary);
    bool setRootSummary(const QString &text);
    bool moveItem(const QString &id, const QString &newParentId, int row);

public Q_SLOTS:
    void refresh();
    void setPickedSection(int sectionIndex, const QStringList &wordIds);
    // Where E takes words from before the session's selection (the text selected on a rendered
    // web page); an empty answer falls back to the session's selected words.
    void setWordSource(std::function<QStringList()> source) { m_wordSource = std::move(source); }

Q_SIGNALS:
    void currentItemChanged(const QString &id); // empty when none
    void regenerateRequested(const QString &id);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    bool handleKey(int key, Qt::KeyboardModifiers modifiers);
    bool editCurrent(const std::function<bool(Annotations &)> &edit, const QString &undoText);
    void startEditing(const QString &id, int column);

    AnnotationSession *m_session;
    QsTreeModel *m_model;
    QTreeView *m_view;
    QLineEdit *m_rootSummary;
    QLabel *m_message;
    QTextBrowser *m_detail = nullptr;
    void showDetail();
    QString m_current;
    int m_pickedSection = -1;
    QStringList m_pickedWords;
    std::function<QStringList()> m_wordSource;
    bool m_refreshing = false;
};

} // namespace folio
