#include "ui/training/modelhistory.h"

#include <QAction>
#include <QDir>

namespace folio {

ModelHistory::ModelHistory(QObject *parent, std::function<QString()> current, std::function<void(const QString &)> use)
    : QObject(parent), m_current(std::move(current)), m_use(std::move(use)), m_goBack(new QAction(tr("Go &Back to Previous Model"), this))
{
    setObjectName(QStringLiteral("modelHistory"));
    m_goBack->setObjectName(QStringLiteral("goBackToPreviousModelAction"));
    connect(m_goBack, &QAction::triggered, this, [this] { goBack(); });
    update();
}

void ModelHistory::replace(const QString &checkpointDir)
{
    const QString now = m_current();
    if (checkpointDir == now)
        return;
    m_previous = now;
    m_use(checkpointDir);
    update();
}

bool ModelHistory::goBack()
{
    if (m_previous.isEmpty())
        return false;
    const QString now = m_current();
    m_use(m_previous);
    m_previous = now;
    update();
    return true;
}

void ModelHistory::update()
{
    m_goBack->setEnabled(!m_previous.isEmpty());
    m_goBack->setToolTip(m_previous.isEmpty() ? tr("No model was replaced yet")
                                              : tr("Use %1 again (the model before the last one you accepted)").arg(QDir(m_previous).dirName()));
}

} // namespace folio
