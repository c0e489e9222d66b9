#include "inference/models/wordlabels.h"

namespace folio::inference {

namespace {

// The prefix letter ('B', 'I', 'S', 'E', 'L', 'U') and the entity label; prefix 0 for a label
// without one.
char splitTag(const std::string &tag, std::string *label)
{
    if (tag.size() > 2 && tag[1] == '-') {
        const char p = tag[0];
        if (p == 'B' || p == 'I' || p == 'S' || p == 'E' || p == 'L' || p == 'U') {
            *label = tag.substr(2);
            return p;
        }
    }
    *label = tag;
    return 0;
}

} // namespace

std::vector<PredictedEntity> entitiesFromWordLabels(const std::vector<std::string> &labels,
                                                    const std::vector<float> &confidences)
{
    std::vector<PredictedEntity> out;
    std::vector<double> sums;
    bool open = false; // out.back() may take the next word
    for (int i = 0; i < int(labels.size()); ++i) {
        const std::string &tag = labels[std::size_t(i)];
        const double confidence = std::size_t(i) < confidences.size() ? double(confidences[std::size_t(i)]) : 0.0;
        if (tag.empty() || tag == "O") {
            open = false;
            continue;
        }
        std::string label;
        const char prefix = splitTag(tag, &label);
        const bool continues = open && out.back().label == label && prefix != 'B' && prefix != 'S' && prefix != 'U';
        if (continues) {
            out.back().lastWord = i;
            sums.back() += confidence;
        } else {
            out.push_back(PredictedEntity{label, i, i, 0});
            sums.push_back(confidence);
        }
        open = !(prefix == 'S' || prefix == 'U' || prefix == 'E' || prefix == 'L');
    }
    for (std::size_t k = 0; k < out.size(); ++k)
        out[k].confidence = sums[k] / double(out[k].lastWord - out[k].firstWord + 1);
    return out;
}

} // namespace folio::inference
