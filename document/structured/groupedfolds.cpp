#include "document/structured/groupedfolds.h"

#include <algorithm>
#include <map>

namespace folio::structured {

std::vector<int> groupedFolds(const std::vector<std::string> &groups, int k)
{
    std::map<std::string, std::vector<int>> members;
    for (int i = 0; i < int(groups.size()); ++i)
        members[groups[i]].push_back(i);
    std::vector<std::pair<std::string, std::vector<int>>> order(members.begin(), members.end());
    std::stable_sort(order.begin(), order.end(), [](const auto &a, const auto &b) { return a.second.size() > b.second.size(); });
    std::vector<int> fold(groups.size(), 0), size(std::max(k, 1), 0);
    for (const auto &[name, idx] : order) {
        const int f = int(std::min_element(size.begin(), size.end()) - size.begin());
        for (int i : idx)
            fold[i] = f;
        size[f] += int(idx.size());
    }
    return fold;
}

} // namespace folio::structured
