#pragma once
// A bounded reader for the zip archives torch.save writes (pytorch_model.bin): the central
// directory (zip64 records included) and stored (uncompressed) entries. Compressed, encrypted or
// out-of-range entries are refused with an InferenceError naming the file and the entry, and so
// are entries whose data overlap (two directory records naming the same bytes, issue 36): the
// entries' sizes add up to at most the file's size. Torch-free; the whole archive is read into
// memory once (checkpoints are read once) and entries are handed out as views of it.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace folio::inference {

class StoredZip
{
public:
    // Reads and indexes `path`; throws InferenceError naming it when it is not a readable zip.
    explicit StoredZip(const std::string &path);

    const std::string &path() const { return m_path; }
    std::vector<std::string> names() const;
    bool has(const std::string &name) const { return m_entries.count(name) > 0; }
    // The entry's bytes (a stored entry); throws InferenceError naming the file and the entry.
    std::string read(const std::string &name) const;
    // The same bytes without a copy; valid while this StoredZip lives.
    std::string_view view(const std::string &name) const;

private:
    struct Entry
    {
        std::uint64_t localOffset = 0, size = 0, compressedSize = 0;
        std::uint64_t dataStart = 0; // after the local header
        std::uint16_t method = 0, flags = 0;
    };
    std::string m_path;
    std::string m_bytes;
    std::map<std::string, Entry> m_entries;

    void locateData();
};

} // namespace folio::inference
