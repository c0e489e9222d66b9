#pragma once
// A LayoutLMv2ForTokenClassification folder for tests: the weights of
// ../shared/fixtures/parity-new/layoutlmv2_visual (small detectron2 backbone included) under
// "layoutlmv2.", a 2-label classifier (O, B-FIELD) of fixed small weights, and the WordPiece
// tokenizer of tests/data/tokenizers/layoutlmv2 with vocab.txt padded to the config's vocab_size.
// Returns false when the fixture or a file is missing.

#include "inference/checkpoint/safetensors.h"
#include "tests/common/liltfolder.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QString>

namespace folio::test {

inline bool makeLayoutLMv2Folder(const QString &dir, const QString &tokenizerDir)
{
    using namespace folio::inference;
    const QString v2 = sharedPath(QStringLiteral("fixtures/parity-new/layoutlmv2_visual"));
    QDir().mkpath(dir);
    nlohmann::json config = readJsonFile(v2 + "/config.json");
    if (config.is_null())
        return false;
    config["architectures"] = nlohmann::json::array({"LayoutLMv2ForTokenClassification"});
    config["id2label"] = nlohmann::json{{"0", "O"}, {"1", "B-FIELD"}};
    if (!writeJsonFile(dir + "/config.json", config))
        return false;
    TensorMap weights;
    for (auto &kv : readSafetensors((v2 + "/model.safetensors").toStdString()))
        weights["layoutlmv2." + kv.first] = kv.second;
    const int hidden = config["hidden_size"].get<int>();
    std::vector<float> w(std::size_t(2 * hidden));
    for (std::size_t i = 0; i < w.size(); ++i)
        w[i] = float(int(i % 5) - 2) * 0.3f;
    weights["classifier.weight"] = Tensor::fromFloats({2, hidden}, w);
    weights["classifier.bias"] = Tensor::fromFloats({2}, {0.f, 0.f});
    writeSafetensors((dir + "/model.safetensors").toStdString(), weights);
    if (!QFile::copy(tokenizerDir + "/tokenizer_config.json", dir + "/tokenizer_config.json"))
        return false;
    QFile vocabIn(tokenizerDir + "/vocab.txt");
    if (!vocabIn.open(QIODevice::ReadOnly))
        return false;
    QByteArray vocab = vocabIn.readAll();
    for (int i = int(vocab.count('\n')); i < config["vocab_size"].get<int>(); ++i)
        vocab += QByteArrayLiteral("[unused") + QByteArray::number(i) + QByteArrayLiteral("]\n");
    QFile out(dir + "/vocab.txt");
    return out.open(QIODevice::WriteOnly) && out.write(vocab) == vocab.size();
}

} // namespace folio::test
