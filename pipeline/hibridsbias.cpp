#include "pipeline/hibridsbias.h"

#include "inference/checkpoint/safetensors.h"
#include "inference/layers/hibrids.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
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
    const QString file = QDir(checkpointDir).filePath(QStringLiteral("model.safetensors"));
    auto fail = [&](const QString &problem) {
        out = HibridsSectionBias();
        out.error = QStringLiteral("%1: %2").arg(checkpointDir, problem);
        return out;
    };
    if (!QFileInfo(file).isFile())
        return fail(QStringLiteral("no model.safetensors"));
    const int s = int(doc.sections.size());
    if (s == 0)
        return fail(QStringLiteral("the document has no sections"));
    if (s > kMaxHibridsSections)
        return fail(QStringLiteral("the document has %1 sections, more than %2").arg(s).arg(kMaxHibridsSections));
    try {
        inference::SafetensorsFile st(QFile::encodeName(file).toStdString());
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
            return fail(QStringLiteral("no HIBRIDS hierarchical bias table (relative_hierarchical_bias.weight) in model.safetensors"));
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
