#pragma once
// The seq2seq training loop as folio-cli runs it (qs train, qs train-questions): Ctrl-C cancels
// between steps, progress on stderr every `logEvery` steps and at each dev evaluation, a failure
// becomes a CliError naming the output folder.
#include "inference/qs/qstrain.h"

#include <string>
#include <vector>

namespace folio::cli {

inference::QsTrainResult runQsTraining(const std::string &commandName, const std::vector<inference::QsTrainExample> &train,
                                       const std::vector<inference::QsTrainExample> &dev, const inference::QsTrainOptions &options,
                                       const std::string &outDir, long logEvery);

} // namespace folio::cli
