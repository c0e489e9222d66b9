#include "inference/training/metrics.h"

#include "inference/errors.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

namespace folio::inference {

namespace {

void splitTag(const std::string &tag, char *prefix, std::string *type)
{
    if (tag.empty() || tag == "O") {
        *prefix = 'O';
        type->clear();
        return;
    }
    const auto dash = tag.find('-');
    if (dash == std::string::npos) {
        // seqeval: a tag without a dash is its own type with prefix = first char; treat as I-tag
        *prefix = tag[0];
        *type = tag.size() > 1 ? tag.substr(1) : std::string();
        return;
    }
    *prefix = tag[0];
    *type = tag.substr(dash + 1);
}

bool endOfChunk(char prev, char cur, const std::string &prevType, const std::string &type)
{
    if (prev == 'E' || prev == 'S') return true;
    if (prev == 'B' && (cur == 'B' || cur == 'S' || cur == 'O')) return true;
    if (prev == 'I' && (cur == 'B' || cur == 'S' || cur == 'O')) return true;
    if (prev != 'O' && prev != '.' && prevType != type) return true;
    return false;
}

bool startOfChunk(char prev, char cur, const std::string &prevType, const std::string &type)
{
    if (cur == 'B' || cur == 'S') return true;
    if (prev == 'E' && (cur == 'E' || cur == 'I')) return true;
    if (prev == 'S' && (cur == 'E' || cur == 'I')) return true;
    if (prev == 'O' && (cur == 'E' || cur == 'I')) return true;
    if (cur != 'O' && cur != '.' && prevType != type) return true;
    return false;
}

} // namespace

std::vector<Chunk> extractChunks(const std::vector<std::string> &tagsIn)
{
    std::vector<std::string> tags = tagsIn;
    tags.push_back("O"); // seqeval appends a sentinel
    std::vector<Chunk> out;
    char prev = 'O';
    std::string prevType;
    int begin = 0;
    for (int i = 0; i < int(tags.size()); ++i) {
        char cur;
        std::string type;
        splitTag(tags[size_t(i)], &cur, &type);
        if (endOfChunk(prev, cur, prevType, type))
            out.push_back(Chunk{prevType, begin, i - 1});
        if (startOfChunk(prev, cur, prevType, type))
            begin = i;
        prev = cur;
        prevType = type;
    }
    return out;
}

void EntityScorer::add(const std::vector<std::string> &gold, const std::vector<std::string> &predicted)
{
    if (gold.size() != predicted.size())
        throw InferenceError("EntityScorer: gold has " + std::to_string(gold.size()) + " tags, prediction " +
                                    std::to_string(predicted.size()));
    const std::vector<Chunk> g = extractChunks(gold), p = extractChunks(predicted);
    const std::set<Chunk> gs(g.begin(), g.end());
    for (const Chunk &c : g)
        ++m_perClass[c.type].gold;
    for (const Chunk &c : p) {
        ClassScore &s = m_perClass[c.type];
        ++s.predicted;
        if (gs.count(c))
            ++s.truePositives;
    }
}

ClassScore EntityScorer::micro() const
{
    ClassScore m;
    for (const auto &kv : m_perClass) {
        m.truePositives += kv.second.truePositives;
        m.predicted += kv.second.predicted;
        m.gold += kv.second.gold;
    }
    return m;
}

std::string EntityScorer::toJson() const
{
    auto one = [](const ClassScore &s) {
        return nlohmann::json{{"precision", s.precision()}, {"recall", s.recall()}, {"f1", s.f1()},
                              {"support", s.gold}, {"predicted", s.predicted}, {"correct", s.truePositives}};
    };
    nlohmann::json j = one(micro());
    nlohmann::json classes = nlohmann::json::object();
    for (const auto &kv : m_perClass)
        classes[kv.first] = one(kv.second);
    j["classes"] = classes;
    return j.dump();
}

} // namespace folio::inference
