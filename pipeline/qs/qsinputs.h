#pragma once
// Question-summary hierarchies (issue 13): documents -> seq2seq sources and generated text -> trees.
// Torch-free (the generator is behind inference/qs/seq2seq.h).
//
//   QsInput in = qsInputFromDocument(loaded.document);          // sections (one implicit if none)
//   QsVocabulary v; loadQsVocabulary(dir, &v, &error);           // tokenizer + HIBRIDS markers
//   QsGenerated g = generateQs(generator, v, {in}, settings);    // parsed trees, repairs, warnings
//
// A checkpoint folder holds config.json, model.safetensors (or pytorch_model.bin, or a fairseq
// checkpoint_best.pt whose args stand in for a missing config.json) and a tokenizer (Tokenizer::fromDirectory;
// without Hugging Face files, fairseq's dict.txt + encoder.json + vocab.bpe, tokenizers/fairseqdictionary.h).
// Markers: config.json "folio_qs": {"depth_markers": [7 ids], "paragraph_separator": id} for models
// trained by Folio (ids past the SentencePiece vocabulary); without it, HIBRIDS' BART ids.

#include "document/document.h"
#include "inference/qs/qslinearize.h"
#include "inference/qs/seq2seq.h"
#include "inference/tokenizers/tokenizer.h"

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <memory>
#include <vector>

namespace folio::pipeline {

struct QsSectionText
{
    QString title;
    int parent = -1;        // index into QsInput::sections, -1 = top level (parents come first)
    QStringList paragraphs; // plain text
};

struct QsInput
{
    QString id;
    std::vector<QsSectionText> sections;
    QString text() const; // every paragraph, in order, joined by "\n"
};

// The Document's sections (title + the words they own, in paragraphs of at most
// `wordsPerParagraph` words); words before the first section, or a document without sections,
// make one implicit section titled by the document's title.
QsInput qsInputFromDocument(const Document &doc, int wordsPerParagraph = 120);

struct QsVocabulary
{
    std::shared_ptr<inference::Tokenizer> tokenizer;
    inference::HibridsMarkers markers;
    std::int64_t pad = 1;
    std::vector<std::int64_t> specialIds() const; // bos, eos, pad, markers: left out when decoding
};

// A Folio-trained vocabulary: the SentencePiece ids, then BOS, EOS, the 7 depth markers and the
// paragraph separator past them (what `qs train` and `qs train-questions` write), and the
// config.json "folio_qs" object that records the markers.
QsVocabulary folioQsVocabulary(std::shared_ptr<inference::Tokenizer> tokenizer);
nlohmann::json folioQsConfig(const QsVocabulary &vocab);

// Reads `<dir>/config.json` (bos/eos/pad ids, "folio_qs" markers) and the tokenizer in `dir`.
bool loadQsVocabulary(const QString &dir, QsVocabulary *vocab, QString *error);

// Plain text -> ids (word by word, as the tokenizer encodes words); ids -> text, specials dropped.
std::vector<std::int64_t> encodeQsText(const QsVocabulary &vocab, const QString &text);
QString decodeQsText(const QsVocabulary &vocab, const std::vector<std::int64_t> &ids);

// Linearised source (qslinearize.h): each section's title and paragraphs. When the document does
// not fit, every section keeps the same token quota (water-filling: short sections whole, long
// ones cut after their first tokens); *tokensDropped says how many were cut.
inference::HibridsSource qsSource(const QsVocabulary &vocab, const QsInput &input, int maxSourcePositions,
                                  long *tokensDropped = nullptr);

struct QsGeneratedTree
{
    QString text;                    // decoded target text
    inference::QsParse parse;        // the tree and the parser's repairs
    QStringList warnings;            // truncation of the source, ...
};

struct QsGenerated
{
    bool ok = false;
    bool cancelled = false;
    QString error;
    std::vector<QsGeneratedTree> trees; // one per input
};

// Generates one tree per input (one row at a time, so a long document never pads the others).
QsGenerated generateQs(const inference::Seq2seqGenerator &generator, const QsVocabulary &vocab,
                       const std::vector<QsInput> &inputs, const inference::GenerationSettings &settings,
                       const inference::GenerationCallback &progress = {});

} // namespace folio::pipeline
