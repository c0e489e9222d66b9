#pragma once
// A runnable Hugging Face MarkupLM folder from the parity fixtures (../shared/fixtures/parity-new):
// markuplm_tokcls's tiny weights with the word table grown to the markuplm_tokenizer's 1060 ids (new
// rows zero), that tokenizer's files, and for `qa` a qa_outputs head made of the classifier's first
// two rows. `labels` (5 names) replace the fixture's LABEL_0..4. Empty when the fixtures are absent.

#include "inference/checkpoint/safetensors.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <fstream>

namespace folio::test {

inline void copyFolderFiles(const QString &from, const QString &to, const QStringList &skip = {})
{
    QDir().mkpath(to);
    for (const QString &f : QDir(from).entryList(QDir::Files))
        if (!skip.contains(f))
            QFile::copy(from + "/" + f, to + "/" + f);
}

inline QString makeTinyMarkupLM(const QString &dir, bool qa, const QStringList &labels = {})
{
    using namespace folio::inference;
    const QString src = sharedPath(QStringLiteral("fixtures/parity-new/markuplm_tokcls"));
    const QString tok = sharedPath(QStringLiteral("fixtures/parity-new/markuplm_tokenizer/tokenizer"));
    if (!QFileInfo::exists(src) || !QFileInfo::exists(tok))
        return {};
    copyFolderFiles(tok, dir);
    TensorMap weights = readSafetensors((src + "/model.safetensors").toStdString());
    const Tensor word = weights.at("markuplm.embeddings.word_embeddings.weight");
    const std::int64_t d = word.shape[1];
    std::vector<float> grown(std::size_t(1060 * d), 0.f);
    std::copy(word.data<float>(), word.data<float>() + word.numel(), grown.begin());
    weights["markuplm.embeddings.word_embeddings.weight"] = Tensor::fromFloats({1060, d}, grown);
    std::ifstream in((src + "/config.json").toStdString());
    nlohmann::json config = nlohmann::json::parse(in);
    config["vocab_size"] = 1060;
    if (qa) {
        const Tensor w = weights.at("classifier.weight"), b = weights.at("classifier.bias");
        weights.erase("classifier.weight");
        weights.erase("classifier.bias");
        weights["qa_outputs.weight"] = Tensor::fromFloats({2, d}, std::vector<float>(w.data<float>(), w.data<float>() + 2 * d));
        weights["qa_outputs.bias"] = Tensor::fromFloats({2}, std::vector<float>(b.data<float>(), b.data<float>() + 2));
        config.erase("id2label");
        config.erase("label2id");
        config["architectures"] = {"MarkupLMForQuestionAnswering"};
    } else if (labels.size() == 5) {
        config["id2label"] = nlohmann::json::object();
        config["label2id"] = nlohmann::json::object();
        for (int i = 0; i < 5; ++i) {
            config["id2label"][std::to_string(i)] = labels[i].toStdString();
            config["label2id"][labels[i].toStdString()] = i;
        }
    }
    writeSafetensors((dir + "/model.safetensors").toStdString(), weights);
    std::ofstream((dir + "/config.json").toStdString()) << config.dump();
    return dir;
}

} // namespace folio::test
