#pragma once
// What HfTokenClassifier::load and checkFolder read before any weight (hfclassifierfolder.cpp, no
// LibTorch): config.json of a type the facade runs, and the folder's tokenizer for that model.

#include <memory>
#include <string>

namespace folio::inference {

class ModelConfig;
class HfLayoutTokenizer;

namespace detail {

// config.json (its sizes checked against the weights header) of a model type HfTokenClassifier runs.
ModelConfig hfClassifierConfig(const std::string &dir);
// The folder's tokenizer, refused when it cannot be this model's (class, files, ids against vocab_size).
std::unique_ptr<HfLayoutTokenizer> hfClassifierTokenizer(const std::string &dir, const ModelConfig &config);

} // namespace detail

} // namespace folio::inference
