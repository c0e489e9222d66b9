#include "app/cli/trainingdata.h"

#include "app/cli/commands.h"
#include "document/documentjson.h"
#include "document/html/htmlloader.h"
#include "inference/formtagger/trainpages.h"
#include "ocr/ocr.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace folio::cli {

QString defaultFunsdDir()
{
    const QByteArray env = qgetenv("FOLIO_FUNSD_DIR");
    if (!env.isEmpty())
        return QString::fromLocal8Bit(env);
    return QDir::cleanPath(QStringLiteral(FOLIO_SOURCE_DIR "/../shared/data/funsd/dataset"));
}

FunsdWordOrder parseWordOrder(const std::string &name)
{
    if (name == "annotation") return FunsdWordOrder::Annotation;
    if (name == "reading") return FunsdWordOrder::Reading;
    throw CliError("word order must be \"annotation\" or \"reading\", not \"" + name + "\"", ExitUsage);
}

std::vector<inference::TrainPage> loadFunsdSplit(const QString &datasetDir, const std::string &split, FunsdWordOrder order)
{
    if (split != "train" && split != "train-dev" && split != "dev" && split != "test")
        throw CliError("split must be train, train-dev, dev or test, not \"" + split + "\"", ExitUsage);
    const QStringList files = funsdSplitFiles(datasetDir, QString::fromStdString(split == "test" ? "test" : "train"));
    if (files.isEmpty())
        throw CliError(datasetDir.toStdString() + ": no FUNSD annotation files for split " + split);
    std::vector<inference::TrainPage> pages;
    for (const QString &f : files) {
        Document doc;
        Annotations ann;
        QString err;
        if (!importFunsdFile(f, order, &doc, &ann, &err))
            throw CliError(err.toStdString());
        pages.push_back(inference::trainPageFromDocument(doc, &ann, QFileInfo(f).completeBaseName().toStdString()));
    }
    if (split == "train-dev" || split == "dev") {
        std::vector<inference::TrainPage> train, dev;
        inference::splitTrainDev(pages, &train, &dev);
        return split == "dev" ? dev : train;
    }
    return pages;
}

void loadAnyDocument(const QString &path, FunsdWordOrder order, Document *doc, Annotations *annotations)
{
    const QFileInfo fi(path);
    if (!fi.isFile())
        throw CliError(path.toStdString() + ": no such file");
    const QString suffix = fi.suffix().toLower();
    QString err;
    if (suffix == QLatin1String("json")) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            throw CliError(path.toStdString() + ": cannot open");
        const QByteArray head = f.read(4096);
        if (head.contains("\"form\"")) {
            if (!importFunsdFile(path, order, doc, annotations, &err))
                throw CliError(err.toStdString());
            return;
        }
        if (!readDocumentJsonFile(path, doc, annotations, &err))
            throw CliError(err.toStdString());
        return;
    }
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm") || suffix == QLatin1String("xhtml")) {
        HtmlLoadResult r = loadHtmlFile(path);
        if (!r.ok)
            throw CliError(r.error.toStdString());
        *doc = std::move(r.document);
        return;
    }
    ocr::OcrResult r = ocr::runOcr(path);
    if (!r.ok)
        throw CliError(r.error.toStdString());
    *doc = std::move(r.document);
}

} // namespace folio::cli
