#pragma once
// What-if edits (issue 48): an edited copy of a Document for re-running a model on it — boxes
// moved or resized, words deleted — the Document itself untouched. Torch-free; nothing throws.
//
// Units: dx, dy, dw, dh are page units (Document::Word::box: pixels of a scan, CSS pixels of a web
// page), so "move 10" means 10 pixels of the page image; the words' 0-1000 boxes are recomputed
// from the page size. A box pushed (partly) off its page is clamped back onto it — its size kept
// where it fits — and the clamp is reported in `notes`. Deleting a word blanks its text: the
// taggers skip blank words, and every word index stays what it was.
//
// Refused with a message: an unknown word index, a page without a size (nothing to clamp to),
// a resize to a box below 1 unit, edits that leave a page that had words with none, an edit file
// that is not a list of {"op": "move"|"resize"|"delete", "word": N, ...} (the message names the
// file and the entry).

#include "document/document.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace folio::pipeline {

struct WordEdit
{
    enum class Kind { Move, Resize, Delete };
    Kind kind = Kind::Move;
    int word = -1;       // Document::words index
    double dx = 0, dy = 0; // move: offset; resize: change of width / height
};

// "W:DX,DY" (move, resize) or "W" (delete). False + *error naming the option's text.
bool parseWordEdit(WordEdit::Kind kind, const QString &spec, WordEdit *edit, QString *error);
// A JSON edit file: a list (or {"edits": [...]}) of {"op", "word", "dx"/"dy" or "dw"/"dh"};
// at most 1 MiB and 100,000 edits.
bool readWordEdits(const QString &path, std::vector<WordEdit> *edits, QString *error);

struct EditedDocument
{
    bool ok = false;
    QString error;
    Document document;
    QStringList notes; // clamps and the like, one line each
};

EditedDocument applyWordEdits(const Document &document, const std::vector<WordEdit> &edits);

} // namespace folio::pipeline
