#pragma once
// Sliding windows of whole units (a page's words, a web page's nodes) for a model that takes at most
// `budget` tokens: each window takes as many units as fit from its start; the next one starts up to a
// quarter of the budget before the previous end (at least one unit later), so a unit keeps some
// context on both sides; a unit longer than the budget stands alone (the encoder truncates it). Each
// unit is owned, labelled and read back, by exactly one window: the first that reaches it.

#include <cstddef>
#include <vector>

namespace folio::pipeline {

struct UnitWindow
{
    std::size_t begin = 0; // the first unit the window reads (context from the window before included)
    std::size_t owned = 0; // the first unit it owns; [begin, owned) were owned by an earlier window
    std::size_t end = 0;   // one past its last unit
};

// `tokens[i]` is unit i's token count.
inline std::vector<UnitWindow> planUnitWindows(const std::vector<int> &tokens, int budget)
{
    std::vector<UnitWindow> out;
    const std::size_t n = tokens.size();
    std::size_t begin = 0, owned = 0;
    while (n > 0) {
        std::size_t end = begin;
        int used = 0;
        while (end < n && used + tokens[end] <= budget)
            used += tokens[end++];
        if (end == begin && end < n)
            ++end; // a unit longer than a window: alone
        if (end <= owned) {
            begin = owned; // the shared context left no room for a unit of its own
            continue;
        }
        out.push_back({begin, owned, end});
        owned = end;
        if (end >= n)
            break;
        std::size_t next = end;
        int shared = 0;
        while (next > begin + 1 && shared + tokens[next - 1] <= budget / 4)
            shared += tokens[--next];
        begin = next;
    }
    return out;
}

} // namespace folio::pipeline
