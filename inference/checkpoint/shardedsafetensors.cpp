#include "inference/checkpoint/shardedsafetensors.h"

#include "inference/errors.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace folio::inference {

namespace {

namespace fs = std::filesystem;

constexpr std::uintmax_t kMaxIndexBytes = 64ull << 20;
constexpr std::size_t kMaxTensors = 1000000, kMaxShards = 10000;

[[noreturn]] void fail(const std::string &path, const std::string &what)
{
    throw InferenceError(path + ": " + what);
}

// A shard name that stays inside the checkpoint folder: relative, no '..' / '.' / empty segment,
// no backslash or control character, *.safetensors.
std::string shardNameProblem(const std::string &name)
{
    if (name.empty() || name.size() > 1024)
        return "an empty or over-long shard file name";
    if (name.front() == '/')
        return "shard '" + name + "' is an absolute path, outside the checkpoint folder";
    for (const unsigned char c : name)
        if (c < 0x20 || c == 0x7f)
            return "a shard file name holds a control character";
    if (name.find('\\') != std::string::npos)
        return "shard '" + name + "' holds a backslash";
    std::stringstream parts(name);
    std::string segment;
    while (std::getline(parts, segment, '/'))
        if (segment.empty() || segment == "." || segment == "..")
            return "shard '" + name + "' names a file outside the checkpoint folder";
    if (name.back() == '/')
        return "shard '" + name + "' is a folder name";
    const std::string suffix = ".safetensors";
    if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
        return "shard '" + name + "' is not a .safetensors file";
    return {};
}

} // namespace

bool hasSafetensorsIndex(const std::string &dir)
{
    std::error_code ec;
    return fs::exists(fs::path(dir) / kSafetensorsIndexFile, ec);
}

ShardedSafetensors::ShardedSafetensors(const std::string &dir)
    : m_indexPath((fs::path(dir) / kSafetensorsIndexFile).string())
{
    using nlohmann::json;
    std::error_code ec;
    if (!fs::is_regular_file(m_indexPath, ec))
        fail(m_indexPath, fs::exists(m_indexPath, ec) ? "not a regular file" : "missing");
    const std::uintmax_t size = fs::file_size(m_indexPath, ec);
    if (ec || size > kMaxIndexBytes)
        fail(m_indexPath, ec ? "cannot read its size" : "larger than 64 MB");
    std::ifstream in(m_indexPath, std::ios::binary);
    if (!in)
        fail(m_indexPath, "cannot open");
    std::string text(static_cast<std::size_t>(size), '\0');
    in.read(text.data(), static_cast<std::streamsize>(size));
    if (static_cast<std::uintmax_t>(in.gcount()) != size)
        fail(m_indexPath, "cannot read");

    // Keys of "weight_map" are checked while parsing: a JSON object keeps only the last of two equal
    // keys, which would hide a tensor named twice.
    std::string topKey;
    std::set<std::string> mapped;
    json j;
    try {
        const json::parser_callback_t check = [&](int depth, json::parse_event_t event, json &parsed) {
            if (depth > 16)
                fail(m_indexPath, "JSON nested deeper than 16");
            if (event == json::parse_event_t::key && parsed.is_string()) {
                if (depth == 1)
                    topKey = parsed.get<std::string>();
                else if (depth == 2 && topKey == "weight_map" && !mapped.insert(parsed.get<std::string>()).second)
                    fail(m_indexPath, "tensor '" + parsed.get<std::string>() + "' is named twice in weight_map");
            }
            return true;
        };
        j = json::parse(text, check);
    } catch (const json::exception &e) {
        fail(m_indexPath, std::string("not valid JSON: ") + e.what());
    }
    if (!j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object())
        fail(m_indexPath, "no 'weight_map' object (tensor name -> shard file)");
    const json &map = j["weight_map"];
    if (map.empty())
        fail(m_indexPath, "'weight_map' names no tensor");
    if (map.size() > kMaxTensors)
        fail(m_indexPath, "'weight_map' names " + std::to_string(map.size()) + " tensors (at most 1000000)");

    std::map<std::string, std::string> weightMap;
    std::map<std::string, std::size_t> shardIndex;
    for (auto it = map.begin(); it != map.end(); ++it) {
        if (!it.value().is_string())
            fail(m_indexPath, "tensor '" + it.key() + "': the shard is not a file name string");
        const std::string shard = it.value().get<std::string>();
        const std::string problem = shardNameProblem(shard);
        if (!problem.empty())
            fail(m_indexPath, "tensor '" + it.key() + "': " + problem);
        weightMap[it.key()] = shard;
        if (!shardIndex.count(shard)) {
            if (shardIndex.size() >= kMaxShards)
                fail(m_indexPath, "more than 10000 shard files");
            shardIndex[shard] = m_shardNames.size();
            m_shardNames.push_back(shard);
        }
    }

    for (const std::string &shard : m_shardNames) {
        const std::string path = (fs::path(dir) / shard).string();
        if (!fs::exists(path, ec)) {
            std::string example;
            for (const auto &[tensor, s] : weightMap)
                if (s == shard) {
                    example = tensor;
                    break;
                }
            fail(m_indexPath, "shard '" + shard + "' is missing (" + path + "; it holds '" + example + "', among others)");
        }
        m_files.push_back(std::make_unique<SafetensorsFile>(path)); // validates the shard's header
        const std::size_t index = m_files.size() - 1;
        for (const std::string &name : m_files.back()->names()) {
            const auto seen = m_where.find(name);
            if (seen != m_where.end())
                fail(m_indexPath, "tensor '" + name + "' is held by two shards, '" + m_shardNames[seen->second] + "' and '" + shard + "'");
            m_where[name] = index;
        }
    }
    for (const auto &[tensor, shard] : weightMap) {
        const auto it = m_where.find(tensor);
        if (it == m_where.end() || m_shardNames[it->second] != shard)
            fail(m_indexPath, "tensor '" + tensor + "': weight_map puts it in '" + shard + "', which does not hold it");
    }
}

ShardedSafetensors::~ShardedSafetensors() = default;

std::vector<std::string> ShardedSafetensors::names() const
{
    std::vector<std::string> out;
    out.reserve(m_where.size());
    for (const auto &kv : m_where)
        out.push_back(kv.first);
    return out;
}

const TensorView &ShardedSafetensors::view(const std::string &name) const
{
    const auto it = m_where.find(name);
    if (it == m_where.end())
        fail(m_indexPath, "tensor '" + name + "' is in no shard");
    return m_files[it->second]->view(name);
}

std::string ShardedSafetensors::shardPath(const std::string &name) const
{
    const auto it = m_where.find(name);
    return it == m_where.end() ? std::string() : m_files[it->second]->path();
}

} // namespace folio::inference
