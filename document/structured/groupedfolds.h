#pragma once
// Cross-validation folds that keep a group (a site) together.

#include <string>
#include <vector>

namespace folio::structured {

// Fold of each item (0..k-1), all items of a group in one fold; groups placed largest first on the
// fold with the fewest items (ties: lowest fold), so folds are balanced and deterministic.
std::vector<int> groupedFolds(const std::vector<std::string> &groups, int k);

} // namespace folio::structured
