#pragma once
// Integer bucket functions shared by the bias modules (MODELS.md §0, §3.2, §5.4). Torch-free,
// evaluated once into lookup tables; never casts -inf to an integer.

#include <cstdint>
#include <utility>
#include <vector>

namespace folio::inference {

// T5 / Mesh-TF bidirectional bucket of a relative distance r = pos[key] - pos[query]
// (MODELS.md §0). `numBuckets` is the total count (32 for 1-D, 64 for 2-D).
int t5Bucket(std::int64_t r, int numBuckets, int maxDistance);

// LUT over r in [-range, range]: lut[r + range] = t5Bucket(r, ...). Size 2*range+1.
std::vector<std::int64_t> t5BucketLut(int numBuckets, int maxDistance, std::int64_t range);

// DeBERTa-v2 log bucket of r = query - key (MODELS.md §3.2), float32 like the reference.
// Can exceed bucketSize-1 in magnitude; callers clamp when indexing.
std::int64_t debertaLogBucket(std::int64_t r, int bucketSize, int maxPosition);

// HIBRIDS (PathLen, LvlDiff) pairs in table order: 419 entries, index 0 = (0, 0) (MODELS.md §5.4).
const std::vector<std::pair<int, int>> &hibridsHier2Index();
// Row of the table for (pathLen, lvlDiff), or -1 when the pair is not valid (|pathLen| >= 20 ...).
int hibridsIndexOf(int pathLen, int lvlDiff);

// Section-granular HIBRIDS index: `parents[s]` = parent section (-1 = top level, under a virtual
// root), sections in document (pre-)order. Returns the S x S row-major table of row indices
// (query section, key section). Throws InferenceError for |PathLen| >= 20 or bad parents.
std::vector<std::int32_t> hibridsSectionIndex(const std::vector<std::int64_t> &parents);

// Tree depth of each section (0 = top level).
std::vector<int> hibridsSectionDepths(const std::vector<std::int64_t> &parents);

} // namespace folio::inference
