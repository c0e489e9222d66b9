#pragma once
// SROIE 2019 receipts (ICDAR 2019 Robust Reading Challenge, task 3: key information extraction)
// as labelled pages: a folder with box/NNN.csv (one text line per row, "x1,y1,...,x4,y4,TEXT",
// clockwise from the top left) and key/NNN.json ({"company", "date", "address", "total"}), as
// ../shared/data/sroie-train/data and ../shared/data/sroie-subset/data hold them (img/NNN.jpg
// beside them when the images are there).
//
// Each receipt becomes a Document (page > one Line node per CSV row > Word nodes; a line's box is
// the rectangle around its four points and its words share it out by their character counts)
// and Annotations whose entities carry the four fields, found on the lines (how: sroieFieldRule):
//  - COMPANY, ADDRESS: from the top, the words of consecutive lines that hold the key value
//    (compared in upper case without white space), else lines that are pieces of it covering most
//    of it, else lines that spell it with few differences (OCR slips in the transcripts);
//  - DATE: the words of the first line holding the key date;
//  - TOTAL: a word equal to the key amount (a currency prefix "RM" / "$" allowed), preferring one
//    on a line, or beside a line on the same row, that says TOTAL (not SUBTOTAL), then the lowest.
// A key whose text is found nowhere is counted and reported per file, and the receipt imported
// with the fields that were found. Sizes are checked before anything is kept.
// SROIE is for research use (no open licence; ../shared/data/sroie-train/SOURCE.md). Torch-free.
#include "document/annotations.h"
#include "document/document.h"

#include <QMap>
#include <QString>
#include <QStringList>

#include <vector>

namespace folio {

struct SroieReceipt
{
    QString id;                 // "000"
    Document document;
    Annotations annotations;    // COMPANY / DATE / ADDRESS / TOTAL entities that were found
    QMap<QString, QString> keys; // the key file: "company" -> "BOOK TA .K (TAMAN DAYA) SDN BHD", ...
};

struct SroieReport
{
    int receipts = 0;          // pairs of box + key files
    int imported = 0;
    int skipped = 0;           // unreadable box or key file
    int fieldsNotFound = 0;    // key values with no place on their receipt
    QStringList problems;      // "<file>: what" (at most 50 kept, the counts are complete)
    QString summary() const;
};

// The entity labels of the four key fields, upper case: COMPANY, DATE, ADDRESS, TOTAL.
const QStringList &sroieLabels();
// The key of an entity label: COMPANY -> "company".
QString sroieKeyOfLabel(const QString &label);
// One sentence per field saying how it is found on the lines (for RECIPE.md and --help).
QString sroieFieldRule();

// The folder with box/ and key/ in it: `path` itself, or path/data. Empty when neither.
QString sroieDataFolder(const QString &path);
bool isSroieFolder(const QString &path);

// Reads every receipt with both a box and a key file, sorted by id. False + *error only when
// the folder is not SROIE or holds no receipt.
bool importSroieFolder(const QString &path, std::vector<SroieReceipt> *receipts, SroieReport *report, QString *error);

// The held-out part of the training split that receipt models are scored on: every fifth receipt
// (index % 5 == 4 in id order), about 125 of 626.
bool isSroieHeldOut(int indexInFolder);

// Task-3 scoring: a field's text from the words of the entities with that label (lines joined by
// one space, in reading order), and the competition's exact match after white-space runs become
// one space and the ends are trimmed.
QString sroieFieldText(const Document &document, const Annotations &annotations, const QString &label);
bool sroieFieldMatches(const QString &predicted, const QString &gold);

} // namespace folio
