#pragma once
// Plain timers shared by the benchmarks: a monotonic clock in seconds and the median of repeats.
#include <algorithm>
#include <chrono>
#include <vector>

namespace folio::bench {

inline double seconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The middle value (the upper one of an even count); 0 for none.
inline double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace folio::bench
