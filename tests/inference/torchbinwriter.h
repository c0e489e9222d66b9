#pragma once
// pytorch_model.bin files written by the tests themselves (no python): a protocol-2 state-dict
// pickle whose tensors are (storage, offset, size, stride) exactly as given, hostile numbers
// included, and a stored zip around it (optionally with extra directory records that point at an
// entry already listed). Issue 36's cases are generated with these, never stored as blobs.

#include "inference/checkpoint/tensor.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace folio::test {

struct BinTensor
{
    std::string name;
    std::string storageKey = "0";
    std::string storageType = "FloatStorage";
    std::int64_t storageNumel = 0; // as declared in the pickle
    std::int64_t offset = 0;
    std::vector<std::int64_t> size, stride;
};

class StateDictPickle
{
public:
    StateDictPickle() { m_bytes = std::string("\x80\x02}", 3); }

    void add(const BinTensor &t)
    {
        string(t.name);
        m_bytes += "ctorch._utils\n_rebuild_tensor_v2\n((";
        string("storage");
        m_bytes += "ctorch\n" + t.storageType + "\n";
        string(t.storageKey);
        string("cpu");
        integer(t.storageNumel);
        m_bytes += "tQ"; // the persistent id tuple, BINPERSID
        integer(t.offset);
        tuple(t.size);
        tuple(t.stride);
        m_bytes += "\x89)tRs"; // requires_grad False, no hooks; REDUCE; SETITEM
    }
    std::string finish() const { return m_bytes + "."; }

private:
    void string(const std::string &s)
    {
        m_bytes += 'X';
        const std::uint32_t n = std::uint32_t(s.size());
        m_bytes.append(reinterpret_cast<const char *>(&n), 4); // little-endian hosts only (as the reader)
        m_bytes += s;
    }
    void integer(std::int64_t v)
    {
        m_bytes += "\x8a\x08"; // LONG1, 8 bytes two's complement
        m_bytes.append(reinterpret_cast<const char *>(&v), 8);
    }
    void tuple(const std::vector<std::int64_t> &values)
    {
        m_bytes += '(';
        for (std::int64_t v : values)
            integer(v);
        m_bytes += 't';
    }
    std::string m_bytes;
};

// A stored (uncompressed) zip. `aliases`: extra directory records (name, index of an entry) that
// point at that entry's local header.
inline std::string storedZip(const std::vector<std::pair<std::string, std::string>> &entries,
                             const std::vector<std::pair<std::string, std::size_t>> &aliases = {})
{
    const auto crc32 = [](const std::string &data) {
        std::uint32_t c = 0xFFFFFFFFu;
        for (unsigned char b : data) {
            c ^= b;
            for (int k = 0; k < 8; ++k)
                c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
        }
        return ~c;
    };
    const auto le = [](std::string &out, std::uint64_t v, int n) {
        for (int k = 0; k < n; ++k)
            out += char((v >> (8 * k)) & 0xFF);
    };
    std::string out, directory;
    std::vector<std::uint64_t> offsets;
    std::vector<std::uint32_t> crcs;
    for (const auto &[name, data] : entries) {
        offsets.push_back(out.size());
        crcs.push_back(crc32(data));
        le(out, 0x04034b50, 4);
        le(out, 20, 2);
        le(out, 0, 2);
        le(out, 0, 2); // stored
        le(out, 0, 4); // time, date
        le(out, crcs.back(), 4);
        le(out, data.size(), 4);
        le(out, data.size(), 4);
        le(out, name.size(), 2);
        le(out, 0, 2);
        out += name;
        out += data;
    }
    const auto record = [&](const std::string &name, std::size_t entry) {
        le(directory, 0x02014b50, 4);
        le(directory, 20, 2);
        le(directory, 20, 2);
        le(directory, 0, 2);
        le(directory, 0, 2);
        le(directory, 0, 4);
        le(directory, crcs[entry], 4);
        le(directory, entries[entry].second.size(), 4);
        le(directory, entries[entry].second.size(), 4);
        le(directory, name.size(), 2);
        le(directory, 0, 6); // extra, comment, disk
        le(directory, 0, 6); // attributes
        le(directory, offsets[entry], 4);
        directory += name;
    };
    for (std::size_t i = 0; i < entries.size(); ++i)
        record(entries[i].first, i);
    for (const auto &[name, entry] : aliases)
        record(name, entry);
    const std::uint64_t directoryAt = out.size(), count = entries.size() + aliases.size();
    out += directory;
    le(out, 0x06054b50, 4);
    le(out, 0, 4);
    le(out, count, 2);
    le(out, count, 2);
    le(out, directory.size(), 4);
    le(out, directoryAt, 4);
    le(out, 0, 2);
    return out;
}

// A torch.save-like archive: archive/data.pkl, archive/data/<key> for each storage, byteorder.
inline std::string torchBin(const std::string &pickle, const std::vector<std::pair<std::string, std::string>> &storages,
                            const std::vector<std::pair<std::string, std::size_t>> &aliases = {})
{
    std::vector<std::pair<std::string, std::string>> entries{{"archive/data.pkl", pickle}, {"archive/byteorder", "little"}};
    for (const auto &[key, bytes] : storages)
        entries.emplace_back("archive/data/" + key, bytes);
    std::vector<std::pair<std::string, std::size_t>> shifted;
    for (const auto &[name, index] : aliases)
        shifted.emplace_back(name, index + 2); // indices count the storages
    return storedZip(entries, shifted);
}

inline std::string storageTypeOf(inference::DType t)
{
    using inference::DType;
    switch (t) {
    case DType::F64: return "DoubleStorage";
    case DType::F32: return "FloatStorage";
    case DType::F16: return "HalfStorage";
    case DType::BF16: return "BFloat16Storage";
    case DType::I64: return "LongStorage";
    case DType::I32: return "IntStorage";
    case DType::I16: return "ShortStorage";
    case DType::I8: return "CharStorage";
    case DType::U8: return "ByteStorage";
    case DType::Bool: return "BoolStorage";
    }
    return "FloatStorage";
}

// Every tensor of `weights` in its own storage (contiguous), as torch.save would write them;
// `edit(name, tensor)` may change a tensor's numbers before it is written.
template<typename Edit>
std::string torchBinOf(const inference::TensorMap &weights, Edit edit)
{
    StateDictPickle pickle;
    std::vector<std::pair<std::string, std::string>> storages;
    for (const auto &[name, t] : weights) {
        BinTensor b;
        b.name = name;
        b.storageKey = std::to_string(storages.size());
        b.storageType = storageTypeOf(t.dtype);
        b.storageNumel = t.numel();
        b.size = t.shape;
        std::int64_t stride = 1;
        b.stride.assign(t.shape.size(), 0);
        for (std::size_t d = t.shape.size(); d-- > 0;) {
            b.stride[d] = stride;
            stride *= t.shape[d];
        }
        edit(name, b);
        pickle.add(b);
        storages.emplace_back(b.storageKey, std::string(reinterpret_cast<const char *>(t.bytes.data()), t.bytes.size()));
    }
    return torchBin(pickle.finish(), storages);
}

inline bool writeBinary(const std::string &path, const std::string &bytes)
{
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    return bool(out);
}

} // namespace folio::test
