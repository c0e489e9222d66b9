#include "inference/checkpoint/torchzip.h"

#include "inference/errors.h"
#include "common/regularfile.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace folio::inference {

namespace {

constexpr std::uint64_t kMaxArchive = 64ull << 30; // 64 GiB
constexpr std::uint32_t kEndOfDirectory = 0x06054b50, kZip64End = 0x06064b50, kZip64Locator = 0x07064b50;
constexpr std::uint32_t kCentralHeader = 0x02014b50, kLocalHeader = 0x04034b50;

class Cursor
{
public:
    Cursor(const std::string &bytes, std::uint64_t at, const std::string &path) : m_bytes(bytes), m_at(at), m_path(path) {}
    std::uint64_t le(int n)
    {
        need(std::uint64_t(n));
        std::uint64_t v = 0;
        for (int i = 0; i < n; ++i)
            v |= std::uint64_t(std::uint8_t(m_bytes[std::size_t(m_at + std::uint64_t(i))])) << (8 * i);
        m_at += std::uint64_t(n);
        return v;
    }
    std::string take(std::uint64_t n)
    {
        need(n);
        std::string s = m_bytes.substr(std::size_t(m_at), std::size_t(n));
        m_at += n;
        return s;
    }
    void skip(std::uint64_t n) { need(n); m_at += n; }
    std::uint64_t at() const { return m_at; }

private:
    void need(std::uint64_t n) const
    {
        if (m_at > m_bytes.size() || n > m_bytes.size() - m_at)
            throw InferenceError(m_path + ": truncated zip archive (a record runs past the end of the file)");
    }
    const std::string &m_bytes;
    std::uint64_t m_at;
    const std::string &m_path;
};

} // namespace

StoredZip::StoredZip(const std::string &path) : m_path(path)
{
    // A regular file only, its size from stat (common/regularfile.h; issue 51): a FIFO
    // checkpoint_best.pt blocked open() forever, a link to /dev/zero was read to exhaustion.
    std::string notAFile;
    if (regularFileSize(path, static_cast<long long>(kMaxArchive), "this checkpoint archive", &notAFile) < 0)
        throw InferenceError(notAFile);
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InferenceError(path + ": cannot open");
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size < 22 || std::uint64_t(size) > kMaxArchive)
        throw InferenceError(path + ": not a zip archive (size " + std::to_string(size) + " bytes)");
    in.seekg(0);
    m_bytes.resize(std::size_t(size));
    if (!in.read(&m_bytes[0], size))
        throw InferenceError(path + ": cannot read");

    // The end-of-central-directory record: within the last 64 KiB + 22 bytes (its comment).
    std::uint64_t eocd = std::uint64_t(-1);
    const std::uint64_t lowest = m_bytes.size() > 65557 ? m_bytes.size() - 65557 : 0;
    for (std::uint64_t p = m_bytes.size() - 22;; --p) {
        if (Cursor(m_bytes, p, m_path).le(4) == kEndOfDirectory) {
            eocd = p;
            break;
        }
        if (p == lowest)
            break;
    }
    if (eocd == std::uint64_t(-1))
        throw InferenceError(path + ": not a zip archive (no end of central directory; torch.save writes zip files)");
    Cursor end(m_bytes, eocd + 10, m_path);
    std::uint64_t count = end.le(2);
    end.le(4); // directory size
    std::uint64_t directory = end.le(4);
    if ((count == 0xFFFF || directory == 0xFFFFFFFF) && eocd >= 20) {
        Cursor locator(m_bytes, eocd - 20, m_path);
        if (locator.le(4) == kZip64Locator) {
            locator.le(4);
            Cursor end64(m_bytes, locator.le(8), m_path);
            if (end64.le(4) != kZip64End)
                throw InferenceError(path + ": bad zip64 end of central directory record");
            end64.skip(8 + 2 + 2 + 4 + 4 + 8);
            count = end64.le(8);
            end64.le(8);
            directory = end64.le(8);
        }
    }
    if (count > 1000000)
        throw InferenceError(path + ": zip archive claims " + std::to_string(count) + " entries");
    Cursor c(m_bytes, directory, m_path);
    for (std::uint64_t i = 0; i < count; ++i) {
        if (c.le(4) != kCentralHeader)
            throw InferenceError(path + ": bad zip central directory entry " + std::to_string(i));
        c.skip(4);
        Entry e;
        e.flags = std::uint16_t(c.le(2));
        e.method = std::uint16_t(c.le(2));
        c.skip(8); // time, date, crc
        e.compressedSize = c.le(4);
        e.size = c.le(4);
        const std::uint64_t nameLength = c.le(2), extraLength = c.le(2), commentLength = c.le(2);
        c.skip(8);
        e.localOffset = c.le(4);
        const std::string name = c.take(nameLength);
        Cursor extra(m_bytes, c.at(), m_path);
        c.skip(extraLength + commentLength);
        for (std::uint64_t used = 0; used + 4 <= extraLength;) { // zip64 extended information
            const std::uint64_t id = extra.le(2), length = extra.le(2);
            used += 4 + length;
            if (used > extraLength)
                break;
            if (id != 1) {
                extra.skip(length);
                continue;
            }
            std::uint64_t left = length;
            auto wide = [&](std::uint64_t *field) {
                if (*field == 0xFFFFFFFF && left >= 8) {
                    *field = extra.le(8);
                    left -= 8;
                }
            };
            wide(&e.size);
            wide(&e.compressedSize);
            wide(&e.localOffset);
            extra.skip(left);
        }
        if (!m_entries.emplace(name, e).second)
            throw InferenceError(path + ": zip entry \"" + name + "\" appears twice");
    }
    locateData();
}

// Each entry's local header is read and its data placed; entries whose header-plus-data ranges
// overlap are refused, so that no byte of the file is handed out twice (250 directory records
// naming one 16 MB entry were 250 copies of it before, issue 36).
void StoredZip::locateData()
{
    std::vector<std::pair<std::uint64_t, const std::string *>> starts;
    for (auto &[name, e] : m_entries) {
        Cursor local(m_bytes, e.localOffset, m_path);
        if (local.le(4) != kLocalHeader)
            throw InferenceError(m_path + ": zip entry \"" + name + "\" has no local header");
        local.skip(22);
        const std::uint64_t nameLength = local.le(2), extraLength = local.le(2);
        local.skip(nameLength + extraLength);
        e.dataStart = local.at();
        local.skip(e.compressedSize); // throws when the data run past the end of the file
        starts.emplace_back(e.localOffset, &name);
    }
    std::sort(starts.begin(), starts.end(), [](const auto &a, const auto &b) {
        return a.first != b.first ? a.first < b.first : *a.second < *b.second;
    });
    for (std::size_t i = 1; i < starts.size(); ++i) {
        const Entry &before = m_entries.at(*starts[i - 1].second);
        const std::uint64_t end = before.dataStart + before.compressedSize;
        if (starts[i].first < end)
            throw InferenceError(m_path + ": zip entries \"" + *starts[i - 1].second + "\" and \"" + *starts[i].second +
                                 "\" overlap (bytes " + std::to_string(before.localOffset) + ".." + std::to_string(end) +
                                 " and from " + std::to_string(starts[i].first) +
                                 "); each entry must have its own data, refused");
    }
}

std::vector<std::string> StoredZip::names() const
{
    std::vector<std::string> out;
    for (const auto &kv : m_entries)
        out.push_back(kv.first);
    return out;
}

std::string StoredZip::read(const std::string &name) const
{
    return std::string(view(name));
}

std::string_view StoredZip::view(const std::string &name) const
{
    const auto it = m_entries.find(name);
    if (it == m_entries.end())
        throw InferenceError(m_path + ": no zip entry \"" + name + "\"");
    const Entry &e = it->second;
    if (e.method != 0 || e.size != e.compressedSize)
        throw InferenceError(m_path + ": zip entry \"" + name + "\" is compressed (method " + std::to_string(e.method) +
                             "); torch.save stores entries uncompressed");
    if (e.flags & 1)
        throw InferenceError(m_path + ": zip entry \"" + name + "\" is encrypted");
    return std::string_view(m_bytes).substr(std::size_t(e.dataStart), std::size_t(e.size)); // placed by locateData
}

} // namespace folio::inference
