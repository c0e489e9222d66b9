#include "pipeline/shippedmodels.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStringList>

namespace folio::pipeline {

namespace {

QStringList candidateRoots()
{
    QStringList roots;
    const QString env = qEnvironmentVariable("FOLIO_MODELS_DIR");
    if (!env.isEmpty())
        roots << env;
    if (QCoreApplication::instance())
        roots << QCoreApplication::applicationDirPath() + QStringLiteral("/../share/folio/models");
    roots << QStringLiteral(FOLIO_SOURCE_DIR "/resources/models");
    return roots;
}

} // namespace

QString shippedModelsRoot()
{
    for (const QString &root : candidateRoots())
        if (QFileInfo(root).isDir())
            return QDir(root).absolutePath();
    return {};
}

QString shippedModelDir(const QString &name, const QString &marker)
{
    for (const QString &root : candidateRoots()) {
        const QString dir = QDir(root).filePath(name);
        if (QFileInfo::exists(QDir(dir).filePath(marker)))
            return QDir(dir).absolutePath();
    }
    return {};
}

QString shippedSamplesDir()
{
    QStringList roots;
    if (QCoreApplication::instance())
        roots << QCoreApplication::applicationDirPath() + QStringLiteral("/../share/folio/samples");
    roots << QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples");
    for (const QString &root : roots)
        if (QFileInfo::exists(QDir(root).filePath(QStringLiteral("sample-form.png"))))
            return QDir(root).absolutePath();
    return {};
}

QString folioReadmePath()
{
    QStringList candidates;
    if (QCoreApplication::instance())
        candidates << QCoreApplication::applicationDirPath() + QStringLiteral("/../share/doc/folio/README.md");
    candidates << QStringLiteral(FOLIO_SOURCE_DIR "/README.md");
    for (const QString &path : candidates)
        if (QFileInfo(path).isFile())
            return QFileInfo(path).absoluteFilePath();
    return {};
}

QString shippedQsDrafterDir()
{
    return shippedModelDir(QStringLiteral("qs-drafter"), QStringLiteral("drafter.json"));
}

QString shippedQsQuestionsDir()
{
    return shippedModelDir(QStringLiteral("qs-questions"), QStringLiteral("config.json"));
}

} // namespace folio::pipeline
