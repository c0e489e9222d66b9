#pragma once
// FieldsPanel: the Fields dock (issue 15) — one row per field of the project's field set with the
// page's answer (value or "no value"), its confidence and state (suggested / accepted / rejected /
// no answer), coloured by field; buttons to accept, reject, correct (from the words selected on
// the page or the picked DOM node), answer "no value on this page", and clear. The panel only
// shows and asks: the edits are made by whoever listens (FieldsController, through the undoable
// annotation session).
//
//   auto *panel = new folio::FieldsPanel(this);
//   panel->setFields(fieldNames);
//   panel->setAnswers(session->annotations());
//   connect(panel, &folio::FieldsPanel::acceptRequested, ...);
#include "document/annotations.h"
#include "pipeline/webfieldset.h"

#include <QStringList>
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace folio {

class FieldsPanel : public QWidget
{
    Q_OBJECT
public:
    enum Column { FieldColumn, ValueColumn, ConfidenceColumn, StateColumn };

    explicit FieldsPanel(QWidget *parent = nullptr);

    void setFields(const QStringList &fields);
    // With types: each value's reading as its type shows in its tooltip; one that does not read is
    // marked "⚠" in the State column.
    void setFieldSpecs(const std::vector<pipeline::FieldSpec> &fields);
    QStringList fields() const { return m_fields; }
    void setAnswers(const Annotations &annotations);
    void setMessage(const QString &text); // a line under the table (notes, errors)
    // A running extraction: progress bar + Cancel (cancelRequested); total 0 = busy without steps.
    void setBusy(bool busy, int done = 0, int total = 0);
    QString message() const;
    QString currentField() const;
    void setCurrentField(const QString &field);
    QTableWidget *table() const { return m_table; }
    // The row's text in a column ("" for an unknown field).
    QString cellText(const QString &field, Column column) const;

Q_SIGNALS:
    void fieldActivated(const QString &field); // the current row changed
    void acceptRequested(const QString &field);
    void rejectRequested(const QString &field);
    void correctRequested(const QString &field);
    void noValueRequested(const QString &field);
    void clearRequested(const QString &field);
    void extractRequested();
    void cancelRequested();

protected:
    void changeEvent(QEvent *event) override; // a palette turned dark or light: the suggestion grey again

private:
    void rebuild();
    void updateButtons();

    QStringList m_fields;
    std::vector<pipeline::FieldSpec> m_specs;
    Annotations m_answers;
    QTableWidget *m_table = nullptr;
    QLabel *m_message = nullptr;
    QPushButton *m_extract = nullptr;
    QPushButton *m_accept = nullptr;
    QPushButton *m_reject = nullptr;
    QPushButton *m_correct = nullptr;
    QPushButton *m_noValue = nullptr;
    QPushButton *m_clear = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancel = nullptr;
};

} // namespace folio
