#pragma once
// config.json of a Hugging Face style checkpoint folder. Torch-free.

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace folio::inference {

class ModelConfig
{
public:
    // Reads `<dir>/config.json`; throws InferenceError naming the file.
    static ModelConfig fromDirectory(const std::string &dir);
    static ModelConfig fromJson(const nlohmann::json &json, const std::string &source = "config.json");

    const std::string &modelType() const { return m_modelType; } // "" when absent
    const std::string &source() const { return m_source; }
    const nlohmann::json &json() const { return m_json; }
    bool has(const std::string &key) const;

    // Typed accessors: fallback when absent or null; throw InferenceError on a wrong type.
    long long getInt(const std::string &key, long long fallback) const;
    double getDouble(const std::string &key, double fallback) const;
    bool getBool(const std::string &key, bool fallback) const;
    std::string getString(const std::string &key, const std::string &fallback) const;
    std::vector<std::string> getStringList(const std::string &key) const;
    int numLabels() const; // num_labels, else size of id2label, else 2

private:
    nlohmann::json m_json;
    std::string m_modelType;
    std::string m_source;
};

} // namespace folio::inference
