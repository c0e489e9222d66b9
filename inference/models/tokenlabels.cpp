#include "inference/models/detail/tokenlabels.h"

#include "inference/errors.h"

#include <cmath>

namespace folio::inference::detail {

std::vector<std::string> labelsFromConfig(const ModelConfig &config)
{
    const nlohmann::json &j = config.json();
    const auto it = j.find("id2label");
    if (it == j.end() || !it->is_object() || it->empty())
        throw InferenceError(config.source() + ": no id2label (a token-classification checkpoint names its labels)");
    std::vector<std::string> labels(it->size());
    for (auto e = it->begin(); e != it->end(); ++e) {
        std::size_t used = 0;
        long id = -1;
        try {
            id = std::stol(e.key(), &used);
        } catch (const std::exception &) {
        }
        if (used != e.key().size() || id < 0 || id >= long(labels.size()) || !e.value().is_string())
            throw InferenceError(config.source() + ": id2label key \"" + e.key() +
                                 "\" is not an id in 0.." + std::to_string(labels.size() - 1) + " with a label text");
        labels[std::size_t(id)] = e.value().get<std::string>();
    }
    return labels;
}

WordLabel labelAt(const Tensor &logits, std::int64_t position, const std::vector<std::string> &labels)
{
    const std::int64_t numLabels = logits.shape.back();
    const float *row = logits.data<float>() + position * numLabels;
    WordLabel w;
    int best = 0, second = -1;
    for (int k = 1; k < int(numLabels); ++k) {
        if (row[k] > row[best]) {
            second = best;
            best = k;
        } else if (second < 0 || row[k] > row[second]) {
            second = k;
        }
    }
    double z = 0;
    for (int k = 0; k < int(numLabels); ++k)
        z += std::exp(double(row[k] - row[best]));
    w.labelId = best;
    w.label = labels[std::size_t(best)];
    w.confidence = float(1.0 / z);
    w.margin = second < 0 ? 0.f : row[best] - row[second];
    return w;
}

} // namespace folio::inference::detail
