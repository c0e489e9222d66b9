#include "pipeline/pagepixels.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace folio::pipeline {

namespace {

bool readObject(const QString &path, bool optional, QJsonObject *out, QString *error)
{
    QFile f(path);
    if (!f.exists() && optional)
        return true;
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

bool readImageProcessing(const QString &checkpointDir, ImageProcessing *out, QString *error)
{
    QString why;
    ImageProcessing p;
    const QString configPath = QDir(checkpointDir).filePath(QStringLiteral("config.json"));
    const QString prePath = QDir(checkpointDir).filePath(QStringLiteral("preprocessor_config.json"));
    QJsonObject config, pre;
    bool ok = readObject(configPath, false, &config, &why) && readObject(prePath, true, &pre, &why)
              && readBool(config, QStringLiteral("visual_embed"), configPath, &p.visual, &why)
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

inference::Tensor pagePixelValues(const QImage &image, const ImageProcessing &processing, QString *error)
{
    const int s = processing.size;
    if (image.isNull()) {
        if (error)
            *error = QStringLiteral("no page image");
        return {};
    }
    QImage rgb = image.convertToFormat(QImage::Format_RGB888);
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
