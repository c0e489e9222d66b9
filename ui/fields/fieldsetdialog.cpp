#include "ui/fields/fieldsetdialog.h"
#include "ui/legibility.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace folio {

FieldSetDialog::FieldSetDialog(const std::vector<pipeline::FieldSpec> &fields, QWidget *parent)
    : QDialog(parent), m_table(new QTableWidget(this)), m_message(new QLabel(this))
{
    setWindowTitle(tr("Field set of this project"));
    m_table->setColumnCount(2);
    m_table->setAccessibleName(tr("Fields to extract"));
    m_table->setHorizontalHeaderLabels({tr("Field"), tr("Type")});
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: %1").arg(errorTextColor(palette()).name())); // light or dark palette
    auto *add = new QPushButton(tr("Add"), this);
    auto *remove = new QPushButton(tr("Remove"), this);
    auto *defaults = new QPushButton(tr("Product defaults"), this);
    connect(add, &QPushButton::clicked, this, [this] {
        addField(QString(), pipeline::FieldType::Text);
        m_table->editItem(m_table->item(m_table->rowCount() - 1, 0));
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_table->currentRow() >= 0)
            m_table->removeRow(m_table->currentRow());
    });
    connect(defaults, &QPushButton::clicked, this, [this] { setFields(pipeline::defaultProductFields()); });
    auto *row = new QHBoxLayout;
    row->addWidget(add);
    row->addWidget(remove);
    row->addStretch(1);
    row->addWidget(defaults);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &FieldSetDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &FieldSetDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("The fields Extract Fields looks for on every page of this project. A model "
                                    "trained before a change does not know the fields added since."),
                                 this));
    layout->addWidget(m_table, 1);
    layout->addLayout(row);
    layout->addWidget(m_message);
    layout->addWidget(buttons);
    setFields(fields);
}

void FieldSetDialog::setFields(const std::vector<pipeline::FieldSpec> &fields)
{
    m_table->setRowCount(0);
    for (const pipeline::FieldSpec &f : fields)
        addField(f.name, f.type);
}

void FieldSetDialog::addField(const QString &name, pipeline::FieldType type)
{
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    m_table->setItem(row, 0, new QTableWidgetItem(name));
    auto *types = new QComboBox(m_table);
    types->addItems(pipeline::fieldTypeNames());
    types->setCurrentText(pipeline::fieldTypeName(type));
    m_table->setCellWidget(row, 1, types);
}

QString FieldSetDialog::message() const { return m_message->text(); }

std::vector<pipeline::FieldSpec> FieldSetDialog::edited() const
{
    std::vector<pipeline::FieldSpec> out;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        pipeline::FieldSpec f;
        f.name = m_table->item(row, 0) ? m_table->item(row, 0)->text().trimmed() : QString();
        if (const auto *types = qobject_cast<QComboBox *>(m_table->cellWidget(row, 1)))
            pipeline::fieldTypeFromName(types->currentText(), &f.type);
        out.push_back(f);
    }
    return out;
}

void FieldSetDialog::accept()
{
    const std::vector<pipeline::FieldSpec> fields = edited();
    QString error;
    if (!pipeline::validateFieldSet(fields, &error)) {
        m_message->setText(error);
        return;
    }
    m_accepted = fields;
    QDialog::accept();
}

} // namespace folio
