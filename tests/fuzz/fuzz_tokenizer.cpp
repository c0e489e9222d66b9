// libFuzzer target: the tokenizer files (inference/tokenizers), picked at compile time by
// FOLIO_FUZZ_TOKENIZER:
//   bpe           vocab.json, kFileSeparator, merges.txt (byte-level BPE, RoBERTa / LayoutLMv3)
//   bpejson       tokenizer.json (Hugging Face fast-tokenizer file) through the byte-level BPE reader
//   tokenizerjson tokenizer.json through makeTokenizerFromJson (BPE / WordPiece / Unigram, issue 46);
//                 as the library, it may give no ids for a word (characters no piece covers and no
//                 unknown token, or text the normaliser removes), but every id is below vocabSize()
//   wordpiece     vocab.txt (BERT)
//   sentencepiece a .model file (protobuf ModelProto, read without libsentencepiece)
//   fairseqbpe    dict.txt, kFileSeparator, encoder.json, kFileSeparator, vocab.bpe (fairseq's GPT-2 BPE)
// The files must load or throw InferenceError; a loaded tokenizer must encode a fixed set of
// words (ASCII, accents, CJK, emoji, specials, digits) with ids it can map back to pieces, and
// never return no ids for a non-blank word.
#include "fuzzsupport.h"

#include "inference/errors.h"
#include "inference/tokenizers/fairseqdictionary.h"
#include "inference/tokenizers/tokenizer.h"
#include "inference/tokenizers/tokenizerjson.h"

#include <QFileInfo>

#include <cstring>
#include <memory>

namespace {

std::unique_ptr<folio::inference::Tokenizer> loadTokenizer(const QByteArray &input)
{
    using namespace folio;
    const char *kind = FOLIO_FUZZ_TOKENIZER;
    if (std::strcmp(kind, "bpe") == 0) {
        const std::vector<QByteArray> parts = fuzz::splitInput(input, QByteArray(fuzz::kFileSeparator), 2);
        const QString vocab = fuzz::writeScratchFile(QStringLiteral("vocab.json"), parts[0]);
        const QString merges = fuzz::writeScratchFile(QStringLiteral("merges.txt"), parts[1]);
        return inference::makeBpeTokenizer(vocab.toStdString(), merges.toStdString());
    }
    if (std::strcmp(kind, "bpejson") == 0)
        return inference::makeBpeTokenizerFromJson(
            fuzz::writeScratchFile(QStringLiteral("tokenizer.json"), input).toStdString());
    if (std::strcmp(kind, "tokenizerjson") == 0)
        return inference::makeTokenizerFromJson(
            fuzz::writeScratchFile(QStringLiteral("tokenizer.json"), input).toStdString());
    if (std::strcmp(kind, "wordpiece") == 0)
        return inference::makeWordPieceTokenizer(fuzz::writeScratchFile(QStringLiteral("vocab.txt"), input).toStdString());
    if (std::strcmp(kind, "sentencepiece") == 0)
        return inference::makeSentencePieceTokenizer(
            fuzz::writeScratchFile(QStringLiteral("spm.model"), input).toStdString());
    if (std::strcmp(kind, "fairseqbpe") == 0) {
        const std::vector<QByteArray> parts = fuzz::splitInput(input, QByteArray(fuzz::kFileSeparator), 3);
        fuzz::writeScratchFile(QStringLiteral("dict.txt"), parts[0]);
        fuzz::writeScratchFile(QStringLiteral("encoder.json"), parts[1]);
        const QString bpe = fuzz::writeScratchFile(QStringLiteral("vocab.bpe"), parts[2]);
        return inference::makeFairseqGpt2BpeTokenizer(QFileInfo(bpe).absolutePath().toStdString());
    }
    fuzz::invariantFailed(QStringLiteral("unknown FOLIO_FUZZ_TOKENIZER ") + QString::fromLatin1(kind));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace folio;
    std::unique_ptr<inference::Tokenizer> tok;
    try {
        tok = loadTokenizer(fuzz::inputBytes(data, size));
    } catch (const inference::InferenceError &e) {
        fuzz::note(QStringLiteral("refused: ") + QString::fromUtf8(e.what()));
        return 0;
    }
    fuzz::note(QStringLiteral("loaded: %1 pieces").arg(tok->vocabSize()));
    static const std::vector<std::string> words = {
        "Hello", "world", "na\xc3\xafve", "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", "\xf0\x9f\x98\x80", "a",
        "12,345.67", "<s>", "</s>", "<mask>", "[CLS]", "##ing", "\xe2\x96\x81x", "x\xc2\xa0y", "\xff\xfe"};
    std::vector<inference::WordBox> boxes(words.size(), inference::WordBox{1, 2, 3, 4});
    try {
        for (std::size_t w = 0; w < words.size(); ++w) {
            const std::vector<int> ids = tok->encodeWord(words[w], w == 0);
            const bool jsonKind = std::strcmp(FOLIO_FUZZ_TOKENIZER, "tokenizerjson") == 0;
            if (ids.empty() && !jsonKind)
                fuzz::invariantFailed(QStringLiteral("no ids for the word '%1'").arg(QString::fromStdString(words[w])));
            for (int id : ids) {
                if (jsonKind && (id < 0 || id >= tok->vocabSize()))
                    fuzz::invariantFailed(QStringLiteral("id %1 outside 0..%2").arg(id).arg(tok->vocabSize() - 1));
                (void)tok->idToPiece(id);
            }
        }
        const inference::Encoding e = inference::encodeWords(*tok, words, boxes, 4);
        if (e.ids.size() != e.boxes.size() || e.wordStart.size() != words.size())
            fuzz::invariantFailed(QStringLiteral("encodeWords: sizes disagree"));
        (void)tok->pieceToId("<unk>");
        (void)tok->vocabSize();
    } catch (const inference::InferenceError &) {
        // A loaded tokenizer may still refuse a word with a message (e.g. no unknown piece).
    }
    return 0;
}
