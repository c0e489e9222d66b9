#pragma once
// The smallest WebFormer worth training in a test (one layer, hidden 32, a few steps, one thread):
// a real checkpoint in a second or two.

#include "inference/webformer/webformer.h"

#include <string>

namespace folio::test {

inline inference::WebFormerTrainOptions tinyWebFormerOptions(const std::string &outputDir, int maxTextTokens = 64, int epochs = 2,
                                                              int maxSteps = 8)
{
    inference::WebFormerTrainOptions o;
    o.outputDir = outputDir;
    o.model.hidden = 32;
    o.model.layers = 1;
    o.model.heads = 2;
    o.model.intermediate = 64;
    o.model.maxTextTokens = maxTextTokens;
    o.epochs = epochs;
    o.maxSteps = maxSteps;
    o.vocabSize = 300;
    o.threads = 1;
    return o;
}

} // namespace folio::test
