#include "inference/checkpoint/safetensors.h"

#include "inference/errors.h"
#include "common/regularfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <limits>

namespace folio::inference {

namespace {

[[noreturn]] void fail(const std::string &label, const std::string &what)
{
    throw InferenceError(label + ": " + what);
}

[[noreturn]] void failTensor(const std::string &label, const std::string &tensor, const std::string &what)
{
    throw InferenceError(label + ": tensor '" + tensor + "': " + what);
}

std::uint64_t readLe64(const std::uint8_t *p)
{
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | p[i];
    return v;
}

} // namespace

struct SafetensorsFile::Mapping
{
    QFile file;
    uchar *data = nullptr;
    qint64 size = 0;
};

void SafetensorsFile::parse(const std::uint8_t *bytes, std::size_t size, const std::string &label,
                            std::map<std::string, TensorView> *entries,
                            std::map<std::string, std::string> *metadata)
{
    if (size < 8)
        fail(label, "file too short for a safetensors header (" + std::to_string(size) + " bytes)");
    const std::uint64_t headerLen = readLe64(bytes);
    if (headerLen > kMaxHeaderBytes)
        fail(label, "header length " + std::to_string(headerLen) + " exceeds the 100 MB limit");
    if (headerLen > size - 8)
        fail(label, "header length " + std::to_string(headerLen) + " runs past the end of the file ("
                        + std::to_string(size) + " bytes)");
    const std::uint8_t *dataStart = bytes + 8 + headerLen;
    const std::uint64_t dataSize = size - 8 - headerLen;

    // Values counted while the header is parsed (issue 51): a tensor takes about 8, so 8 M values are
    // a million tensors; 100 MB of "[0,0,..." would otherwise build 50 M values (~1.6 GB) before the
    // first check. Nesting is bounded too (an entry is 3 levels deep).
    constexpr std::size_t kMaxHeaderValues = std::size_t(1) << 23;
    constexpr int kMaxHeaderDepth = 8;
    std::size_t values = 0;
    std::string limitHit;
    const nlohmann::json::parser_callback_t bounded = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json &) {
        using Event = nlohmann::json::parse_event_t;
        if ((event == Event::object_start || event == Event::array_start) && depth >= kMaxHeaderDepth)
            limitHit = "header nests deeper than " + std::to_string(kMaxHeaderDepth) + " levels";
        else if ((event == Event::object_start || event == Event::array_start || event == Event::value)
                 && ++values > kMaxHeaderValues)
            limitHit = "header holds more than " + std::to_string(kMaxHeaderValues) + " JSON values (the limit; about "
                       "8 a tensor)";
        if (!limitHit.empty())
            fail(label, limitHit + "; refused before building the rest"); // an InferenceError through the parser
        return true;
    };
    nlohmann::json header;
    try {
        header = nlohmann::json::parse(bytes + 8, bytes + 8 + headerLen, bounded);
    } catch (const nlohmann::json::exception &e) {
        fail(label, std::string("header is not valid JSON: ") + e.what());
    }
    if (!header.is_object())
        fail(label, "header is not a JSON object");

    struct Range
    {
        std::uint64_t begin, end;
        const std::string *name;
    };
    std::vector<Range> ranges;
    std::map<std::string, TensorView> out;
    for (auto it = header.begin(); it != header.end(); ++it) {
        const std::string &name = it.key();
        const nlohmann::json &e = it.value();
        if (name == "__metadata__") {
            if (!e.is_object())
                fail(label, "__metadata__ is not an object");
            for (auto m = e.begin(); m != e.end(); ++m) {
                if (!m.value().is_string())
                    fail(label, "__metadata__ value '" + m.key() + "' is not a string");
                if (metadata)
                    (*metadata)[m.key()] = m.value().get<std::string>();
            }
            continue;
        }
        if (!e.is_object())
            failTensor(label, name, "entry is not an object");
        auto dt = e.find("dtype");
        auto sh = e.find("shape");
        auto off = e.find("data_offsets");
        if (dt == e.end() || !dt->is_string())
            failTensor(label, name, "missing or non-string dtype");
        if (sh == e.end() || !sh->is_array())
            failTensor(label, name, "missing or non-array shape");
        if (off == e.end() || !off->is_array() || off->size() != 2)
            failTensor(label, name, "data_offsets must be an array [begin, end]");
        TensorView v;
        if (!parseDType(dt->get<std::string>(), &v.dtype))
            failTensor(label, name, "unknown dtype '" + dt->get<std::string>() + "'");
        if (sh->size() > 16)
            failTensor(label, name, "too many dimensions (" + std::to_string(sh->size()) + ")");
        std::uint64_t numel = 1;
        for (const auto &d : *sh) {
            if (!d.is_number_unsigned())
                failTensor(label, name, "shape entries must be non-negative integers");
            const std::uint64_t dim = d.get<std::uint64_t>();
            if (dim > 0 && numel > std::numeric_limits<std::int64_t>::max() / dim)
                failTensor(label, name, "shape overflows");
            numel *= dim;
            v.shape.push_back(static_cast<std::int64_t>(dim));
        }
        if (!(*off)[0].is_number_unsigned() || !(*off)[1].is_number_unsigned())
            failTensor(label, name, "data_offsets must be non-negative integers");
        const std::uint64_t begin = (*off)[0].get<std::uint64_t>();
        const std::uint64_t end = (*off)[1].get<std::uint64_t>();
        if (end < begin)
            failTensor(label, name, "data_offsets end before begin");
        if (end > dataSize)
            failTensor(label, name, "data_offsets [" + std::to_string(begin) + ", " + std::to_string(end)
                                        + ") run past the end of the data (" + std::to_string(dataSize) + " bytes)");
        const std::uint64_t esize = dtypeSize(v.dtype);
        if (numel > std::numeric_limits<std::uint64_t>::max() / esize || numel * esize != end - begin)
            failTensor(label, name, "byte size " + std::to_string(end - begin) + " does not match dtype "
                                        + dtypeName(v.dtype) + " and shape " + shapeString(v.shape));
        v.data = dataStart + begin;
        v.byteSize = static_cast<std::size_t>(end - begin);
        auto ins = out.emplace(name, std::move(v));
        ranges.push_back({begin, end, &ins.first->first});
    }
    std::sort(ranges.begin(), ranges.end(), [](const Range &a, const Range &b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    });
    std::uint64_t maxEnd = 0;
    const std::string *maxName = nullptr;
    for (const Range &r : ranges) {
        if (r.end == r.begin)
            continue; // empty tensors occupy no bytes
        if (maxName && r.begin < maxEnd)
            failTensor(label, *r.name, "data range overlaps tensor '" + *maxName + "'");
        maxEnd = r.end;
        maxName = r.name;
    }
    if (entries)
        *entries = std::move(out);
}

SafetensorsFile::SafetensorsFile(const std::string &path) : m_path(path), m_mapping(new Mapping)
{
    // A regular file only, its size from stat (common/regularfile.h; issue 51): a FIFO blocked
    // open() forever, a link to /dev/zero cannot be mapped. The name's bytes as they are (no UTF-8).
    std::string notAFile;
    if (regularFileSize(path, FileLimits::weights, "the weights file", &notAFile) < 0)
        throw InferenceError(notAFile);
    m_mapping->file.setFileName(QFile::decodeName(QByteArray::fromStdString(path)));
    if (!m_mapping->file.open(QIODevice::ReadOnly))
        fail(path, "cannot open: " + m_mapping->file.errorString().toStdString());
    m_mapping->size = m_mapping->file.size();
    static const std::uint8_t kEmpty[1] = {0};
    const std::uint8_t *base = kEmpty;
    if (m_mapping->size > 0) {
        m_mapping->data = m_mapping->file.map(0, m_mapping->size);
        if (!m_mapping->data)
            fail(path, "cannot memory-map: " + m_mapping->file.errorString().toStdString());
        base = m_mapping->data;
    }
    parse(base, static_cast<std::size_t>(m_mapping->size), path, &m_entries, &m_metadata);
}

SafetensorsFile::~SafetensorsFile() = default;

std::vector<std::string> SafetensorsFile::names() const
{
    std::vector<std::string> n;
    for (const auto &e : m_entries)
        n.push_back(e.first);
    return n;
}

const TensorView &SafetensorsFile::view(const std::string &name) const
{
    auto it = m_entries.find(name);
    if (it == m_entries.end())
        failTensor(m_path, name, "not present");
    return it->second;
}

Tensor SafetensorsFile::tensor(const std::string &name) const
{
    const TensorView &v = view(name);
    Tensor t;
    t.dtype = v.dtype;
    t.shape = v.shape;
    t.bytes.assign(v.data, v.data + v.byteSize);
    return t;
}

TensorMap SafetensorsFile::readAll() const
{
    TensorMap m;
    for (const auto &e : m_entries)
        m.emplace(e.first, tensor(e.first));
    return m;
}

TensorMap readSafetensors(const std::string &path)
{
    return SafetensorsFile(path).readAll();
}

void writeSafetensors(const std::string &path, const TensorMap &tensors,
                      const std::map<std::string, std::string> &metadata)
{
    nlohmann::json header = nlohmann::json::object();
    if (!metadata.empty())
        header["__metadata__"] = metadata;
    std::uint64_t offset = 0;
    for (const auto &[name, t] : tensors) {
        if (!t.isValid())
            failTensor(path, name, "byte size does not match dtype and shape " + shapeString(t.shape));
        header[name] = {{"dtype", dtypeName(t.dtype)},
                        {"shape", t.shape},
                        {"data_offsets", {offset, offset + t.bytes.size()}}};
        offset += t.bytes.size();
    }
    std::string text = header.dump();
    while ((text.size() + 8) % 8 != 0) // align the data section to 8 bytes
        text.push_back(' ');
    std::uint8_t len[8];
    std::uint64_t n = text.size();
    for (int i = 0; i < 8; ++i)
        len[i] = static_cast<std::uint8_t>(n >> (8 * i));

    QSaveFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::WriteOnly))
        fail(path, "cannot write: " + file.errorString().toStdString());
    bool ok = file.write(reinterpret_cast<const char *>(len), 8) == 8
              && file.write(text.data(), static_cast<qint64>(text.size())) == static_cast<qint64>(text.size());
    for (const auto &[name, t] : tensors) {
        if (!ok)
            break;
        ok = file.write(reinterpret_cast<const char *>(t.bytes.data()), static_cast<qint64>(t.bytes.size()))
             == static_cast<qint64>(t.bytes.size());
    }
    if (!ok || !file.commit()) // QSaveFile: temp file in the same folder, renamed on commit
        fail(path, "write failed: " + file.errorString().toStdString());
}

} // namespace folio::inference
