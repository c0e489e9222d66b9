#include "inference/checkpoint/detail/jsonfile.h"

#include "inference/errors.h"

#include <filesystem>
#include <fstream>

namespace folio::inference::detail {

nlohmann::json readJsonFile(const std::string &path)
{
    std::ifstream in(path);
    if (!in)
        throw InferenceError(path + ": cannot open");
    try {
        return nlohmann::json::parse(in);
    } catch (const std::exception &e) {
        throw InferenceError(path + ": invalid JSON: " + e.what());
    }
}

void writeTextFile(const std::string &path, const std::string &text)
{
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            throw InferenceError(path + ": cannot write");
        out << text;
        if (!out)
            throw InferenceError(path + ": write failed");
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec)
        throw InferenceError(path + ": cannot replace: " + ec.message());
}

} // namespace folio::inference::detail
