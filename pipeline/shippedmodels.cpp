#include "pipeline/shippedmodels.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStringList>

namespace folio::pipeline {

QString shippedModelDir(const QString &name, const QString &marker)
{
    QStringList roots;
    const QString env = qEnvironmentVariable("FOLIO_MODELS_DIR");
    if (!env.isEmpty())
        roots << env;
    if (QCoreApplication::instance())
        roots << QCoreApplication::applicationDirPath() + QStringLiteral("/../share/folio/models");
    roots << QStringLiteral(FOLIO_SOURCE_DIR "/resources/models");
    for (const QString &root : roots) {
        const QString dir = QDir(root).filePath(name);
        if (QFileInfo::exists(QDir(dir).filePath(marker)))
            return QDir(dir).absolutePath();
    }
    return {};
}

QString shippedQsDrafterDir()
{
    return shippedModelDir(QStringLiteral("qs-drafter"), QStringLiteral("drafter.json"));
}

} // namespace folio::pipeline
