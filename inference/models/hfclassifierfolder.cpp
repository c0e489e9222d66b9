// The Hugging Face token classifiers' folder checks (see detail/hfclassifierfolder.h): apart from
// hftokenclassifier.cpp so that they link without LibTorch (folio-cli-front describes a Hub download
// with them; issue 46).
#include "inference/models/detail/hfclassifierfolder.h"

#include "inference/checkpoint/modelconfig.h"
#include "inference/errors.h"
#include "inference/models/detail/tokenlabels.h"
#include "inference/models/hftokenclassifier.h"
#include "inference/tokenizers/hflayouttokenizer.h"

#include <algorithm>
#include <filesystem>
#include <iterator>

namespace folio::inference {

namespace detail {

// The folder's tokenizer, refused before any weight is read when it cannot be this model's: a
// tokenizer class that is not byte-level BPE with word boxes (LayoutLMv3's semantics; a LiLT folder
// may say RobertaTokenizer, the BPE it was trained with, or LayoutXLMTokenizer), or more ids than the
// model has rows. A LayoutLMv2 folder takes LayoutLMv2Tokenizer (BERT WordPiece) or LayoutXLMTokenizer (XLM-R).
std::unique_ptr<HfLayoutTokenizer> hfClassifierTokenizer(const std::string &dir, const ModelConfig &config)
{
    const std::string tokenizerConfig = dir + "/tokenizer_config.json";
    const HfLayoutTokenizerConfig tc = HfLayoutTokenizerConfig::fromDirectory(dir);
    if (config.modelType() == "layoutlmv2") {
        bool known = false;
        HfLayoutTokenizerConfig::kindOfClass(tc.tokenizerClass, &known);
        if ((!tc.tokenizerClass.empty() && !known) || tc.kind == HfLayoutTokenizerConfig::Kind::Bpe)
            throw InferenceError((tc.tokenizerClass.empty() ? dir : tokenizerConfig) + ": " +
                                 (tc.tokenizerClass.empty() ? std::string("no vocab.txt or sentencepiece.bpe.model")
                                                            : "tokenizer_class \"" + tc.tokenizerClass + "\"") +
                                 ": a layoutlmv2 checkpoint needs LayoutLMv2Tokenizer (BERT WordPiece vocab.txt) or "
                                 "LayoutXLMTokenizer (XLM-R sentencepiece.bpe.model)");
        auto tokenizer = std::make_unique<HfLayoutTokenizer>(HfLayoutTokenizer::fromDirectory(dir, tc));
        const long long rows = config.getInt("vocab_size", -1);
        const std::vector<std::string> files = tokenizer->tokenizer().files();
        const std::string file = files.empty() ? dir : files.front();
        if (rows > 0 && tokenizer->tokenizer().vocabSize() != rows)
            throw InferenceError(file + ": the tokenizer has " + std::to_string(tokenizer->tokenizer().vocabSize()) +
                                 " ids but " + config.source() + " says vocab_size " + std::to_string(rows) +
                                 ": the tokenizer does not belong to this model");
        return tokenizer;
    }
    if (config.modelType() == "lilt" && tc.kind == HfLayoutTokenizerConfig::Kind::XlmSentencePiece) {
        // LiLT's multilingual checkpoints (lilt-infoxlm) ship LayoutXLMTokenizer: XLM-R SentencePiece.
        auto tokenizer = std::make_unique<HfLayoutTokenizer>(HfLayoutTokenizer::fromDirectory(dir, tc));
        const long long rows = config.getInt("vocab_size", -1);
        const std::vector<std::string> files = tokenizer->tokenizer().files();
        if (rows > 0 && tokenizer->tokenizer().vocabSize() > rows)
            throw InferenceError((files.empty() ? dir : files.front()) + ": the tokenizer has " +
                                 std::to_string(tokenizer->tokenizer().vocabSize()) + " ids but " + config.source() +
                                 " says vocab_size " + std::to_string(rows) + ": the tokenizer does not belong to this model");
        return tokenizer;
    }
    static const char *const kBpeClasses[] = {"LayoutLMv3Tokenizer", "LayoutLMv3TokenizerFast", "RobertaTokenizer",
                                              "RobertaTokenizerFast"};
    if (!tc.tokenizerClass.empty()
        && std::none_of(std::begin(kBpeClasses), std::end(kBpeClasses),
                        [&](const char *c) { return tc.tokenizerClass == c; }))
        throw InferenceError(tokenizerConfig + ": tokenizer_class \"" + tc.tokenizerClass +
                             "\" is not a tokenizer Folio runs for " + config.modelType() +
                             " (byte-level BPE: LayoutLMv3Tokenizer or RobertaTokenizer; XLM-R SentencePiece runs "
                             "with layoutlmv2 / LayoutXLM and lilt folders)");
    if (!std::filesystem::exists(dir + "/vocab.json") && std::filesystem::exists(dir + "/sentencepiece.bpe.model"))
        throw InferenceError(dir + "/sentencepiece.bpe.model: an XLM-R SentencePiece tokenizer (LayoutXLM); Folio runs " +
                             config.modelType() + " with a byte-level BPE tokenizer (vocab.json + merges.txt) only");
    const bool onlyFastFile = !std::filesystem::exists(dir + "/vocab.json") && !std::filesystem::exists(dir + "/vocab.txt")
                              && std::filesystem::exists(dir + "/tokenizer.json");
    if (onlyFastFile && tc.kind != HfLayoutTokenizerConfig::Kind::Bpe) // issue 46: the Hub's tokenizer.json alone
        throw InferenceError(dir + "/tokenizer.json: a " +
                             std::string(tc.kind == HfLayoutTokenizerConfig::Kind::WordPiece ? "WordPiece" : "Unigram") +
                             " tokenizer; Folio runs " + config.modelType() + " with a byte-level BPE tokenizer only");
    auto tokenizer = std::make_unique<HfLayoutTokenizer>(HfLayoutTokenizer::fromDirectory(dir, tc));
    const long long rows = config.getInt("vocab_size", -1);
    const std::vector<std::string> tokenizerFiles = tokenizer->tokenizer().files();
    if (rows > 0 && tokenizer->tokenizer().vocabSize() > rows)
        throw InferenceError((tokenizerFiles.empty() ? dir : tokenizerFiles.front()) + ": the tokenizer has " +
                             std::to_string(tokenizer->tokenizer().vocabSize()) +
                             " ids but " + config.source() + " says vocab_size " + std::to_string(rows) +
                             ": the tokenizer does not belong to this model");
    return tokenizer;
}

// config.json (its sizes checked against the weights header) of a model type this facade runs.
ModelConfig hfClassifierConfig(const std::string &dir)
{
    const ModelConfig config = ModelConfig::fromDirectory(dir);
    const auto types = HfTokenClassifier::supportedModelTypes();
    if (std::find(types.begin(), types.end(), config.modelType()) == types.end())
        throw InferenceError(config.source() + ": model_type \"" + config.modelType() +
                             "\" is not a token-classification model Folio can run (layoutlmv3, lilt, layoutlmv2)");
    return config;
}

} // namespace detail

std::vector<std::string> HfTokenClassifier::supportedModelTypes()
{
    return {"layoutlmv3", "lilt", "layoutlmv2"};
}

bool HfTokenClassifier::checkFolder(const std::string &dir, std::string *error)
{
    try {
        const ModelConfig config = detail::hfClassifierConfig(dir);
        detail::labelsFromConfig(config);
        detail::hfClassifierTokenizer(dir, config);
        return true;
    } catch (const std::exception &e) {
        if (error) *error = e.what();
        return false;
    }
}

} // namespace folio::inference
