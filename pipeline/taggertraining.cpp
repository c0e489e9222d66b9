#include "pipeline/taggertraining.h"

#include "document/annotations.h"
#include "document/document.h"
#include "pipeline/modelinputs/taggerpages.h"

#include <QDir>
#include <QFileInfo>
#include <QStringList>

#include <algorithm>
#include <exception>

namespace folio::pipeline {

QString defaultFunsdDir()
{
    const QByteArray env = qgetenv("FOLIO_FUNSD_DIR");
    if (!env.isEmpty())
        return QString::fromLocal8Bit(env);
    return QDir::cleanPath(QStringLiteral(FOLIO_SOURCE_DIR "/../shared/data/funsd/dataset"));
}

bool funsdWordOrderFromName(const QString &name, FunsdWordOrder *order)
{
    if (name == QLatin1String("annotation"))
        *order = FunsdWordOrder::Annotation;
    else if (name == QLatin1String("reading"))
        *order = FunsdWordOrder::Reading;
    else if (name == QLatin1String("layout"))
        *order = FunsdWordOrder::Layout;
    else
        return false;
    return true;
}

namespace {

bool knownSplit(const QString &split, QString *error)
{
    const QStringList splits{QStringLiteral("train"), QStringLiteral("train-dev"), QStringLiteral("dev"), QStringLiteral("test")};
    if (splits.contains(split))
        return true;
    *error = QStringLiteral("split must be train, train-dev, dev or test, not \"%1\"").arg(split);
    return false;
}

} // namespace

bool loadXfundSplitDocuments(const QString &path, const QString &split, FunsdWordOrder order, std::vector<XfundPage> *pages,
                             QString *error, XfundReport *report)
{
    if (!knownSplit(split, error))
        return false;
    std::vector<XfundPage> all;
    XfundReport r;
    if (!importXfundFile(path, order, &all, &r, error))
        return false;
    if (report)
        *report = r;
    if (split == QLatin1String("train") || split == QLatin1String("test")) {
        *pages = std::move(all);
        return true;
    }
    // The same shuffle as FUNSD's dev split (splitTrainDev, seed 13), applied to page indices.
    std::vector<inference::TaggerPage> index;
    for (std::size_t i = 0; i < all.size(); ++i) {
        inference::TaggerPage p;
        p.id = std::to_string(i);
        index.push_back(std::move(p));
    }
    std::vector<inference::TaggerPage> train, dev;
    inference::splitTrainDev(std::move(index), &train, &dev, 13, std::max(1, int(all.size()) * 15 / 100));
    pages->clear();
    for (const inference::TaggerPage &p : split == QLatin1String("dev") ? dev : train)
        pages->push_back(std::move(all[std::size_t(std::stoul(p.id))]));
    return true;
}

bool loadSroieSplit(const QString &folder, const QString &split, std::vector<SroieReceipt> *receipts, QString *error,
                    SroieReport *report)
{
    if (!knownSplit(split, error))
        return false;
    std::vector<SroieReceipt> all;
    SroieReport r;
    if (!importSroieFolder(folder, &all, &r, error))
        return false;
    if (report)
        *report = r;
    std::vector<SroieReceipt> heldOut, rest;
    for (std::size_t i = 0; i < all.size(); ++i)
        (isSroieHeldOut(int(i)) ? heldOut : rest).push_back(std::move(all[i]));
    receipts->clear();
    if (split == QLatin1String("test") || split == QLatin1String("train")) {
        *receipts = split == QLatin1String("test") ? std::move(heldOut) : std::move(rest);
        return true;
    }
    std::vector<inference::TaggerPage> index, train, dev;
    for (std::size_t i = 0; i < rest.size(); ++i) {
        inference::TaggerPage p;
        p.id = std::to_string(i);
        index.push_back(std::move(p));
    }
    inference::splitTrainDev(std::move(index), &train, &dev, 13, std::max(1, int(rest.size()) * 15 / 100));
    for (const inference::TaggerPage &p : split == QLatin1String("dev") ? dev : train)
        receipts->push_back(std::move(rest[std::size_t(std::stoul(p.id))]));
    return true;
}

std::vector<std::string> formSourceTags(const QString &datasetDir)
{
    const QStringList entities = isSroieFolder(datasetDir)
                                     ? sroieLabels()
                                     : QStringList{QStringLiteral("HEADER"), QStringLiteral("QUESTION"), QStringLiteral("ANSWER")};
    std::vector<std::string> tags{"O"};
    for (const QString &e : entities) {
        tags.push_back("B-" + e.toStdString());
        tags.push_back("I-" + e.toStdString());
    }
    return tags;
}

QString formSourceLicence(const QString &datasetDir)
{
    if (isSroieFolder(datasetDir))
        return QStringLiteral("SROIE 2019: research use only (no open licence)");
    if (isXfundFile(datasetDir))
        return QStringLiteral("XFUND: CC BY-NC-SA 4.0 (non-commercial)");
    return QStringLiteral("FUNSD: non-commercial research and educational use");
}

bool loadFunsdSplit(const QString &datasetDir, const QString &split, FunsdWordOrder order,
                    std::vector<inference::TaggerPage> *pages, QString *error, XfundReport *report, SroieReport *sroieReport)
{
    if (!knownSplit(split, error))
        return false;
    if (isSroieFolder(datasetDir)) {
        std::vector<SroieReceipt> receipts;
        if (!loadSroieSplit(datasetDir, split, &receipts, error, sroieReport))
            return false;
        pages->clear();
        for (const SroieReceipt &r : receipts)
            pages->push_back(taggerPageFromDocument(r.document, &r.annotations, r.id.toStdString()));
        return true;
    }
    if (isXfundFile(datasetDir)) {
        std::vector<XfundPage> docs;
        if (!loadXfundSplitDocuments(datasetDir, split, order, &docs, error, report))
            return false;
        pages->clear();
        for (const XfundPage &d : docs)
            pages->push_back(taggerPageFromDocument(d.document, &d.annotations, d.document.title.toStdString()));
        return true;
    }
    const QStringList files = funsdSplitFiles(datasetDir, split == QLatin1String("test") ? split : QStringLiteral("train"));
    if (files.isEmpty()) {
        *error = QStringLiteral("%1: no FUNSD annotation files for split %2").arg(datasetDir, split);
        return false;
    }
    std::vector<inference::TaggerPage> all;
    for (const QString &f : files) {
        Document doc;
        Annotations annotations;
        if (!importFunsdFile(f, order, &doc, &annotations, error))
            return false;
        all.push_back(taggerPageFromDocument(doc, &annotations, QFileInfo(f).completeBaseName().toStdString()));
    }
    if (split == QLatin1String("train-dev") || split == QLatin1String("dev")) {
        std::vector<inference::TaggerPage> train, dev;
        inference::splitTrainDev(std::move(all), &train, &dev);
        *pages = split == QLatin1String("dev") ? std::move(dev) : std::move(train);
    } else {
        *pages = std::move(all);
    }
    return true;
}

TaggerTrainOutcome trainTaggerOnPages(const inference::TrainConfig &config, const std::vector<inference::TaggerPage> &pages,
                                      const inference::ProgressCallback &progress, std::atomic<bool> *cancel,
                                      const std::vector<inference::TaggerPage> &extraTrain)
{
    TaggerTrainOutcome outcome;
    outcome.checkpointDir = QString::fromStdString(config.outputDir);
    if (pages.size() < 2) {
        outcome.error = QStringLiteral("training needs at least 2 labelled documents (found %1)").arg(pages.size());
        return outcome;
    }
    try {
        std::vector<inference::TaggerPage> train, dev;
        const int devCount = std::max(1, int(pages.size() * 15 / 100));
        inference::splitTrainDev(pages, &train, &dev, /*seed=*/13, devCount);
        train.insert(train.end(), extraTrain.begin(), extraTrain.end());
        const inference::TrainResult r = inference::train(config, train, dev, progress, cancel);
        outcome.ok = r.ok;
        outcome.cancelled = r.cancelled;
        outcome.error = QString::fromStdString(r.error);
        outcome.bestDevF1 = r.bestDevF1;
        outcome.bestEpoch = r.bestEpoch;
        outcome.seconds = r.seconds;
    } catch (const std::exception &e) {
        outcome.ok = false;
        outcome.error = QString::fromUtf8(e.what());
    }
    return outcome;
}

} // namespace folio::pipeline
