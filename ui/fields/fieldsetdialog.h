#pragma once
// FieldSetDialog: edits a project's field set (name + type per row; add, remove, product
// defaults). OK validates (pipeline::validateFieldSet) and stays open with the message when the
// set is refused; fieldSet() is the accepted set. Storing it is the caller's job.
#include "pipeline/webfieldset.h"

#include <QDialog>

class QLabel;
class QTableWidget;

namespace folio {

class FieldSetDialog : public QDialog
{
    Q_OBJECT
public:
    explicit FieldSetDialog(const std::vector<pipeline::FieldSpec> &fields, QWidget *parent = nullptr);

    std::vector<pipeline::FieldSpec> fieldSet() const { return m_accepted; }
    QTableWidget *table() const { return m_table; }
    QString message() const;
    void addField(const QString &name, pipeline::FieldType type);
    void setFields(const std::vector<pipeline::FieldSpec> &fields);

public Q_SLOTS:
    void accept() override;

private:
    std::vector<pipeline::FieldSpec> edited() const;

    QTableWidget *m_table;
    QLabel *m_message;
    std::vector<pipeline::FieldSpec> m_accepted;
};

} // namespace folio
