#include "pipeline/hubmodels.h"

#include "inference/formtagger/predictor.h"
#include "inference/models/hftokenclassifier.h"
#include "pipeline/hub/hubcache.h"

#include <QFile>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace folio::pipeline {

QString hubConfigProblem(const QString &configPath)
{
    QFile f(configPath);
    if (f.size() > (64 << 20) || !f.open(QIODevice::ReadOnly))
        return configPath + QStringLiteral(": cannot be read");
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(f.readAll().toStdString());
    } catch (const std::exception &e) {
        return QStringLiteral("config.json is not valid JSON (%1)").arg(QString::fromUtf8(e.what()));
    }
    if (!j.is_object() || !j.contains("model_type") || !j["model_type"].is_string())
        return QStringLiteral("config.json has no model_type");
    const std::string type = j["model_type"].get<std::string>();
    // The types some task runs (describeCheckpoint decides for the whole folder once it is there).
    std::vector<std::string> runnable = inference::HfTokenClassifier::supportedModelTypes();
    for (const char *t : {"folio-formtagger", inference::kTaggerEnsembleType, "markuplm", "webformer", "bart", "led"})
        runnable.push_back(t);
    if (std::find(runnable.begin(), runnable.end(), type) != runnable.end())
        return {};
    QStringList list;
    for (const std::string &t : runnable)
        list << QString::fromStdString(t);
    return QStringLiteral("model_type \"%1\" is not one Folio runs (%2)").arg(QString::fromStdString(type), list.join(QStringLiteral(", ")));
}

QList<CachedCheckpoint> cachedCheckpoints(const QString &cacheDir, bool all, const CheckpointDescriber &describe, bool *complete)
{
    if (complete)
        *complete = true;
    QList<CachedCheckpoint> out;
    for (const hub::CachedSnapshot &s : hub::listCachedSnapshots(cacheDir)) {
        nlohmann::json info;
        if (!describe(s.path, &info)) {
            if (complete)
                *complete = false;
            return {};
        }
        CachedCheckpoint c;
        c.repoId = s.repoId;
        c.revisions = s.refs;
        c.commit = s.commit;
        c.snapshotDir = s.path;
        c.runnable = info.value("runnable", false);
        const auto text = [&](const char *key) {
            return info.contains(key) && info[key].is_string() ? QString::fromStdString(info[key].get<std::string>()) : QString();
        };
        c.modelType = text("model_type");
        c.task = text("task");
        c.head = text("head");
        if (info.contains("problems") && info["problems"].is_array())
            for (const auto &p : info["problems"])
                if (p.is_string())
                    c.problems << QString::fromStdString(p.get<std::string>());
        if (c.runnable || all)
            out << c;
    }
    return out;
}

} // namespace folio::pipeline
