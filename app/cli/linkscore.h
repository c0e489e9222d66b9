#pragma once
// Link scores of a checkpoint's key -> value head on a FUNSD split (cmd_links.cpp), for
// `folio-cli eval --links`: given gold entities and end to end, with the head's cost per page.
#include <nlohmann/json.hpp>

#include <QString>

#include <string>

namespace folio::cli {

nlohmann::json evaluateLinks(const std::string &checkpoint, const QString &dataDir, const std::string &split,
                             const std::string &order);

} // namespace folio::cli
