#pragma once
// Entity-level precision / recall / F1 with seqeval's default semantics (conlleval chunking,
// IOB1/IOB2/IOBES tags, micro average over types, one sequence per page, no cross-page
// entities). Torch-free.

#include <map>
#include <string>
#include <vector>

namespace folio::inference {

struct Chunk
{
    std::string type;
    int begin = 0; // first token index
    int end = 0;   // last token index (inclusive)
    bool operator<(const Chunk &o) const
    {
        return begin != o.begin ? begin < o.begin : end != o.end ? end < o.end : type < o.type;
    }
    bool operator==(const Chunk &o) const { return type == o.type && begin == o.begin && end == o.end; }
};

// The chunks of one tag sequence, as seqeval.metrics.sequence_labeling.get_entities.
std::vector<Chunk> extractChunks(const std::vector<std::string> &tags);

struct ClassScore
{
    long truePositives = 0;
    long predicted = 0;
    long gold = 0; // "support"
    double precision() const { return predicted ? double(truePositives) / double(predicted) : 0.0; }
    double recall() const { return gold ? double(truePositives) / double(gold) : 0.0; }
    double f1() const
    {
        const double p = precision(), r = recall();
        return p + r > 0 ? 2 * p * r / (p + r) : 0.0;
    }
};

class EntityScorer
{
public:
    // Adds one page (gold and predicted tags of equal length; throws InferenceError otherwise).
    void add(const std::vector<std::string> &gold, const std::vector<std::string> &predicted);
    ClassScore micro() const;
    const std::map<std::string, ClassScore> &perClass() const { return m_perClass; }
    // {"precision","recall","f1","support", "classes": {TYPE: {...}}}
    std::string toJson() const;

private:
    std::map<std::string, ClassScore> m_perClass;
};

} // namespace folio::inference
