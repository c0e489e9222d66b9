#include "pipeline/pagepixels.h"

#include "common/regularfile.h"
#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace folio::pipeline {

namespace {

// PIL's precompute_coeffs + normalize_coeffs_8bpc for the bilinear (triangle, support 1) filter:
// per output index its first input index, its tap count, and ksize fixed-point weights.
struct PilCoeffs
{
    int ksize = 0;
    std::vector<int> first, count;
    std::vector<std::int32_t> weights;
};

constexpr int kPilPrecisionBits = 32 - 8 - 2;

PilCoeffs pilCoeffs(int inSize, int outSize)
{
    PilCoeffs c;
    const double scale = double(inSize) / double(outSize);
    const double filterScale = scale < 1.0 ? 1.0 : scale;
    const double support = 1.0 * filterScale;
    c.ksize = int(std::ceil(support)) * 2 + 1;
    c.first.resize(std::size_t(outSize));
    c.count.resize(std::size_t(outSize));
    c.weights.assign(std::size_t(outSize) * std::size_t(c.ksize), 0);
    std::vector<double> k(std::size_t(c.ksize));
    for (int xx = 0; xx < outSize; ++xx) {
        const double center = (xx + 0.5) * scale;
        const double ss = 1.0 / filterScale;
        int xmin = int(center - support + 0.5);
        if (xmin < 0) xmin = 0;
        int xmax = int(center + support + 0.5);
        if (xmax > inSize) xmax = inSize;
        xmax -= xmin;
        double ww = 0.0;
        for (int x = 0; x < xmax; ++x) {
            double t = (x + xmin - center + 0.5) * ss;
            t = t < 0 ? -t : t;
            k[std::size_t(x)] = t < 1.0 ? 1.0 - t : 0.0;
            ww += k[std::size_t(x)];
        }
        for (int x = 0; x < xmax; ++x) {
            const double w = ww != 0.0 ? k[std::size_t(x)] / ww : k[std::size_t(x)];
            c.weights[std::size_t(xx) * std::size_t(c.ksize) + std::size_t(x)] =
                std::int32_t(w < 0 ? -0.5 + w * (1 << kPilPrecisionBits) : 0.5 + w * (1 << kPilPrecisionBits));
        }
        c.first[std::size_t(xx)] = xmin;
        c.count[std::size_t(xx)] = xmax;
    }
    return c;
}

std::uint8_t pilClip8(std::int64_t v)
{
    if (v >= (std::int64_t(1) << kPilPrecisionBits << 8)) return 255;
    if (v <= 0) return 0;
    return std::uint8_t(v >> kPilPrecisionBits);
}

bool readObject(const QString &path, bool optional, QJsonObject *out, QString *error)
{
    QFile f(path);
    if (!f.exists() && optional)
        return true;
    std::string notAFile; // a FIFO, a device, a folder: named, never opened (issue 51)
    if (f.exists() && regularFileSize(QFile::encodeName(path).toStdString(), -1, "this configuration file", &notAFile) < 0) {
        *error = QFile::decodeName(QByteArray::fromStdString(notAFile));
        return false;
    }
    if (f.size() > 4 * 1024 * 1024) {
        *error = path + QStringLiteral(": larger than 4 MiB, not a configuration file");
        return false;
    }
    if (!f.open(QIODevice::ReadOnly)) {
        *error = path + QStringLiteral(": cannot read (") + f.errorString() + QStringLiteral(")");
        return false;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = path + QStringLiteral(": not a JSON object (") + pe.errorString() + QStringLiteral(")");
        return false;
    }
    *out = doc.object();
    return true;
}

bool readTriple(const QJsonObject &o, const QString &key, const QString &path, std::array<float, 3> *out, QString *error)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined() || v.isNull())
        return true;
    if (v.isDouble()) { // one value for every channel
        out->fill(float(v.toDouble()));
        return true;
    }
    const QJsonArray a = v.toArray();
    if (!v.isArray() || a.size() != 3) {
        *error = path + QStringLiteral(": %1 is not a number or 3 numbers").arg(key);
        return false;
    }
    for (int c = 0; c < 3; ++c) {
        if (!a[c].isDouble()) {
            *error = path + QStringLiteral(": %1[%2] is not a number").arg(key).arg(c);
            return false;
        }
        (*out)[std::size_t(c)] = float(a[c].toDouble());
    }
    return true;
}

bool readBool(const QJsonObject &o, const QString &key, const QString &path, bool *out, QString *error)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined() || v.isNull())
        return true;
    if (!v.isBool()) {
        *error = path + QStringLiteral(": %1 is not true or false").arg(key);
        return false;
    }
    *out = v.toBool();
    return true;
}

} // namespace

std::vector<std::uint8_t> pilResizeBilinear(const std::uint8_t *pixels, int width, int height, int stride, int channels,
                                            int outW, int outH)
{
    // Horizontal pass (when the width changes), then vertical, as ImagingResampleInner does.
    std::vector<std::uint8_t> tmp;
    const std::uint8_t *src = pixels;
    int srcStride = stride;
    if (outW != width) {
        const PilCoeffs h = pilCoeffs(width, outW);
        tmp.resize(std::size_t(outW) * std::size_t(height) * std::size_t(channels));
        for (int y = 0; y < height; ++y) {
            const std::uint8_t *row = pixels + std::size_t(y) * std::size_t(stride);
            for (int xx = 0; xx < outW; ++xx) {
                const std::int32_t *k = &h.weights[std::size_t(xx) * std::size_t(h.ksize)];
                for (int ch = 0; ch < channels; ++ch) {
                    std::int64_t ss = std::int64_t(1) << (kPilPrecisionBits - 1);
                    for (int x = 0; x < h.count[std::size_t(xx)]; ++x)
                        ss += std::int64_t(row[std::size_t(x + h.first[std::size_t(xx)]) * std::size_t(channels) + std::size_t(ch)]) * k[x];
                    tmp[(std::size_t(y) * std::size_t(outW) + std::size_t(xx)) * std::size_t(channels) + std::size_t(ch)] = pilClip8(ss);
                }
            }
        }
        src = tmp.data();
        srcStride = outW * channels;
    }
    const int w = outW;
    std::vector<std::uint8_t> out(std::size_t(outW) * std::size_t(outH) * std::size_t(channels));
    if (outH == height) {
        for (int y = 0; y < outH; ++y)
            std::copy(src + std::size_t(y) * std::size_t(srcStride), src + std::size_t(y) * std::size_t(srcStride) + std::size_t(w * channels),
                      out.begin() + std::ptrdiff_t(y) * w * channels);
        return out;
    }
    const PilCoeffs v = pilCoeffs(height, outH);
    for (int yy = 0; yy < outH; ++yy) {
        const std::int32_t *k = &v.weights[std::size_t(yy) * std::size_t(v.ksize)];
        for (int xx = 0; xx < w; ++xx)
            for (int ch = 0; ch < channels; ++ch) {
                std::int64_t ss = std::int64_t(1) << (kPilPrecisionBits - 1);
                for (int y = 0; y < v.count[std::size_t(yy)]; ++y)
                    ss += std::int64_t(src[std::size_t(y + v.first[std::size_t(yy)]) * std::size_t(srcStride) + std::size_t(xx) * std::size_t(channels) + std::size_t(ch)]) * k[y];
                out[(std::size_t(yy) * std::size_t(w) + std::size_t(xx)) * std::size_t(channels) + std::size_t(ch)] = pilClip8(ss);
            }
    }
    return out;
}

bool readImageProcessing(const QString &checkpointDir, ImageProcessing *out, QString *error)
{
    QString why;
    ImageProcessing p;
    const QString configPath = QDir(checkpointDir).filePath(QStringLiteral("config.json"));
    const QString prePath = QDir(checkpointDir).filePath(QStringLiteral("preprocessor_config.json"));
    QJsonObject config, pre;
    bool ok = readObject(configPath, false, &config, &why) && readObject(prePath, true, &pre, &why);
    if (ok && config.value(QStringLiteral("model_type")).toString() == QStringLiteral("layoutlmv2")) {
        // LayoutLMv2ImageProcessor: size {"height": 224, "width": 224}, resample 2, BGR uint8.
        p.visual = true;
        p.bgrUint8 = true;
        p.doRescale = false;
        p.doNormalize = false;
        ok = readBool(pre, QStringLiteral("do_resize"), prePath, &p.doResize, &why);
        const QJsonValue size = pre.value(QStringLiteral("size"));
        if (ok && size.isObject()) {
            const int h = size.toObject().value(QStringLiteral("height")).toInt(-1);
            const int w = size.toObject().value(QStringLiteral("width")).toInt(-1);
            if (h != w || h < 16 || h > 4096) {
                why = prePath + QStringLiteral(": size is not a square {height, width} in 16..4096");
                ok = false;
            }
            p.size = h;
        } else if (ok && size.isDouble()) {
            p.size = size.toInt(-1);
            if (p.size < 16 || p.size > 4096) {
                why = prePath + QStringLiteral(": size is not an image side in 16..4096");
                ok = false;
            }
        }
        if (ok && pre.contains(QStringLiteral("resample")) && pre.value(QStringLiteral("resample")).toInt(-1) != 2) {
            why = prePath + QStringLiteral(": resample must be 2 (bilinear) for a LayoutLMv2 checkpoint");
            ok = false;
        }
        if (!ok) {
            if (error)
                *error = why;
            return false;
        }
        *out = p;
        return true;
    }
    ok = ok && readBool(config, QStringLiteral("visual_embed"), configPath, &p.visual, &why)
              && readBool(pre, QStringLiteral("do_resize"), prePath, &p.doResize, &why)
              && readBool(pre, QStringLiteral("do_rescale"), prePath, &p.doRescale, &why)
              && readBool(pre, QStringLiteral("do_normalize"), prePath, &p.doNormalize, &why)
              && readTriple(pre, QStringLiteral("image_mean"), prePath, &p.mean, &why)
              && readTriple(pre, QStringLiteral("image_std"), prePath, &p.std, &why);
    if (ok && config.contains(QStringLiteral("input_size"))) {
        const QJsonValue v = config.value(QStringLiteral("input_size"));
        p.size = v.isDouble() ? v.toInt(-1) : -1;
        if (p.size < 16 || p.size > 4096) {
            why = configPath + QStringLiteral(": input_size is not an image side in 16..4096");
            ok = false;
        }
    }
    if (ok && pre.contains(QStringLiteral("resample"))) {
        p.resample = pre.value(QStringLiteral("resample")).toInt(-1);
        if (p.resample < 0 || p.resample > 5) {
            why = prePath + QStringLiteral(": resample is not a PIL filter code 0..5");
            ok = false;
        }
    }
    if (ok && pre.contains(QStringLiteral("rescale_factor"))) {
        p.rescaleFactor = pre.value(QStringLiteral("rescale_factor")).toDouble(0);
        if (!(p.rescaleFactor > 0)) {
            why = prePath + QStringLiteral(": rescale_factor is not a positive number");
            ok = false;
        }
    }
    for (int c = 0; ok && c < 3; ++c)
        if (!(p.std[std::size_t(c)] != 0.f)) {
            why = prePath + QStringLiteral(": image_std[%1] is 0").arg(c);
            ok = false;
        }
    if (!ok) {
        if (error)
            *error = why;
        return false;
    }
    *out = p;
    return true;
}

bool writeImageProcessorConfig(const QString &dir, const ImageProcessing &p, const QString &processorClass,
                               QString *error)
{
    const auto triple = [](const std::array<float, 3> &v) {
        QJsonArray a;
        for (float x : v)
            a.append(std::round(double(x) * 1e7) / 1e7); // the float's decimal, not its binary tail
        return a;
    };
    QJsonObject o;
    o.insert(QStringLiteral("processor_class"), processorClass);
    o.insert(QStringLiteral("do_resize"), p.doResize);
    o.insert(QStringLiteral("size"), QJsonObject{{QStringLiteral("height"), p.size}, {QStringLiteral("width"), p.size}});
    o.insert(QStringLiteral("resample"), p.resample);
    o.insert(QStringLiteral("apply_ocr"), false);
    if (p.bgrUint8) {
        o.insert(QStringLiteral("image_processor_type"), QStringLiteral("LayoutLMv2ImageProcessor"));
    } else {
        o.insert(QStringLiteral("image_processor_type"), QStringLiteral("LayoutLMv3ImageProcessor"));
        o.insert(QStringLiteral("do_rescale"), p.doRescale);
        o.insert(QStringLiteral("rescale_factor"), p.rescaleFactor);
        o.insert(QStringLiteral("do_normalize"), p.doNormalize);
        o.insert(QStringLiteral("image_mean"), triple(p.mean));
        o.insert(QStringLiteral("image_std"), triple(p.std));
    }
    const QString path = QDir(dir).filePath(QStringLiteral("preprocessor_config.json"));
    QSaveFile file(path);
    const QByteArray text = QJsonDocument(o).toJson(QJsonDocument::Indented);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size() || !file.commit()) {
        if (error)
            *error = path + QStringLiteral(": cannot write: ") + file.errorString();
        return false;
    }
    return true;
}

inference::Tensor pagePixelValues(const QImage &image, const ImageProcessing &processing, QString *error)
{
    const int s = processing.size;
    if (image.isNull()) {
        if (error)
            *error = QStringLiteral("no page image");
        return {};
    }
    QImage rgb = image.convertToFormat(QImage::Format_RGB888);
    if (processing.bgrUint8) {
        if (!processing.doResize && (rgb.width() != s || rgb.height() != s)) {
            if (error)
                *error = QStringLiteral("the page image is %1 x %2 but the checkpoint takes %3 x %3 and does not resize")
                             .arg(rgb.width()).arg(rgb.height()).arg(s);
            return {};
        }
        const std::vector<std::uint8_t> resized =
            pilResizeBilinear(rgb.constBits(), rgb.width(), rgb.height(), int(rgb.bytesPerLine()), 3, s, s);
        inference::Tensor t = inference::Tensor::zeros(inference::DType::U8, {1, 3, s, s});
        const std::size_t plane = std::size_t(s) * std::size_t(s);
        for (std::size_t i = 0; i < plane; ++i)
            for (int c = 0; c < 3; ++c) // BGR: channel 0 is blue
                t.bytes[std::size_t(2 - c) * plane + i] = resized[i * 3 + std::size_t(c)];
        return t;
    }
    if (processing.doResize) {
        const Qt::TransformationMode mode = processing.resample == 0 ? Qt::FastTransformation : Qt::SmoothTransformation;
        rgb = rgb.scaled(s, s, Qt::IgnoreAspectRatio, mode);
    } else if (rgb.width() != s || rgb.height() != s) {
        if (error)
            *error = QStringLiteral("the page image is %1 x %2 but the checkpoint takes %3 x %3 and does not resize")
                         .arg(rgb.width()).arg(rgb.height()).arg(s);
        return {};
    }
    std::vector<float> values(std::size_t(3) * std::size_t(s) * std::size_t(s));
    const float scale = processing.doRescale ? float(processing.rescaleFactor) : 1.f;
    const std::size_t plane = std::size_t(s) * std::size_t(s);
    for (int y = 0; y < s; ++y) {
        const uchar *line = rgb.constScanLine(y);
        for (int x = 0; x < s; ++x) {
            for (int c = 0; c < 3; ++c) {
                float v = float(line[3 * x + c]) * scale;
                if (processing.doNormalize)
                    v = (v - processing.mean[std::size_t(c)]) / processing.std[std::size_t(c)];
                values[std::size_t(c) * plane + std::size_t(y) * std::size_t(s) + std::size_t(x)] = v;
            }
        }
    }
    return inference::Tensor::fromFloats({1, 3, s, s}, values);
}

} // namespace folio::pipeline
