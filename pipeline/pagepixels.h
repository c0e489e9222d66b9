#pragma once
// The image branch's input for Hugging Face LayoutLMv3 checkpoints: a page image as pixel_values
// ([1, 3, S, S] float32, channels first), as LayoutLMv3's image processor prepares it: RGB, resized
// to S x S (config.json's input_size), scaled by rescale_factor (1/255), then (x - mean) / std per
// channel. Settings come from config.json (visual_embed, input_size) and, when present,
// preprocessor_config.json (do_resize, resample, do_rescale, rescale_factor, do_normalize,
// image_mean, image_std); the processor's defaults are mean = std = 0.5. Resizing uses Qt's smooth
// (bilinear) scaling for PIL's bilinear / bicubic / lanczos and nearest for resample 0, so pixels
// near edges differ slightly from PIL's antialiased filters. QtGui only; no torch.
//
// LayoutLMv2 / LayoutXLM (config.json model_type "layoutlmv2"; LayoutLMv2ImageProcessor): the page
// as `image`, [1, 3, S, S] uint8 in BGR order, S = 224 (preprocessor_config.json size), resized with
// PIL's bilinear filter (pilResizeBilinear: the same antialiased convolution and 8-bit rounding),
// neither rescaled nor normalised (the model subtracts its pixel mean itself).

#include "inference/checkpoint/tensor.h"

#include <QString>

#include <array>
#include <cstdint>
#include <vector>

class QImage;

namespace folio::pipeline {

struct ImageProcessing
{
    bool visual = false;    // config.json visual_embed: the model has an image branch
    int size = 224;         // config.json input_size
    bool doResize = true;
    int resample = 2;       // PIL code: 0 nearest, 2 bilinear, 3 bicubic
    bool doRescale = true;
    double rescaleFactor = 1.0 / 255.0;
    bool doNormalize = true;
    std::array<float, 3> mean{0.5f, 0.5f, 0.5f};
    std::array<float, 3> std{0.5f, 0.5f, 0.5f};
    bool bgrUint8 = false;  // LayoutLMv2's image: uint8, BGR, no rescale / normalisation
};

// PIL's Image.resize(..., BILINEAR) of an 8-bit image with `channels` interleaved channels (rows of
// `stride` bytes): a separable triangle filter widened by the scale when shrinking, 22-bit fixed-point
// coefficients, horizontal pass then vertical, each rounded to 8 bits. Returns outW * outH * channels.
std::vector<std::uint8_t> pilResizeBilinear(const std::uint8_t *pixels, int width, int height, int stride, int channels,
                                            int outW, int outH);

// Reads <dir>/config.json and <dir>/preprocessor_config.json (optional). False + *error naming the
// file and the field on a malformed file or value (a std of 0, a size outside 16..4096, ...).
bool readImageProcessing(const QString &checkpointDir, ImageProcessing *out, QString *error);

// Writes <dir>/preprocessor_config.json stating `processing` as the reference's image processor
// reads it (LayoutLMv3ImageProcessor, or LayoutLMv2ImageProcessor for bgrUint8), with apply_ocr
// false: the words and boxes come with the page, as Folio gave them to the model. `processorClass`
// names the processor that pairs it with the tokenizer (LayoutLMv3Processor, LayoutLMv2Processor,
// LayoutXLMProcessor). Written atomically; false + *error when it cannot be.
bool writeImageProcessorConfig(const QString &dir, const ImageProcessing &processing, const QString &processorClass,
                               QString *error);

// The image as pixel_values. Without resizing the image must already be size x size (else an
// empty tensor and *error).
inference::Tensor pagePixelValues(const QImage &image, const ImageProcessing &processing, QString *error);

} // namespace folio::pipeline
