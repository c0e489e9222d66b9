#include "pipeline/hfpagelabeller.h"
#include "common/regularfile.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>

namespace folio::pipeline {

QString checkpointModelType(const QString &checkpointDir)
{
    QFile f(QDir(checkpointDir).filePath(QStringLiteral("config.json")));
    // Never opened unless a regular file (a FIFO blocks the open; issue 51): the loader names it.
    if (regularFileSize(QFile::encodeName(f.fileName()).toStdString(), 4 << 20, "config.json", nullptr) < 0
        || !f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("model_type")).toString();
}

bool isHfTokenClassifierType(const QString &modelType)
{
    for (const std::string &t : inference::HfTokenClassifier::supportedModelTypes())
        if (modelType == QString::fromStdString(t))
            return true;
    return false;
}

bool HfPageLabeller::load(const QString &checkpointDir, QString *error)
{
    ImageProcessing image;
    QString why;
    if (!readImageProcessing(checkpointDir, &image, &why)) {
        if (error)
            *error = why;
        return false;
    }
    inference::HfTokenClassifier classifier;
    std::string e;
    if (!classifier.load(checkpointDir.toStdString(), &e)) {
        if (error)
            *error = QString::fromStdString(e);
        return false;
    }
    m_classifier = std::move(classifier);
    m_image = image;
    return true;
}

bool HfPageLabeller::quantizeDynamicInt8(QString *error)
{
    std::string e;
    if (m_classifier.quantizeDynamicInt8(&e))
        return true;
    if (error)
        *error = QString::fromStdString(e);
    return false;
}

inference::WordLabelling HfPageLabeller::labelPage(const DocumentTaggerPage &page, const Document &document,
                                                   const inference::RunOptions &options) const
{
    inference::Tensor pixels;
    // A LayoutLMv2 without backbone weights takes no image; with them and a page without one it
    // runs text + layout only (the labelling's warnings say so).
    const bool wantsImage = m_image.visual && (!m_image.bgrUint8 || m_classifier.takesImage());
    bool haveImage = wantsImage;
    if (wantsImage) {
        inference::WordLabelling failed;
        const QString imagePath = page.page >= 0 && page.page < int(document.pages.size())
                                      ? document.pages[std::size_t(page.page)].imagePath
                                      : QString();
        if (imagePath.isEmpty() && m_image.bgrUint8) {
            haveImage = false;
        } else if (imagePath.isEmpty()) {
            failed.error = "the checkpoint has an image branch (visual_embed) but the page has no image";
            return failed;
        }
        const QImage image = haveImage ? QImage(imagePath) : QImage();
        if (haveImage && image.isNull()) {
            failed.error = imagePath.toStdString() + ": cannot read the page image";
            return failed;
        }
        QString why;
        if (haveImage)
            pixels = pagePixelValues(image, m_image, &why);
        if (haveImage && pixels.shape.empty()) {
            failed.error = imagePath.toStdString() + ": " + why.toStdString();
            return failed;
        }
    }
    return m_classifier.label(page.taggerPage.words, page.taggerPage.boxes, inference::HfTokenClassifier::LongPages::Slide,
                              options, haveImage ? &pixels : nullptr);
}

} // namespace folio::pipeline
