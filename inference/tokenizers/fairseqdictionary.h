#pragma once
// fairseq's own GPT-2 BPE tokenizer files, as a fairseq BART folder ships them (issue 32). Torch-free.
//
//  - encoder.json: GPT-2's byte-level BPE vocabulary (piece -> GPT-2 id);
//  - vocab.bpe:    GPT-2's merges (first line a "#version" header), the format of merges.txt;
//  - dict.txt:     fairseq's Dictionary: one symbol per line, "<symbol> <count>" with an optional
//                  " #fairseq:overwrite" flag. fairseq's ids are <s> 0, <pad> 1, </s> 2, <unk> 3,
//                  then the lines in order. A symbol is a GPT-2 id written in decimal ("50118"), or
//                  any other word (<mask>, madeupword0000) that keeps its position and is never
//                  produced by the BPE. A repeated symbol is refused unless its later line carries
//                  the overwrite flag (it then takes the later position, as fairseq's add_symbol).
//
// Words go through the byte-level BPE of encoder.json + vocab.bpe (tokenizer_bpe.cpp, a prefix
// space on every word as the Hugging Face folder's default, no added tokens: fairseq's encoder
// treats "<s>" in text as text), and each GPT-2 id through dict.txt (the symbol "<id>"): a GPT-2 id
// without a dict.txt line is <unk> (3). idToPiece(fairseq id) is the GPT-2 piece of the id's
// symbol (the symbol itself for <s>, <mask>, madeupword...), so decoding is the byte-level one.
//
// Bounds: each file at most 64 MiB, dict.txt at most 1,048,576 lines; encoder.json must hold the
// 256 byte symbols and the result of every merge in vocab.bpe (as GPT-2's do), and no GPT-2 id
// twice. Errors are InferenceError naming the file, the line and the problem.

#include "inference/tokenizers/tokenizer.h"

#include <memory>
#include <string>

namespace folio::inference {

// True when `dir` has any of dict.txt, encoder.json, vocab.bpe.
bool hasFairseqGpt2BpeFiles(const std::string &dir);

// <dir>/dict.txt + encoder.json + vocab.bpe; a missing file is named.
std::unique_ptr<Tokenizer> makeFairseqGpt2BpeTokenizer(const std::string &dir);

} // namespace folio::inference
