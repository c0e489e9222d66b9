#include "pipeline/hibridsbias.h"

#include "inference/checkpoint/fairseq.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/checkpoint/torchpickle.h"
#include "inference/layers/hibrids.h"

#include <QDir>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <regex>

namespace folio::pipeline {

namespace {

float toFloat(const inference::TensorView &v, std::size_t i)
{
    switch (v.dtype) {
    case inference::DType::F32: {
        float f;
        std::memcpy(&f, v.data + 4 * i, 4);
        return f;
    }
    case inference::DType::F16:
    case inference::DType::BF16: {
        std::uint16_t h;
        std::memcpy(&h, v.data + 2 * i, 2);
        if (v.dtype == inference::DType::BF16) {
            const std::uint32_t bits = std::uint32_t(h) << 16;
            float f;
            std::memcpy(&f, &bits, 4);
            return f;
        }
        const std::uint32_t sign = std::uint32_t(h & 0x8000) << 16;
        const int exponent = (h >> 10) & 0x1f;
        const std::uint32_t mantissa = h & 0x3ff;
        float f;
        if (exponent == 0)
            f = std::ldexp(float(mantissa), -24);
        else if (exponent == 31)
            f = mantissa ? std::nanf("") : INFINITY;
        else
            f = std::ldexp(float(mantissa | 0x400), exponent - 25);
        return sign ? -f : f;
    }
    default:
        return std::nanf("");
    }
}

// A checkpoint folder's tensors as the generator finds them (ParamStore::fromDirectory's order):
// model.safetensors memory-mapped, else pytorch_model.bin, else a fairseq checkpoint_best.pt (its
// names made Hugging Face's, fairseq.h), those two read by the bounded torch readers. Of a .bin /
// .pt only the HIBRIDS tables are kept, and the last file's are cached (by path, size and time), so
// the panel does not read the checkpoint again for every document.
bool isBiasTable(const std::string &name)
{
    static const std::string suffix = "relative_hierarchical_bias.weight";
    return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

inference::TensorMap biasTablesOf(const std::string &path, bool fairseq)
{
    static std::mutex mutex;
    static QString cachedKey;
    static inference::TensorMap cached;
    const QFileInfo info(QString::fromStdString(path));
    const QString key = info.absoluteFilePath() + QLatin1Char('|') + QString::number(info.size()) + QLatin1Char('|')
        + QString::number(info.lastModified().toMSecsSinceEpoch());
    {
        const std::lock_guard<std::mutex> lock(mutex);
        if (key == cachedKey)
            return cached;
    }
    inference::TensorMap all = fairseq ? inference::readFairseqCheckpoint(path) : inference::readTorchCheckpoint(path);
    inference::TensorMap tables;
    for (auto it = all.begin(); it != all.end(); it = all.erase(it))
        if (isBiasTable(it->first))
            tables.emplace(it->first, std::move(it->second));
    const std::lock_guard<std::mutex> lock(mutex);
    cachedKey = key;
    cached = tables;
    return tables;
}

class FolderWeights
{
public:
    explicit FolderWeights(const QString &dir)
    {
        const std::string d = QFile::encodeName(dir).toStdString();
        const std::string safetensors = d + "/model.safetensors", bin = d + "/pytorch_model.bin";
        const std::string fairseq = inference::fairseqCheckpointIn(d);
        if (!fairseq.empty()) {
            m_file = QStringLiteral("checkpoint_best.pt");
            m_read = biasTablesOf(fairseq, true);
        } else if (QFileInfo(QString::fromStdString(safetensors)).isFile()) {
            m_file = QStringLiteral("model.safetensors");
            m_st = std::make_unique<inference::SafetensorsFile>(safetensors);
            return;
        } else if (QFileInfo(QString::fromStdString(bin)).isFile()) {
            m_file = QStringLiteral("pytorch_model.bin");
            m_read = biasTablesOf(bin, false);
        } else {
            return;
        }
        for (const auto &[name, t] : m_read)
            m_views[name] = inference::TensorView{t.dtype, t.shape, t.bytes.data(), t.bytes.size()};
    }
    bool found() const { return !m_file.isEmpty(); }
    const QString &file() const { return m_file; }
    std::vector<std::string> names() const
    {
        if (m_st)
            return m_st->names();
        std::vector<std::string> out;
        for (const auto &kv : m_views)
            out.push_back(kv.first);
        return out;
    }
    const inference::TensorView &view(const std::string &name) const { return m_st ? m_st->view(name) : m_views.at(name); }

private:
    QString m_file;
    std::unique_ptr<inference::SafetensorsFile> m_st;
    inference::TensorMap m_read;
    std::map<std::string, inference::TensorView> m_views;
};

} // namespace

std::vector<float> HibridsSectionBias::matrix(int layer, int head) const
{
    const size_t cells = size_t(sections) * size_t(sections);
    std::vector<float> out(cells, 0.0f);
    int count = 0;
    for (int l = 0; l < layers; ++l) {
        if (layer >= 0 && l != layer)
            continue;
        for (int h = 0; h < heads; ++h) {
            if (head >= 0 && h != head)
                continue;
            const float *src = values.data() + (size_t(l) * size_t(heads) + size_t(h)) * cells;
            for (size_t c = 0; c < cells; ++c)
                out[c] += src[c];
            ++count;
        }
    }
    if (count > 1)
        for (float &v : out)
            v /= float(count);
    return out;
}

HibridsSectionBias hibridsSectionBias(const QString &checkpointDir, const Document &doc)
{
    HibridsSectionBias out;
    auto fail = [&](const QString &problem) {
        out = HibridsSectionBias();
        out.error = QStringLiteral("%1: %2").arg(checkpointDir, problem);
        return out;
    };
    const int s = int(doc.sections.size());
    if (s == 0)
        return fail(QStringLiteral("the document has no sections"));
    if (s > kMaxHibridsSections)
        return fail(QStringLiteral("the document has %1 sections, more than %2").arg(s).arg(kMaxHibridsSections));
    try {
        const FolderWeights st(checkpointDir);
        if (!st.found())
            return fail(QStringLiteral("no model.safetensors, pytorch_model.bin or checkpoint_best.pt"));
        // Encoder tables by layer number; the decoder's table only when there is none.
        static const std::regex encoder(R"(encoder\.layers\.(\d+)\..*relative_hierarchical_bias\.weight$)");
        static const std::regex decoder(R"(decoder\.layers\.\d+\..*relative_hierarchical_bias\.weight$)");
        std::vector<std::pair<int, std::string>> tables;
        std::string decoderTable;
        for (const std::string &name : st.names()) {
            std::smatch m;
            if (std::regex_search(name, m, encoder))
                tables.push_back({std::stoi(m[1].str()), name});
            else if (std::regex_search(name, decoder))
                decoderTable = name;
        }
        std::sort(tables.begin(), tables.end());
        if (tables.empty() && !decoderTable.empty())
            tables.push_back({0, decoderTable});
        if (tables.empty())
            return fail(QStringLiteral("no HIBRIDS hierarchical bias table (relative_hierarchical_bias.weight) in %1").arg(st.file()));
        inference::HibridsLayout layout;
        for (const Section &sec : doc.sections)
            layout.sectionParent.push_back(sec.parent);
        inference::hibridsPrepare(&layout);
        out.sections = s;
        out.layers = int(tables.size());
        for (const auto &[layer, name] : tables) {
            const inference::TensorView &v = st.view(name);
            if (v.shape.size() != 2 || v.shape[0] < 1 || v.shape[1] < 1 || v.shape[1] > 1024)
                return fail(QStringLiteral("%1 has shape %2, expected [rows, heads]")
                                .arg(QString::fromStdString(name), QString::fromStdString(inference::shapeString(v.shape))));
            if (v.dtype != inference::DType::F32 && v.dtype != inference::DType::F16 && v.dtype != inference::DType::BF16)
                return fail(QStringLiteral("%1 is not a float tensor").arg(QString::fromStdString(name)));
            if (out.heads == 0)
                out.heads = int(v.shape[1]);
            if (out.heads != int(v.shape[1]))
                return fail(QStringLiteral("%1 has %2 heads, the first table %3").arg(QString::fromStdString(name)).arg(v.shape[1]).arg(out.heads));
            out.tableNames << QString::fromStdString(name);
            for (int h = 0; h < out.heads; ++h)
                for (int i = 0; i < s * s; ++i) {
                    const std::int64_t row = layout.sectionIndex[size_t(i)];
                    if (row < 0 || row >= v.shape[0])
                        return fail(QStringLiteral("%1 has %2 rows; the section tree needs row %3").arg(QString::fromStdString(name)).arg(v.shape[0]).arg(row));
                    out.values.push_back(toFloat(v, size_t(row * v.shape[1] + h)));
                }
        }
    } catch (const std::exception &e) {
        return fail(QString::fromUtf8(e.what()));
    }
    out.ok = true;
    return out;
}

} // namespace folio::pipeline
