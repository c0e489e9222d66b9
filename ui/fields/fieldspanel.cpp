#include "ui/fields/fieldspanel.h"

#include "ui/commands/fieldcommands.h"
#include "ui/labelcolors.h"
#include "ui/legibility.h"

#include <QEvent>
#include <QGridLayout>
#include <QHeaderView>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace folio {

FieldsPanel::FieldsPanel(QWidget *parent)
    : QWidget(parent), m_table(new QTableWidget(this)), m_message(new QLabel(this))
{
    setObjectName(QStringLiteral("fieldsPanel"));
    m_table->setAccessibleName(tr("Extracted fields"));
    m_table->setColumnCount(4);
    m_table->setHorizontalHeaderLabels({tr("Field"), tr("Value"), tr("Conf."), tr("State")});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(ValueColumn, QHeaderView::Stretch);
    m_table->setMinimumHeight(8 * m_table->verticalHeader()->defaultSectionSize() + 4); // the default set without scrolling
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setObjectName(QStringLiteral("fieldsMessage"));

    const auto button = [this](const QString &text, const QString &tip, const QString &name) {
        auto *b = new QPushButton(text, this);
        b->setToolTip(tip);
        b->setObjectName(name);
        return b;
    };
    m_extract = button(tr("Extract"), tr("Model > Extract Fields on this page"), QStringLiteral("extractFields"));
    m_accept = button(tr("Accept"), tr("Accept the suggested answer"), QStringLiteral("acceptField"));
    m_reject = button(tr("Reject"), tr("Reject the suggested answer"), QStringLiteral("rejectField"));
    m_correct = button(tr("Use selection"),
                       tr("The field's value is the text selected on the page, or the words of the picked DOM node"),
                       QStringLiteral("correctField"));
    m_noValue = button(tr("No value"), tr("This page has no value for the field (stored as an answer)"),
                       QStringLiteral("noValueField"));
    m_clear = button(tr("Clear"), tr("Forget every answer of the field on this page"), QStringLiteral("clearField"));
    auto *buttons = new QGridLayout;
    buttons->addWidget(m_accept, 0, 0);
    buttons->addWidget(m_reject, 0, 1);
    buttons->addWidget(m_noValue, 0, 2);
    buttons->addWidget(m_correct, 1, 0, 1, 2);
    buttons->addWidget(m_clear, 1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    m_progress = new QProgressBar(this);
    m_cancel = button(tr("Cancel"), tr("Stop the extraction"), QStringLiteral("cancelFields"));
    auto *busy = new QHBoxLayout;
    busy->addWidget(m_progress, 1);
    busy->addWidget(m_cancel);
    m_progress->hide();
    m_cancel->hide();
    layout->addWidget(m_extract);
    layout->addLayout(busy);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_message);

    connect(m_extract, &QPushButton::clicked, this, &FieldsPanel::extractRequested);
    connect(m_cancel, &QPushButton::clicked, this, &FieldsPanel::cancelRequested);
    const auto forward = [this](QPushButton *b, void (FieldsPanel::*signal)(const QString &)) {
        connect(b, &QPushButton::clicked, this, [this, signal] {
            if (!currentField().isEmpty())
                Q_EMIT(this->*signal)(currentField());
        });
    };
    forward(m_accept, &FieldsPanel::acceptRequested);
    forward(m_reject, &FieldsPanel::rejectRequested);
    forward(m_correct, &FieldsPanel::correctRequested);
    forward(m_noValue, &FieldsPanel::noValueRequested);
    forward(m_clear, &FieldsPanel::clearRequested);
    connect(m_table, &QTableWidget::currentCellChanged, this, [this](int row, int, int previous, int) {
        updateButtons();
        if (row != previous && row >= 0)
            Q_EMIT fieldActivated(currentField());
    });
    updateButtons();
}

void FieldsPanel::setFields(const QStringList &fields)
{
    if (fields == m_fields)
        return;
    m_fields = fields;
    rebuild();
}

void FieldsPanel::setFieldSpecs(const std::vector<pipeline::FieldSpec> &fields)
{
    m_specs = fields;
    m_fields.clear(); // rebuilt below even when the names did not change (types may have)
    setFields(pipeline::fieldNames(fields));
}

void FieldsPanel::setAnswers(const Annotations &annotations)
{
    m_answers = annotations;
    rebuild();
}

void FieldsPanel::setBusy(bool busy, int done, int total)
{
    m_progress->setVisible(busy);
    m_cancel->setVisible(busy);
    m_extract->setEnabled(!busy);
    m_progress->setRange(0, std::max(0, total));
    m_progress->setValue(std::clamp(done, 0, std::max(0, total)));
}

void FieldsPanel::setMessage(const QString &text) { m_message->setText(text); }
QString FieldsPanel::message() const { return m_message->text(); }

QString FieldsPanel::currentField() const
{
    const int row = m_table->currentRow();
    return row >= 0 && row < m_fields.size() ? m_fields[row] : QString();
}

void FieldsPanel::setCurrentField(const QString &field)
{
    const int row = int(m_fields.indexOf(field));
    if (row >= 0)
        m_table->setCurrentCell(row, FieldColumn);
}

QString FieldsPanel::cellText(const QString &field, Column column) const
{
    const int row = int(m_fields.indexOf(field));
    const QTableWidgetItem *item = row >= 0 ? m_table->item(row, column) : nullptr;
    return item ? item->text() : QString();
}

void FieldsPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && m_table && !m_fields.isEmpty())
        rebuild();
}

void FieldsPanel::rebuild()
{
    const QString current = currentField();
    m_table->blockSignals(true);
    // Columns sized to their contents once, after filling: with ResizeToContents on, every setItem
    // measured the whole column again (tens of ms a rebuild, and one runs on every annotation edit).
    QHeaderView *header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    m_table->setUpdatesEnabled(false);
    m_table->setRowCount(int(m_fields.size()));
    for (int row = 0; row < m_fields.size(); ++row) {
        const QString &field = m_fields[row];
        const FieldValue *answer = fieldedits::answerOf(m_answers, field);
        QString value, confidence, state = tr("no answer");
        if (answer) {
            value = fieldedits::isNoValue(*answer) ? tr("(no value on this page)") : answer->text;
            if (answer->source.kind == AnnotationSource::Model)
                confidence = answer->source.checkpoint.startsWith(QLatin1String("structured-data:"))
                                 ? answer->source.checkpoint.mid(16) // the page's own schema.org / meta data
                                 : QString::number(answer->confidence, 'f', 2);
            state = answer->state == ReviewState::Suggested ? tr("suggested")
                    : answer->state == ReviewState::Rejected ? tr("rejected")
                    : answer->source.kind == AnnotationSource::User ? tr("corrected") : tr("accepted");
        }
        auto *name = new QTableWidgetItem(field);
        name->setBackground(labelColor(field, 90));
        m_table->setItem(row, FieldColumn, name);
        auto *valueItem = new QTableWidgetItem(value);
        valueItem->setToolTip(value);
        const auto spec = std::find_if(m_specs.begin(), m_specs.end(), [&](const pipeline::FieldSpec &f) { return f.name == field; });
        if (answer && spec != m_specs.end() && !fieldedits::isNoValue(*answer)) {
            const pipeline::FieldReading reading = pipeline::readFieldValue(*spec, answer->text);
            valueItem->setToolTip(reading.ok ? tr("%1\nreads as %2: %3").arg(value, pipeline::fieldTypeName(spec->type), reading.value)
                                             : tr("%1\n%2").arg(value, reading.problem));
            if (!reading.ok)
                state += QStringLiteral(" \u26a0");
        }
        if (answer && answer->state == ReviewState::Suggested)
            valueItem->setForeground(secondaryTextColor(palette())); // light or dark palette (the table's own follows after this panel's)
        m_table->setItem(row, ValueColumn, valueItem);
        m_table->setItem(row, ConfidenceColumn, new QTableWidgetItem(confidence));
        m_table->setItem(row, StateColumn, new QTableWidgetItem(state));
    }
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(ValueColumn, QHeaderView::Stretch);
    m_table->setUpdatesEnabled(true);
    m_table->blockSignals(false);
    const int row = int(m_fields.indexOf(current));
    if (row >= 0)
        m_table->setCurrentCell(row, FieldColumn);
    updateButtons();
}

void FieldsPanel::updateButtons()
{
    const QString field = currentField();
    const FieldValue *answer = field.isEmpty() ? nullptr : fieldedits::answerOf(m_answers, field);
    const bool suggested = answer && answer->state == ReviewState::Suggested;
    m_accept->setEnabled(suggested);
    m_reject->setEnabled(suggested);
    m_correct->setEnabled(!field.isEmpty());
    m_noValue->setEnabled(!field.isEmpty());
    m_clear->setEnabled(answer != nullptr);
}

} // namespace folio
