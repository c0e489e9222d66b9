#pragma once
// MergeDialog: the merge view of a refused save (issue 17). Someone else saved the document after
// this session loaded it; the dialog lists every item that differs — theirs against mine, one row
// each, with a choice per row — plus "All mine" / "All theirs". Accepting gives the merged
// annotations (document/annotationmerge.h), which the session saves on top of their revision;
// "Take theirs" drops my version of the document.
//
//   folio::MergeDialog dialog(conflict, theirs, mine, &document, this);
//   if (dialog.exec() == QDialog::Accepted)
//       dialog.tookTheirs() ? session->reloadStored() : session->resolveConflict(dialog.merged(), ...);
#include "document/annotationmerge.h"
#include "document/project/project.h"

#include <QDialog>

#include <vector>

class QTableWidget;

namespace folio {

class MergeDialog : public QDialog
{
    Q_OBJECT
public:
    MergeDialog(const SaveConflict &conflict, const Annotations &theirs, const Annotations &mine, const Document *document,
                QWidget *parent = nullptr);

    Annotations merged() const;
    bool tookTheirs() const { return m_tookTheirs; }
    QTableWidget *table() const { return m_table; } // one row per differing item; column 3: "mine" ticked
    void chooseAll(bool mine);

private:
    Annotations m_theirs, m_mine;
    std::vector<MergeItem> m_items;
    QTableWidget *m_table;
    bool m_tookTheirs = false;
};

} // namespace folio
