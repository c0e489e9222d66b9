#include "inference/layers/buckets.h"

#include "inference/errors.h"

#include <cmath>
#include <map>
#include <string>

namespace folio::inference {

int t5Bucket(std::int64_t r, int numBuckets, int maxDistance)
{
    const int half = numBuckets / 2;
    const int offset = r > 0 ? half : 0;
    const std::int64_t n = r < 0 ? -r : r;
    const int exact = half / 2;
    if (n < exact)
        return offset + static_cast<int>(n);
    // float32 like the reference: log(n / exact) / log(max / exact) * (half - exact), truncated.
    const float ratio = static_cast<float>(n) / static_cast<float>(exact);
    const float denom = static_cast<float>(std::log(static_cast<double>(maxDistance) / exact));
    const float scaled = std::log(ratio) / denom * static_cast<float>(half - exact);
    std::int64_t large = exact + static_cast<std::int64_t>(scaled);
    if (large > half - 1)
        large = half - 1;
    return offset + static_cast<int>(large);
}

std::vector<std::int64_t> t5BucketLut(int numBuckets, int maxDistance, std::int64_t range)
{
    std::vector<std::int64_t> lut(static_cast<std::size_t>(2 * range + 1));
    for (std::int64_t r = -range; r <= range; ++r)
        lut[static_cast<std::size_t>(r + range)] = t5Bucket(r, numBuckets, maxDistance);
    return lut;
}

std::int64_t debertaLogBucket(std::int64_t r, int bucketSize, int maxPosition)
{
    const std::int64_t mid = bucketSize / 2;
    const std::int64_t a = r < 0 ? -r : r;
    if (a <= mid)
        return r;
    const float ratio = static_cast<float>(a) / static_cast<float>(mid);
    const float denom = std::log(static_cast<float>(static_cast<double>(maxPosition - 1) / mid));
    const float v = std::ceil(std::log(ratio) / denom * static_cast<float>(mid - 1)) + static_cast<float>(mid);
    const std::int64_t b = static_cast<std::int64_t>(v);
    return r < 0 ? -b : b;
}

const std::vector<std::pair<int, int>> &hibridsHier2Index()
{
    static const std::vector<std::pair<int, int>> table = [] {
        std::vector<std::pair<int, int>> t;
        for (int p = 0; p < 20; ++p) {
            for (int l = p % 2; l <= p; l += 2) {
                t.emplace_back(p, l);
                if (p != 0)
                    t.emplace_back(-p, l);
                if (l != 0)
                    t.emplace_back(p, -l);
                if (p != 0 && l != 0)
                    t.emplace_back(-p, -l);
            }
        }
        return t;
    }();
    return table;
}

int hibridsIndexOf(int pathLen, int lvlDiff)
{
    static const std::map<std::pair<int, int>, int> lookup = [] {
        std::map<std::pair<int, int>, int> m;
        const auto &t = hibridsHier2Index();
        for (std::size_t i = 0; i < t.size(); ++i)
            m.emplace(t[i], static_cast<int>(i));
        return m;
    }();
    auto it = lookup.find({pathLen, lvlDiff});
    return it == lookup.end() ? -1 : it->second;
}

std::vector<int> hibridsSectionDepths(const std::vector<std::int64_t> &parents)
{
    const std::size_t s = parents.size();
    std::vector<int> depth(s, -1);
    for (std::size_t i = 0; i < s; ++i) {
        const std::int64_t p = parents[i];
        if (p < -1 || p >= static_cast<std::int64_t>(i))
            throw InferenceError("HIBRIDS: section " + std::to_string(i) + " has parent " + std::to_string(p)
                                 + " (parents must precede their children)");
        depth[i] = p < 0 ? 0 : depth[static_cast<std::size_t>(p)] + 1;
    }
    return depth;
}

std::vector<std::int32_t> hibridsSectionIndex(const std::vector<std::int64_t> &parents)
{
    const std::size_t s = parents.size();
    const std::vector<int> depth = hibridsSectionDepths(parents);
    std::vector<std::int32_t> index(s * s, 0);
    for (std::size_t a = 0; a < s; ++a) {
        for (std::size_t b = a + 1; b < s; ++b) {
            // Walk both up to the lowest common ancestor (virtual root = -1 at depth -1).
            std::int64_t x = static_cast<std::int64_t>(a), y = static_cast<std::int64_t>(b);
            int dx = depth[a], dy = depth[b], up = 0, down = 0;
            while (dx > dy) { x = parents[static_cast<std::size_t>(x)]; --dx; ++up; }
            while (dy > dx) { y = parents[static_cast<std::size_t>(y)]; --dy; ++down; }
            while (x != y) {
                x = x < 0 ? -1 : parents[static_cast<std::size_t>(x)];
                y = y < 0 ? -1 : parents[static_cast<std::size_t>(y)];
                ++up;
                ++down;
            }
            const int pathLen = up + down, lvlDiff = down - up;
            const int fwd = hibridsIndexOf(pathLen, lvlDiff), bwd = hibridsIndexOf(-pathLen, -lvlDiff);
            if (fwd < 0 || bwd < 0)
                throw InferenceError("HIBRIDS: sections " + std::to_string(a) + " and " + std::to_string(b)
                                     + " are at path length " + std::to_string(pathLen)
                                     + " (the 419-entry table supports |PathLen| < 20)");
            index[a * s + b] = fwd;
            index[b * s + a] = bwd;
        }
    }
    return index;
}

} // namespace folio::inference
