#pragma once
// A LiLT token-classification folder for tests: the parity case's LiLT
// (../shared/fixtures/parity-new/lilt_tokcls) given the RoBERTa byte-level BPE tokenizer of
// parity-next/layoutlmv3_tokenizer. That tokenizer has 1060 ids and the case's model 500 rows, so
// makeLiltFolder(dir, 1060) grows the word embeddings to 1060 rows (rows 500.. repeat rows 0..;
// config vocab_size 1060); makeLiltFolder(dir, 500) keeps the case's own rows (a tokenizer with
// more ids than the model). Another tokenizer folder's files (e.g. the LayoutXLM fixture's, as
// lilt-infoxlm ships) can be given instead. Used by tst_lilt_classifier and the attention tests.

#include "inference/checkpoint/safetensors.h"
#include "tests/common/testdata.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QString>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <vector>

namespace folio::test {

inline QString liltCaseDir() { return sharedPath(QStringLiteral("fixtures/parity-new/lilt_tokcls")); }
inline QString liltTokenizerDir() { return sharedPath(QStringLiteral("fixtures/parity-next/layoutlmv3_tokenizer/tokenizer")); }

inline nlohmann::json readJsonFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return nlohmann::json();
    return nlohmann::json::parse(f.readAll().toStdString());
}

inline bool writeJsonFile(const QString &path, const nlohmann::json &j)
{
    std::ofstream out(path.toStdString());
    out << j.dump(2);
    return bool(out);
}

inline bool makeLiltFolder(const QString &dir, std::int64_t vocab, const QString &tokenizerDir = liltTokenizerDir())
{
    using namespace folio::inference;
    QDir().mkpath(dir);
    nlohmann::json config = readJsonFile(liltCaseDir() + "/config.json");
    config["vocab_size"] = vocab;
    if (!writeJsonFile(dir + "/config.json", config))
        return false;
    TensorMap weights = readSafetensors((liltCaseDir() + "/model.safetensors").toStdString());
    Tensor &words = weights.at("lilt.embeddings.word_embeddings.weight");
    const std::int64_t rows = words.shape[0], width = words.shape[1];
    std::vector<float> grown(std::size_t(vocab * width));
    for (std::int64_t r = 0; r < vocab; ++r)
        std::copy_n(words.data<float>() + (r % rows) * width, width, grown.begin() + r * width);
    words = Tensor::fromFloats({vocab, width}, grown);
    writeSafetensors((dir + "/model.safetensors").toStdString(), weights);
    const QDir tok(tokenizerDir);
    for (const QString &name : tok.entryList(QDir::Files))
        if (!QFile::copy(tok.filePath(name), dir + "/" + name))
            return false;
    return true;
}

} // namespace folio::test
