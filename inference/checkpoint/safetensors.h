#pragma once
// Safetensors I/O (https://huggingface.co/docs/safetensors): an 8-byte little-endian header
// length N, N bytes of JSON {name: {dtype, shape, data_offsets:[begin,end]}, "__metadata__": {...}},
// then the raw data. The reader memory-maps the file and validates every entry before use;
// every error names the file and, where there is one, the tensor. Torch-free.

#include "inference/checkpoint/tensor.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace folio::inference {

// Borrowed view into a mapped file; valid while its SafetensorsFile lives.
struct TensorView
{
    DType dtype = DType::F32;
    std::vector<std::int64_t> shape;
    const std::uint8_t *data = nullptr;
    std::size_t byteSize = 0;
};

class SafetensorsFile
{
public:
    static constexpr std::uint64_t kMaxHeaderBytes = 100ull * 1024 * 1024; // 100 MB

    // Opens and validates; throws InferenceError naming the file (and tensor).
    explicit SafetensorsFile(const std::string &path);
    ~SafetensorsFile();
    SafetensorsFile(const SafetensorsFile &) = delete;
    SafetensorsFile &operator=(const SafetensorsFile &) = delete;

    // Validates an in-memory image (used by the fuzzer and by open()); `label` names it in errors.
    // On success fills `entries` with views pointing into `bytes`.
    static void parse(const std::uint8_t *bytes, std::size_t size, const std::string &label,
                      std::map<std::string, TensorView> *entries,
                      std::map<std::string, std::string> *metadata);

    const std::string &path() const { return m_path; }
    std::vector<std::string> names() const;
    bool contains(const std::string &name) const { return m_entries.count(name) != 0; }
    const TensorView &view(const std::string &name) const; // throws if absent
    Tensor tensor(const std::string &name) const;          // owned copy
    TensorMap readAll() const;
    const std::map<std::string, std::string> &metadata() const { return m_metadata; }

private:
    std::string m_path;
    struct Mapping;
    std::unique_ptr<Mapping> m_mapping;
    std::map<std::string, TensorView> m_entries;
    std::map<std::string, std::string> m_metadata;
};

// Reads a whole file into owned tensors.
TensorMap readSafetensors(const std::string &path);

// Writes atomically (temporary file in the same folder, then rename). Throws InferenceError.
void writeSafetensors(const std::string &path, const TensorMap &tensors,
                      const std::map<std::string, std::string> &metadata = {});

} // namespace folio::inference
