// TrainingDialog and crash survival (issue 50): the run it is set up for as a JSON description
// (kept in the session state while it trains, ui/sessionrecovery.h) and a run started from one:
// Folio's tagger (<out>/last/state.json) or a Hugging Face fine-tune (<out>/last/trainer_state.json).
#include "ui/training/trainingdialog.h"

#include "ui/workers/hffinetuneworker.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>

namespace folio {

QJsonObject TrainingDialog::folioRunDescription() const
{
    QJsonObject run;
    run.insert(QStringLiteral("kind"), QStringLiteral("folio-tagger"));
    run.insert(QStringLiteral("out"), m_output->text());
    run.insert(QStringLiteral("epochs"), m_epochs->value());
    run.insert(QStringLiteral("architecture"), m_arch->currentData().toString());
    run.insert(QStringLiteral("order"), m_order->currentData().toString());
    run.insert(QStringLiteral("init"), m_init->text().trimmed());
    run.insert(QStringLiteral("extra"), QJsonArray::fromStringList(extraSources()));
    return run;
}

bool TrainingDialog::startFolioRun(const QJsonObject &run, bool resume)
{
    const QString out = run.value(QStringLiteral("out")).toString();
    if (run.value(QStringLiteral("kind")).toString() != QLatin1String("folio-tagger") || out.isEmpty()) {
        m_log->appendPlainText(tr("Cannot resume: the interrupted run is not one of Folio's tagger (%1)")
                                   .arg(run.value(QStringLiteral("kind")).toString()));
        return false;
    }
    const auto pick = [](QComboBox *box, const QString &data) {
        const int i = box->findData(data);
        if (i >= 0)
            box->setCurrentIndex(i);
    };
    m_startKind->setCurrentIndex(FolioTagger);
    m_output->setText(out);
    const int epochs = run.value(QStringLiteral("epochs")).toInt();
    if (epochs > 0)
        m_epochs->setValue(epochs);
    pick(m_arch, run.value(QStringLiteral("architecture")).toString());
    pick(m_order, run.value(QStringLiteral("order")).toString());
    m_init->setText(run.value(QStringLiteral("init")).toString());
    m_extra->clear();
    for (const QJsonValue &v : run.value(QStringLiteral("extra")).toArray())
        addExtraSource(v.toString());
    if (!m_start->isEnabled()) {
        m_log->appendPlainText(tr("Cannot resume: the project has fewer than 2 labelled pages now"));
        return false;
    }
    if (resume)
        m_log->appendPlainText(tr("Resuming the interrupted run into %1…").arg(out));
    m_resume = resume;
    startTraining();
    return true;
}

QJsonObject TrainingDialog::hfRunDescription() const
{
    QJsonObject run;
    run.insert(QStringLiteral("kind"), QStringLiteral("hf-finetune"));
    run.insert(QStringLiteral("out"), m_output->text().trimmed());
    run.insert(QStringLiteral("epochs"), m_epochs->value());
    run.insert(QStringLiteral("init"), hfStartFolder());
    run.insert(QStringLiteral("maxSteps"), double(m_hfMaxSteps));
    return run;
}

bool TrainingDialog::startHfRun(const QJsonObject &run, bool resume)
{
    const QString out = run.value(QStringLiteral("out")).toString(), init = run.value(QStringLiteral("init")).toString();
    if (run.value(QStringLiteral("kind")).toString() != QLatin1String("hf-finetune") || out.isEmpty() || init.isEmpty()) {
        m_log->appendPlainText(tr("Cannot resume: the interrupted run is not a Hugging Face fine-tune (%1)")
                                   .arg(run.value(QStringLiteral("kind")).toString()));
        return false;
    }
    if (!QFileInfo(init).isDir()) {
        m_log->appendPlainText(tr("Cannot resume: %1, the folder the run started from, is gone").arg(init));
        return false;
    }
    // The Hub cache's snapshots are folders too: the run goes on from the same one.
    setStartFrom(HfFolder, init);
    m_output->setText(out);
    const int epochs = run.value(QStringLiteral("epochs")).toInt();
    if (epochs > 0)
        m_epochs->setValue(epochs);
    m_hfMaxSteps = long(run.value(QStringLiteral("maxSteps")).toDouble());
    // Killed before its first epoch was saved: nothing to continue from, it starts again.
    const bool state = QFileInfo::exists(out + QStringLiteral("/last/trainer_state.json"));
    if (resume)
        m_log->appendPlainText(state ? tr("Resuming the interrupted fine-tune of %1 into %2…").arg(QDir(init).dirName(), out)
                                     : tr("The interrupted fine-tune of %1 saved no epoch: starting it again into %2…")
                                           .arg(QDir(init).dirName(), out));
    m_resume = resume && state;
    startHfTraining();
    m_resume = false;
    return m_hfWorker->isRunning();
}

bool TrainingDialog::startRecordedRun(const QJsonObject &run, bool resume)
{
    if (run.value(QStringLiteral("kind")).toString() == QLatin1String("hf-finetune"))
        return startHfRun(run, resume);
    return startFolioRun(run, resume);
}

} // namespace folio
