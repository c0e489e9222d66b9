#pragma once
// What a parity case folder is, and whether Folio can run it (tst_parity.cpp).
//
// A case's kind comes from its files, each kind recognised explicitly:
//  - Model: config.json with a `model_type` (inputs.safetensors -> outputs.safetensors);
//  - LayoutLMv3Tokenizer: cases.json + tokenizer/tokenizer_config.json whose tokenizer_class is
//    LayoutLMv3Tokenizer(Fast) (a MarkupLM tokenizer case has the same two files: it is not this);
//  - TokenClassifierPipeline: documents.json + checkpoint/config.json (HfTokenClassifier);
//  - Hibrids: outputs.safetensors holding `hier2index` (config.json without model_type);
//  - FineTune: train.json beside config.json + model.safetensors + inputs/outputs.safetensors (the
//    Hugging Face Trainer's recorded steps, finetunecases.h; checked before Model, whose files it has);
//  - Unknown: anything else (described by what it holds).
// parityCaseUnsupported() says why Folio cannot run a case (unknown kind, model type not built,
// a part of the checkpoint not built); tst_parity skips such a case by name in a lenient root and
// fails it elsewhere. To add a kind: an enum value, its test in classifyParityCase(), its runner.

#include "inference/checkpoint/modelconfig.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/models/hftokenclassifier.h"
#include "inference/models/modelrunner.h"
#include "inference/training/hf/hffinetuner.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

#include <algorithm>
#include <string>
#include <vector>

namespace folio::inference::test {

enum class ParityCaseKind { Model, LayoutLMv3Tokenizer, MarkupLMTokenizer, TokenClassifierPipeline, Hibrids, FineTune, Unknown };

struct ParityCaseInfo
{
    ParityCaseKind kind = ParityCaseKind::Unknown;
    QString description; // what the folder holds, for messages ("model_type lilt", "MarkupLMTokenizer cases", ...)
    std::string modelType; // Model: config.json's; TokenClassifierPipeline: checkpoint/config.json's
};

// A string member of a small JSON object file; empty when the file or member is missing or malformed.
inline QString parityJsonString(const QString &path, const char *key)
{
    QFile f(path);
    if (f.size() > (1 << 20) || !f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object().value(QLatin1String(key)).toString();
}

inline ParityCaseInfo classifyParityCase(const QString &dir)
{
    const QDir d(dir);
    ParityCaseInfo info;
    if (d.exists(QStringLiteral("train.json")) && d.exists(QStringLiteral("config.json"))) {
        info.kind = ParityCaseKind::FineTune;
        info.modelType = ModelConfig::fromDirectory(dir.toStdString()).modelType();
        info.description = QStringLiteral("fine-tuning steps (model_type %1)").arg(QString::fromStdString(info.modelType));
        return info;
    }
    if (d.exists(QStringLiteral("config.json"))) {
        info.modelType = ModelConfig::fromDirectory(dir.toStdString()).modelType();
        if (!info.modelType.empty()) {
            info.kind = ParityCaseKind::Model;
            info.description = QStringLiteral("model_type %1").arg(QString::fromStdString(info.modelType));
            return info;
        }
    }
    if (d.exists(QStringLiteral("cases.json")) && d.exists(QStringLiteral("tokenizer"))) {
        const QString cls = parityJsonString(d.filePath(QStringLiteral("tokenizer/tokenizer_config.json")), "tokenizer_class");
        info.description = QStringLiteral("tokenizer cases (tokenizer_class \"%1\")").arg(cls);
        if (cls == QLatin1String("LayoutLMv3Tokenizer") || cls == QLatin1String("LayoutLMv3TokenizerFast"))
            info.kind = ParityCaseKind::LayoutLMv3Tokenizer;
        else if (cls == QLatin1String("MarkupLMTokenizer") || cls == QLatin1String("MarkupLMTokenizerFast"))
            info.kind = ParityCaseKind::MarkupLMTokenizer;
        return info;
    }
    if (d.exists(QStringLiteral("documents.json")) && d.exists(QStringLiteral("checkpoint/config.json"))) {
        info.kind = ParityCaseKind::TokenClassifierPipeline;
        info.modelType = ModelConfig::fromDirectory(d.filePath(QStringLiteral("checkpoint")).toStdString()).modelType();
        info.description = QStringLiteral("token-classification pipeline (model_type %1)")
                               .arg(QString::fromStdString(info.modelType));
        return info;
    }
    if (d.exists(QStringLiteral("outputs.safetensors"))
        && SafetensorsFile(d.filePath(QStringLiteral("outputs.safetensors")).toStdString()).contains("hier2index")) {
        info.kind = ParityCaseKind::Hibrids;
        info.description = QStringLiteral("HIBRIDS index");
        return info;
    }
    const QStringList entries = d.entryList(QDir::AllEntries | QDir::NoDotAndDotDot, QDir::Name);
    info.description = QStringLiteral("files: %1").arg(entries.join(QLatin1String(", ")));
    return info;
}

// Empty when Folio can run the case; otherwise why not.
inline QString parityCaseUnsupported(const QString & /*dir*/, const ParityCaseInfo &info)
{
    auto listed = [](const std::vector<std::string> &types, const std::string &type) {
        return std::find(types.begin(), types.end(), type) != types.end();
    };
    auto joined = [](const std::vector<std::string> &items) {
        QStringList l;
        for (const std::string &i : items)
            l << QString::fromStdString(i);
        return l.join(QLatin1String(", "));
    };
    switch (info.kind) {
    case ParityCaseKind::Unknown:
        return QStringLiteral("case kind not known to this test (%1)").arg(info.description);
    case ParityCaseKind::Model: {
        const auto supported = ModelRunner::supportedModelTypes();
        if (!listed(supported, info.modelType))
            return QStringLiteral("model type '%1' is not built yet (supported: %2)")
                .arg(QString::fromStdString(info.modelType), joined(supported));
        return {};
    }
    case ParityCaseKind::TokenClassifierPipeline: {
        const auto supported = HfTokenClassifier::supportedModelTypes();
        if (!listed(supported, info.modelType))
            return QStringLiteral("token-classification pipeline of model type '%1' is not built yet (supported: %2)")
                .arg(QString::fromStdString(info.modelType), joined(supported));
        return {};
    }
    case ParityCaseKind::FineTune: {
        const auto supported = HfFineTuner::supportedModelTypes();
        if (!listed(supported, info.modelType))
            return QStringLiteral("fine-tuning of model type '%1' is not built yet (supported: %2)")
                .arg(QString::fromStdString(info.modelType), joined(supported));
        return {};
    }
    case ParityCaseKind::LayoutLMv3Tokenizer:
    case ParityCaseKind::MarkupLMTokenizer:
    case ParityCaseKind::Hibrids:
        return {};
    }
    return {};
}

} // namespace folio::inference::test
