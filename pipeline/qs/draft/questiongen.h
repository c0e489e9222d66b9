#pragma once
// Answer-aware question generation (issue 31): a small BART, optionally with a pointer-generator
// copy head (config.json "folio_copy_head"), writes the question that an answer answers, reading
// the answer and its evidence:
//
//   source = [bos] answer [sep] evidence sentence 1 [sep] sentence 2 ... [eos]
//
// ([sep] = the "folio_qs" paragraph separator; the answer keeps at most a third of the positions,
// the evidence the rest, sentences cut at the limit). Torch-free: the model is behind
// inference/qs/seq2seq.h.
//
//   QuestionGenerator g;  g.load(dir, &error);
//   QString q = g.generate(summary, evidenceSentences, &error);   // empty when nothing usable came out
#include "pipeline/qs/qsinputs.h"

#include <QSet>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace folio::pipeline {

struct QuestionExample
{
    QString question;     // the reference (training / scoring)
    QString answer;
    QStringList evidence; // sentences or turns, in order
};

// The encoder ids of one example; an empty answer and empty evidence give an empty source.
std::vector<std::int64_t> questionSource(const QsVocabulary &vocab, const QString &answer, const QStringList &evidence,
                                         int maxSourcePositions);

// A question's key terms: its content words (draftContentWords) that are not question-form words
// ("what", "summarize", "discussion", "think", ...). Grounded when every one occurs in `text`.
QSet<QString> questionKeyTerms(const QString &question);
bool questionGrounded(const QString &question, const QString &text);

class QuestionGenerator
{
public:
    QuestionGenerator();
    ~QuestionGenerator();
    QuestionGenerator(QuestionGenerator &&) noexcept;
    QuestionGenerator &operator=(QuestionGenerator &&) noexcept;

    // A checkpoint folder written by `folio-cli qs train-questions` (config.json, model.safetensors,
    // spm.model). False and *error naming the folder and the problem otherwise.
    bool load(const QString &dir, QString *error);
    bool isLoaded() const;
    bool hasCopyHead() const;
    int maxSourcePositions() const { return m_maxSource; }
    inference::GenerationSettings settings; // from config.json; beams / length may be changed

    // The question for one answer; empty (and *error set) when the model gives nothing usable or
    // both answer and evidence are empty. A trailing '?' is added when missing.
    QString generate(const QString &answer, const QStringList &evidence, QString *error = nullptr) const;

private:
    std::unique_ptr<inference::Seq2seqGenerator> m_generator;
    QsVocabulary m_vocab;
    int m_maxSource = 256;
    bool m_copy = false;
};

} // namespace folio::pipeline
