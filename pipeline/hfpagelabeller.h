#pragma once
// A Hugging Face token-classification checkpoint (inference::HfTokenClassifier) labelling Document
// pages: every word of the page (white-space-only ones too: taggerPagesOfDocument(..., keepBlankWords))
// with its 0-1000 box, the reference's own truncated call first and sliding windows only for the
// words it cuts off (inference/models/hftokenclassifier.h), and pixel_values (LayoutLMv2: the uint8
// BGR image) from the page image when the checkpoint has an image branch (pipeline/pagepixels.h);
// a LayoutLMv2 page without an image runs text + layout only, said in WordLabelling::warnings. Used by DocumentTagger and the
// attention runs. No exception leaves it.

#include "inference/models/hftokenclassifier.h"
#include "pipeline/modelinputs/taggerpages.h"
#include "pipeline/pagepixels.h"

#include <QString>

namespace folio::pipeline {

// The config.json model_type of a checkpoint folder ("" when the file is missing or unreadable).
QString checkpointModelType(const QString &checkpointDir);
// True for model types HfTokenClassifier runs ("layoutlmv3", "lilt", "layoutlmv2").
bool isHfTokenClassifierType(const QString &modelType);

class HfPageLabeller
{
public:
    // False + *error (naming the file and the problem) on failure; this object is then unchanged.
    bool load(const QString &checkpointDir, QString *error);
    bool isLoaded() const { return m_classifier.isLoaded(); }
    // Dynamic int8 for the classifier (HfTokenClassifier::quantizeDynamicInt8); false + *error on refusal.
    bool quantizeDynamicInt8(QString *error);
    const inference::HfTokenClassifier &classifier() const { return m_classifier; }
    const ImageProcessing &imageProcessing() const { return m_image; }

    // Labels one page (words of `page`, image of document.pages[page.page] when needed).
    inference::WordLabelling labelPage(const DocumentTaggerPage &page, const Document &document,
                                       const inference::RunOptions &options = {}) const;

private:
    inference::HfTokenClassifier m_classifier;
    ImageProcessing m_image;
};

} // namespace folio::pipeline
