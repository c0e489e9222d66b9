// The state dict's tensor references (storage, offset, size, stride) checked and copied out
// (issue 36). Two passes: every number of every tensor is checked with overflow-safe arithmetic
// and the bytes all tensors need are added up and held against the limit; only then is anything
// allocated.
#include "inference/checkpoint/detail/picklevalue.h"

#include "inference/errors.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

namespace folio::inference::detail {

namespace {

constexpr std::size_t kMaxDims = 16;

bool mulChecked(std::uint64_t a, std::uint64_t b, std::uint64_t *out)
{
    return !__builtin_mul_overflow(a, b, out);
}

bool addChecked(std::uint64_t a, std::uint64_t b, std::uint64_t *out)
{
    return !__builtin_add_overflow(a, b, out);
}

struct Plan
{
    std::string name;
    DType dtype = DType::F32;
    const char *data = nullptr; // the storage's first byte
    std::uint64_t offset = 0, numel = 0, bytes = 0;
    std::vector<std::int64_t> shape, stride;
};

class Planner
{
public:
    Planner(const std::string &source, const StorageBytes &storage) : m_source(source), m_storage(storage) {}

    Plan plan(const std::string &name, const PickleValue &ref)
    {
        const auto fail = [&](const std::string &why) {
            throw InferenceError(m_source + ": tensor '" + name + "': " + why + "; refused");
        };
        const PickleValue &st = *ref.items[0];
        const std::string storageName = "storage '" + st.s + "'";
        Plan p;
        p.name = name;
        p.dtype = st.dtype;
        const std::uint64_t elem = dtypeSize(st.dtype), storageNumel = std::uint64_t(st.i); // i >= 0 (the reader)
        std::uint64_t declared = 0;
        if (!mulChecked(storageNumel, elem, &declared))
            fail(storageName + " declares " + std::to_string(storageNumel) + " elements, more bytes than 64 bits count");
        const std::string_view data = bytesOf(st.s);
        if (declared > data.size())
            fail(storageName + " declares " + std::to_string(storageNumel) + " elements (" + std::to_string(declared) +
                 " bytes) but its entry holds " + std::to_string(data.size()) + " bytes");
        std::uint64_t &largest = m_storageBytes[st.s];
        largest = std::max(largest, declared);
        p.data = data.data();

        const std::int64_t offset = ref.items[1]->i;
        const auto &sizes = ref.items[2]->items, &strides = ref.items[3]->items;
        if (offset < 0)
            fail("negative storage offset " + std::to_string(offset));
        if (sizes.size() > kMaxDims)
            fail(std::to_string(sizes.size()) + " dimensions, more than " + std::to_string(kMaxDims));
        p.offset = std::uint64_t(offset);
        std::uint64_t numel = 1, extent = 0;
        bool empty = false;
        for (std::size_t d = 0; d < sizes.size(); ++d) {
            const std::int64_t n = sizes[d]->i, s = strides[d]->i;
            if (n < 0 || s < 0)
                fail("size " + std::to_string(n) + " / stride " + std::to_string(s) + " in dimension " + std::to_string(d) +
                     " is negative");
            p.shape.push_back(n);
            p.stride.push_back(s);
            empty = empty || n == 0;
        }
        if (!empty) {
            for (std::size_t d = 0; d < p.shape.size(); ++d) {
                const std::uint64_t n = std::uint64_t(p.shape[d]), s = std::uint64_t(p.stride[d]);
                std::uint64_t reach = 0;
                if (!mulChecked(numel, n, &numel))
                    fail("its element count " + shapeString(p.shape) + " overflows 64 bits");
                if (!mulChecked(n - 1, s, &reach) || !addChecked(extent, reach, &extent))
                    fail("its extent (sizes " + shapeString(p.shape) + ", strides " + shapeString(p.stride) +
                         ") overflows 64 bits");
            }
            std::uint64_t last = 0;
            if (!addChecked(p.offset, extent, &last) || last >= storageNumel)
                fail("offset " + std::to_string(p.offset) + " + extent " + std::to_string(extent) +
                     " reaches past its storage '" + st.s + "' of " + std::to_string(storageNumel) + " elements");
        }
        p.numel = empty ? 0 : numel;
        if (!mulChecked(p.numel, elem, &p.bytes))
            fail(std::to_string(p.numel) + " elements are more bytes than 64 bits count");
        return p;
    }

    // kMaterialiseFactor x the bytes the distinct storages declare + kMaterialiseSlack.
    std::uint64_t limit(std::uint64_t *storageBytes) const
    {
        std::uint64_t sum = 0;
        for (const auto &kv : m_storageBytes)
            sum += kv.second; // each <= its zip entry; entries never overlap, so the sum <= the file
        *storageBytes = sum;
        std::uint64_t scaled = 0;
        if (!mulChecked(sum, kMaterialiseFactor, &scaled) || !addChecked(scaled, kMaterialiseSlack, &scaled))
            return ~std::uint64_t(0);
        return scaled;
    }

private:
    std::string_view bytesOf(const std::string &key)
    {
        auto it = m_views.find(key);
        if (it == m_views.end())
            it = m_views.emplace(key, m_storage(key)).first;
        return it->second;
    }

    const std::string &m_source;
    const StorageBytes &m_storage;
    std::map<std::string, std::string_view> m_views;
    std::map<std::string, std::uint64_t> m_storageBytes;
};

// Copies a checked plan: one memcpy when the strides are row-major, else element by element.
Tensor copyOut(const Plan &p)
{
    Tensor t;
    t.dtype = p.dtype;
    t.shape = p.shape;
    t.bytes.resize(std::size_t(p.bytes));
    if (p.numel == 0)
        return t;
    const std::size_t elem = dtypeSize(p.dtype), dims = p.shape.size();
    bool rowMajor = true;
    std::int64_t expected = 1;
    for (std::size_t d = dims; d-- > 0;) {
        if (p.shape[d] != 1 && p.stride[d] != expected)
            rowMajor = false;
        expected *= p.shape[d];
    }
    const char *base = p.data + p.offset * elem;
    if (rowMajor) {
        std::memcpy(t.bytes.data(), base, std::size_t(p.bytes));
        return t;
    }
    std::vector<std::int64_t> index(dims, 0);
    std::uint64_t src = 0; // elements from base; <= the extent checked by the plan
    for (std::uint64_t k = 0; k < p.numel; ++k) {
        std::memcpy(t.bytes.data() + std::size_t(k) * elem, base + std::size_t(src) * elem, elem);
        for (std::size_t d = dims; d-- > 0;) {
            if (++index[d] < p.shape[d]) {
                src += std::uint64_t(p.stride[d]);
                break;
            }
            src -= std::uint64_t(p.stride[d]) * std::uint64_t(p.shape[d] - 1);
            index[d] = 0;
        }
    }
    return t;
}

// Every tensor's plan, checked, and the bytes they need together against the limit.
std::vector<Plan> planStateDict(const PickleValue &root, const std::string &source, Planner &planner)
{
    std::vector<Plan> plans;
    std::set<std::string> seen;
    for (const auto &[k, v] : root.dict) {
        if (k->kind != PickleValue::String)
            throw InferenceError(source + ": a state dict key is not a string");
        if (v->kind != PickleValue::TensorRef)
            throw InferenceError(source + ": state dict entry \"" + k->s + "\" is not a tensor");
        if (!seen.insert(k->s).second)
            throw InferenceError(source + ": state dict key \"" + k->s + "\" appears twice; refused");
        plans.push_back(planner.plan(k->s, *v));
    }
    if (plans.empty())
        throw InferenceError(source + ": the state dict holds no tensors");

    std::uint64_t storageBytes = 0, total = 0;
    const std::uint64_t limit = planner.limit(&storageBytes);
    for (const Plan &p : plans) {
        if (!addChecked(total, p.bytes, &total) || total > limit)
            throw InferenceError(source + ": tensor '" + p.name + "' (" + std::to_string(p.bytes) +
                                 " bytes) takes the state dict's tensors past " + std::to_string(limit) +
                                 " bytes, the limit for this file (" + std::to_string(kMaterialiseFactor) + " x its " +
                                 std::to_string(storageBytes) + " bytes of storages + " +
                                 std::to_string(kMaterialiseSlack >> 20) + " MiB); refused before allocating");
    }
    return plans;
}

} // namespace

void checkStateDict(const PickleValue &root, const std::string &source, const StorageBytes &storage)
{
    Planner planner(source, storage);
    planStateDict(root, source, planner);
}

TensorMap materialiseStateDict(const PickleValue &root, const std::string &source, const StorageBytes &storage)
{
    Planner planner(source, storage);
    const std::vector<Plan> plans = planStateDict(root, source, planner);
    TensorMap out;
    for (const Plan &p : plans)
        out.emplace(p.name, copyOut(p));
    return out;
}

} // namespace folio::inference::detail
