#include "document/formats/sroie.h"

#include "document/formats/datasetformat.h"
#include "document/formats/datasetlimits.h"
#include "document/formats/funsd.h"

#include <QDir>
#include <QFileInfo>
#include <QImageReader>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <limits>

namespace folio {

namespace {

constexpr qint64 kMaxBoxFileBytes = qint64(4) << 20; // a receipt is a few KiB
constexpr qint64 kMaxKeyFileBytes = qint64(1) << 20;
constexpr int kMaxLines = 5000;
constexpr int kMaxReceipts = 100'000;
constexpr int kMaxProblemsKept = 50;
// A key value (company, address, date, total): the corrected transcripts hold at most a few
// hundred characters. A longer one is not a receipt's key: the receipt is skipped and named
// (a 1 M-character value made the fuzzy match below run for hours).
constexpr int kMaxKeyValueChars = 1000;
// Cells of the edit-distance tables one field's fuzzy search may fill (a real receipt needs a few
// thousand); past it the search stops with what it found and the receipt's problems say so.
constexpr qint64 kMaxFuzzyCells = 50'000'000;

void addProblem(SroieReport *r, const QString &problem)
{
    if (r->problems.size() < kMaxProblemsKept)
        r->problems.push_back(problem);
}

// Upper case, white space removed: how key values and line texts are compared.
QString squeezed(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (const QChar c : text)
        if (!c.isSpace())
            out.push_back(c.toUpper());
    return out;
}

struct CsvLine
{
    QRectF box;
    QString text;
};

// "x1,y1,x2,y2,x3,y3,x4,y4,TEXT" (the text may hold commas). False + *problem on a malformed row.
bool parseBoxRow(const QString &row, CsvLine *line, QString *problem)
{
    int pos = 0;
    double xs[4], ys[4];
    for (int k = 0; k < 8; ++k) {
        const int comma = int(row.indexOf(QLatin1Char(','), pos));
        if (comma < 0) {
            *problem = QStringLiteral("fewer than 8 coordinates");
            return false;
        }
        bool ok = false;
        const double v = row.mid(pos, comma - pos).trimmed().toDouble(&ok);
        if (!ok || !(std::abs(v) <= DatasetLimits::maxCoordinate)) {
            *problem = QStringLiteral("coordinate %1 is not a number within +-%2").arg(k + 1).arg(DatasetLimits::maxCoordinate);
            return false;
        }
        (k % 2 == 0 ? xs : ys)[k / 2] = v;
        pos = comma + 1;
    }
    const double x0 = *std::min_element(xs, xs + 4), x1 = *std::max_element(xs, xs + 4);
    const double y0 = *std::min_element(ys, ys + 4), y1 = *std::max_element(ys, ys + 4);
    line->box = QRectF(QPointF(std::max(0.0, x0), std::max(0.0, y0)), QPointF(std::max(0.0, x1), std::max(0.0, y1)));
    line->text = row.mid(pos).simplified();
    return true;
}

QSizeF pageSizeFor(const QString &dataFolder, const QString &id, const std::vector<CsvLine> &lines)
{
    const QString image = dataFolder + QStringLiteral("/img/") + id + QStringLiteral(".jpg");
    if (QFileInfo(image).isFile()) {
        const QSize size = QImageReader(image).size(); // the header only
        if (size.isValid() && size.width() > 0 && size.height() > 0)
            return QSizeF(size);
    }
    // No image (the training split ships none): the text's extent plus a margin.
    double w = 1, h = 1;
    for (const CsvLine &l : lines) {
        w = std::max(w, l.box.right());
        h = std::max(h, l.box.bottom());
    }
    return QSizeF(std::ceil(w * 1.05), std::ceil(h * 1.02));
}

// Page > Line > Word nodes; a line's words share its box by character count (spaces included).
Document receiptDocument(const QString &id, const QString &sourcePath, const QSizeF &pageSize, const std::vector<CsvLine> &lines,
                         std::vector<std::vector<int>> *lineWords)
{
    Document d;
    d.sourcePath = sourcePath;
    d.title = id;
    const int pageIdx = startSinglePageDocument(&d, pageSize);
    lineWords->assign(lines.size(), {});
    for (std::size_t li = 0; li < lines.size(); ++li) {
        const CsvLine &l = lines[li];
        Node lineNode;
        lineNode.id = QStringLiteral("p1/l%1").arg(li + 1);
        lineNode.kind = NodeKind::Line;
        lineNode.page = 0;
        lineNode.box = l.box;
        lineNode.text = l.text;
        const int lineIdx = d.addNode(lineNode, pageIdx);
        const QStringList words = l.text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        const double chars = std::max<qsizetype>(1, l.text.size());
        int offset = 0;
        for (int wi = 0; wi < words.size(); ++wi) {
            const QString &text = words[wi];
            const int start = int(l.text.indexOf(text, offset));
            offset = start + int(text.size());
            Word w;
            w.id = QStringLiteral("p1/l%1/w%2").arg(li + 1).arg(wi + 1);
            w.text = text;
            w.page = 0;
            w.box = QRectF(QPointF(l.box.left() + l.box.width() * start / chars, l.box.top()),
                           QPointF(l.box.left() + l.box.width() * offset / chars, l.box.bottom()));
            Node wordNode;
            wordNode.id = w.id;
            wordNode.kind = NodeKind::Word;
            wordNode.page = 0;
            wordNode.box = w.box;
            wordNode.text = text;
            w.node = d.addNode(wordNode, lineIdx);
            (*lineWords)[li].push_back(int(d.words.size()));
            d.words.push_back(std::move(w));
        }
    }
    d.normaliseWordBoxes();
    return d;
}

QStringList idsOf(const Document &d, const std::vector<int> &wordIndices)
{
    QStringList ids;
    for (int i : wordIndices)
        ids.push_back(d.words[std::size_t(i)].id);
    return ids;
}

// Levenshtein distance of two short strings (a line or a few) when it is at most `k`, else k + 1:
// only the band of cells within k of the diagonal is filled, and a row whose cells all exceed k
// ends it. *cells counts the cells filled.
int boundedEditDistance(const QString &a, const QString &b, int k, qint64 *cells)
{
    const int n = int(a.size()), m = int(b.size());
    const int inf = k + 1;
    if (k < 0 || std::abs(n - m) > k)
        return inf;
    std::vector<int> prev(std::size_t(m) + 2, inf), cur(std::size_t(m) + 2, inf);
    for (int j = 0; j <= std::min(m, k); ++j)
        prev[std::size_t(j)] = j;
    for (int i = 1; i <= n; ++i) {
        const int lo = std::max(1, i - k), hi = std::min(m, i + k);
        cur[std::size_t(lo - 1)] = lo == 1 && i <= k ? i : inf;
        int rowMin = cur[std::size_t(lo - 1)];
        for (int j = lo; j <= hi; ++j) {
            const int v = std::min({prev[std::size_t(j - 1)] + (a[i - 1] == b[j - 1] ? 0 : 1), prev[std::size_t(j)] + 1,
                                    cur[std::size_t(j - 1)] + 1, inf});
            cur[std::size_t(j)] = v;
            rowMin = std::min(rowMin, v);
        }
        cur[std::size_t(hi + 1)] = inf; // the next row reads one cell past this band
        *cells += hi - lo + 1;
        if (rowMin >= inf)
            return inf;
        std::swap(prev, cur);
    }
    return prev[std::size_t(m)];
}

// COMPANY / ADDRESS: where the key value is printed, as word indices, in three tries, each from the
// top (lines before `fromLine` not looked at); *endLine receives the line after the last one used.
//  1. the value inside consecutive lines (upper case, white space removed): the words covering it
//     ("99 SPEED MART S/B (519537-X)" holds the company "99 SPEED MART S/B");
//  2. consecutive lines that are each a piece of the value and cover at least 60 % of it;
//  3. consecutive lines that spell the value with at most 20 % of its characters different
//     (the transcripts have OCR slips the corrected keys do not: "SDN BND" for "SDN BHD").
//  Each try is linear in the lines (a run that fails try 2 is not tried again from inside it) and
//  try 3 fills at most kMaxFuzzyCells table cells (*stopped is set when it ran out).
std::vector<int> findFieldWords(const Document &d, const std::vector<CsvLine> &lines, const std::vector<std::vector<int>> &lineWords,
                                const QString &value, std::size_t fromLine, std::size_t *endLine, bool *stopped)
{
    const QString target = squeezed(value);
    if (target.size() < 2)
        return {};
    constexpr std::size_t kMaxRun = 8;
    for (std::size_t first = fromLine; first < lines.size(); ++first) {
        QString joined;
        std::vector<std::pair<int, qsizetype>> wordStarts; // word index, offset in `joined`
        for (std::size_t last = first; last < lines.size() && last < first + kMaxRun; ++last) {
            for (int wi : lineWords[last]) {
                wordStarts.emplace_back(wi, joined.size());
                joined += squeezed(d.words[std::size_t(wi)].text);
            }
            const qsizetype at = joined.indexOf(target);
            if (at >= 0) {
                std::vector<int> words;
                for (std::size_t k = 0; k < wordStarts.size(); ++k) {
                    const qsizetype begin = wordStarts[k].second;
                    const qsizetype end = k + 1 < wordStarts.size() ? wordStarts[k + 1].second : joined.size();
                    if (end > at && begin < at + target.size())
                        words.push_back(wordStarts[k].first);
                }
                *endLine = last + 1;
                return words;
            }
            if (joined.size() > 2 * target.size())
                break;
        }
    }
    auto runWords = [&](std::size_t first, std::size_t last) {
        std::vector<int> words;
        for (std::size_t k = first; k < last; ++k)
            words.insert(words.end(), lineWords[k].begin(), lineWords[k].end());
        *endLine = last;
        return words;
    };
    for (std::size_t first = fromLine; first < lines.size();) {
        qsizetype covered = 0;
        std::size_t last = first;
        for (std::size_t k = first; k < lines.size(); ++k) {
            const QString piece = squeezed(lines[k].text);
            if (piece.size() < 2 || !target.contains(piece))
                break;
            covered += piece.size();
            last = k + 1;
        }
        if (last > first && covered * 10 >= target.size() * 6)
            return runWords(first, last);
        // A run starting inside [first, last) ends at `last` too and covers less: none passes.
        first = std::max(first + 1, last);
    }
    double bestSimilarity = 0.8;
    std::size_t bestFirst = 0, bestLast = 0;
    qint64 cells = 0;
    for (std::size_t first = fromLine; first < lines.size() && !*stopped; ++first) {
        QString joined;
        for (std::size_t last = first; last < lines.size() && last < first + kMaxRun; ++last) {
            joined += squeezed(lines[last].text);
            if (joined.size() * 10 > target.size() * 13)
                break;
            if (joined.size() * 10 < target.size() * 7)
                continue;
            if (cells > kMaxFuzzyCells) {
                *stopped = true;
                break;
            }
            // Only distances that could beat the best similarity so far are computed exactly.
            const qsizetype longer = std::max(joined.size(), target.size());
            const int k = int(std::floor((1.0 - bestSimilarity) * double(longer)));
            const int distance = boundedEditDistance(joined, target, k, &cells);
            if (distance > k)
                continue;
            const double similarity = 1.0 - double(distance) / double(longer);
            if (similarity > bestSimilarity) {
                bestSimilarity = similarity;
                bestFirst = first;
                bestLast = last + 1;
            }
        }
    }
    if (bestLast > bestFirst)
        return runWords(bestFirst, bestLast);
    return {};
}

// The amount without a currency prefix and white space: "RM 9.00" -> "9.00".
QString bareAmount(const QString &text)
{
    QString s = squeezed(text);
    for (const QString &prefix : {QStringLiteral("RM"), QStringLiteral("$"), QStringLiteral("MYR")})
        if (s.startsWith(prefix))
            s = s.mid(prefix.size());
    return s;
}

bool saysTotal(const QString &lineText)
{
    const QString s = squeezed(lineText);
    return s.contains(QStringLiteral("TOTAL")) && !s.contains(QStringLiteral("SUBTOTAL")) && !s.contains(QStringLiteral("SUB-TOTAL"));
}

int findTotalWord(const Document &d, const std::vector<CsvLine> &lines, const std::vector<std::vector<int>> &lineWords,
                  const QString &total)
{
    const QString amount = bareAmount(total);
    if (amount.isEmpty())
        return -1;
    int best = -1, bestScore = -1;
    // Which lines say TOTAL, once (not once per matching word: a receipt of 10^5 equal amounts
    // re-read every line for each).
    std::vector<char> lineSaysTotal(lines.size());
    for (std::size_t li = 0; li < lines.size(); ++li)
        lineSaysTotal[li] = saysTotal(lines[li].text);
    for (std::size_t li = 0; li < lines.size(); ++li) {
        int score = -1; // this line's score, computed when a word of it matches
        for (int wi : lineWords[li]) {
            if (bareAmount(d.words[std::size_t(wi)].text) != amount)
                continue;
            if (score < 0) {
                score = 0;
                if (lineSaysTotal[li]) {
                    score = 2;
                } else {
                    const QRectF row = lines[li].box;
                    for (std::size_t other = 0; other < lines.size(); ++other) {
                        const QRectF b = lines[other].box;
                        const double overlap = std::min(row.bottom(), b.bottom()) - std::max(row.top(), b.top());
                        if (other != li && overlap > 0.5 * std::min(row.height(), b.height()) && lineSaysTotal[other])
                            score = 1;
                    }
                }
            }
            if (score >= bestScore) { // ties: the lowest on the receipt (the grand total comes last)
                bestScore = score;
                best = wi;
            }
        }
    }
    return best;
}

std::vector<int> findDateWords(const Document &d, const std::vector<CsvLine> &lines, const std::vector<std::vector<int>> &lineWords,
                               const QString &date)
{
    const QString target = squeezed(date);
    if (target.isEmpty())
        return {};
    for (std::size_t li = 0; li < lines.size(); ++li) {
        if (!squeezed(lines[li].text).contains(target))
            continue;
        // The words of the line that are pieces of the date ("25/12/2018", or "25", "DEC", "2018").
        std::vector<int> words;
        for (int wi : lineWords[li]) {
            const QString w = squeezed(d.words[std::size_t(wi)].text);
            if (!w.isEmpty() && target.contains(w))
                words.push_back(wi);
            else if (!w.isEmpty() && w.contains(target))
                return {wi}; // "DATE:25/12/2018"
        }
        if (!words.empty())
            return words;
    }
    return {};
}

void addEntity(Annotations *a, const Document &d, const QString &label, const std::vector<int> &wordIndices)
{
    if (wordIndices.empty())
        return;
    Entity e;
    e.id = QStringLiteral("e%1").arg(a->entities.size());
    e.label = label;
    e.wordIds = idsOf(d, wordIndices);
    e.state = ReviewState::Accepted;
    a->entities.push_back(std::move(e));
}

bool readReceipt(const QString &dataFolder, const QString &id, SroieReceipt *out, SroieReport *report)
{
    const QString boxPath = dataFolder + QStringLiteral("/box/") + id + QStringLiteral(".csv");
    const QString keyPath = dataFolder + QStringLiteral("/key/") + id + QStringLiteral(".json");
    QByteArray boxBytes, keyBytes;
    QString error;
    if (!formats::readWholeFile(boxPath, &boxBytes, &error, kMaxBoxFileBytes) || !formats::readWholeFile(keyPath, &keyBytes, &error, kMaxKeyFileBytes)) {
        addProblem(report, error);
        return false;
    }
    QJsonParseError parseError;
    const QJsonDocument keyJson = QJsonDocument::fromJson(keyBytes, &parseError);
    if (!keyJson.isObject()) {
        addProblem(report, QStringLiteral("%1: not a JSON object (%2)").arg(keyPath, parseError.errorString()));
        return false;
    }
    const QJsonObject keys = keyJson.object();
    for (const QString &label : sroieLabels()) {
        const QString key = sroieKeyOfLabel(label);
        const QJsonValue v = keys.value(key);
        if (!v.isString())
            continue;
        if (v.toString().size() > kMaxKeyValueChars) {
            addProblem(report, QStringLiteral("%1: the %2 is %3 characters long, more than the %4 a key value may have; the receipt is skipped")
                                   .arg(keyPath, key).arg(v.toString().size()).arg(kMaxKeyValueChars));
            return false;
        }
        out->keys.insert(key, v.toString());
    }
    std::vector<CsvLine> lines;
    const QStringList rows = QString::fromUtf8(boxBytes).split(QRegularExpression(QStringLiteral("\r?\n")), Qt::SkipEmptyParts);
    if (rows.size() > kMaxLines) {
        addProblem(report, QStringLiteral("%1: %2 lines, the limit is %3").arg(boxPath).arg(rows.size()).arg(kMaxLines));
        return false;
    }
    for (int r = 0; r < rows.size(); ++r) {
        CsvLine line;
        QString problem;
        if (!parseBoxRow(rows[r], &line, &problem)) {
            addProblem(report, QStringLiteral("%1:%2: %3; the row is skipped").arg(boxPath).arg(r + 1).arg(problem));
            continue;
        }
        if (!line.text.isEmpty())
            lines.push_back(std::move(line));
    }
    if (lines.empty()) {
        addProblem(report, QStringLiteral("%1: no text line").arg(boxPath));
        return false;
    }
    out->id = id;
    std::vector<std::vector<int>> lineWords;
    out->document = receiptDocument(id, boxPath, pageSizeFor(dataFolder, id, lines), lines, &lineWords);
    const Document &d = out->document;
    auto notFound = [&](const QString &key) {
        ++report->fieldsNotFound;
        addProblem(report, QStringLiteral("%1: the %2 \"%3\" is found on no line").arg(keyPath, key, out->keys.value(key)));
    };
    bool stopped = false;
    auto searchStopped = [&](const QString &key) {
        if (stopped)
            addProblem(report, QStringLiteral("%1: the fuzzy search for the %2 stopped after %3 comparisons (%4 lines); "
                                              "what was found by then is kept").arg(keyPath, key).arg(kMaxFuzzyCells).arg(lines.size()));
        stopped = false;
    };
    std::size_t afterCompany = 0;
    if (out->keys.contains(QStringLiteral("company"))) {
        const std::vector<int> words = findFieldWords(d, lines, lineWords, out->keys.value(QStringLiteral("company")), 0, &afterCompany, &stopped);
        searchStopped(QStringLiteral("company"));
        words.empty() ? notFound(QStringLiteral("company")) : addEntity(&out->annotations, d, QStringLiteral("COMPANY"), words);
    }
    if (out->keys.contains(QStringLiteral("address"))) {
        std::size_t end = 0;
        const QString address = out->keys.value(QStringLiteral("address"));
        std::vector<int> words = findFieldWords(d, lines, lineWords, address, afterCompany, &end, &stopped);
        if (words.empty() && afterCompany > 0 && !stopped) // an address printed above the company name
            words = findFieldWords(d, lines, lineWords, address, 0, &end, &stopped);
        searchStopped(QStringLiteral("address"));
        words.empty() ? notFound(QStringLiteral("address")) : addEntity(&out->annotations, d, QStringLiteral("ADDRESS"), words);
    }
    if (out->keys.contains(QStringLiteral("date"))) {
        const std::vector<int> words = findDateWords(d, lines, lineWords, out->keys.value(QStringLiteral("date")));
        words.empty() ? notFound(QStringLiteral("date")) : addEntity(&out->annotations, d, QStringLiteral("DATE"), words);
    }
    if (out->keys.contains(QStringLiteral("total"))) {
        const int word = findTotalWord(d, lines, lineWords, out->keys.value(QStringLiteral("total")));
        word < 0 ? notFound(QStringLiteral("total")) : addEntity(&out->annotations, d, QStringLiteral("TOTAL"), {word});
    }
    // Entities in reading order, as a tagger emits them.
    std::sort(out->annotations.entities.begin(), out->annotations.entities.end(), [&](const Entity &a, const Entity &b) {
        return d.wordIndex(a.wordIds.front()) < d.wordIndex(b.wordIds.front());
    });
    return true;
}

} // namespace

QString SroieReport::summary() const
{
    return QStringLiteral("%1 of %2 receipts imported (%3 skipped); %4 key fields found on no line")
        .arg(imported)
        .arg(receipts)
        .arg(skipped)
        .arg(fieldsNotFound);
}

const QStringList &sroieLabels()
{
    static const QStringList labels{QStringLiteral("COMPANY"), QStringLiteral("DATE"), QStringLiteral("ADDRESS"), QStringLiteral("TOTAL")};
    return labels;
}

QString sroieKeyOfLabel(const QString &label)
{
    return label.toLower();
}

QString sroieFieldRule()
{
    return QStringLiteral(
        "company and address: from the top, the words of consecutive lines holding the key value, else lines that are pieces of it "
        "covering >= 60 % of it, else lines spelling it with <= 20 % of characters different (upper case, white space removed; the "
        "address searched below the company first); "
        "date: the words of the first line holding the key date; total: one word equal to the key amount (RM / $ prefix "
        "allowed), preferring a line or a same-row neighbour that says TOTAL (not SUBTOTAL), then the lowest on the receipt");
}

QString sroieDataFolder(const QString &path)
{
    for (const QString &candidate : {path, path + QStringLiteral("/data")}) {
        const QDir dir(candidate);
        if (dir.exists(QStringLiteral("box")) && dir.exists(QStringLiteral("key")))
            return QDir::cleanPath(candidate);
    }
    return QString();
}

bool isSroieFolder(const QString &path)
{
    return QFileInfo(path).isDir() && !sroieDataFolder(path).isEmpty();
}

bool importSroieFolder(const QString &path, std::vector<SroieReceipt> *receipts, SroieReport *report, QString *error)
{
    *report = SroieReport();
    receipts->clear();
    const QString data = sroieDataFolder(path);
    if (data.isEmpty()) {
        *error = QStringLiteral("%1: not a SROIE folder (no box/ and key/ in it or in its data/)").arg(path);
        return false;
    }
    QStringList ids;
    for (const QString &f : QDir(data + QStringLiteral("/box")).entryList({QStringLiteral("*.csv")}, QDir::Files, QDir::Name)) {
        const QString id = QFileInfo(f).completeBaseName();
        if (QFileInfo(data + QStringLiteral("/key/") + id + QStringLiteral(".json")).isFile())
            ids.push_back(id);
        else
            addProblem(report, QStringLiteral("%1/box/%2: no key file beside it; skipped").arg(data, f));
        if (ids.size() > kMaxReceipts) {
            *error = QStringLiteral("%1: more than %2 receipts").arg(data).arg(kMaxReceipts);
            return false;
        }
    }
    report->receipts = int(ids.size());
    for (const QString &id : ids) {
        SroieReceipt r;
        if (readReceipt(data, id, &r, report)) {
            receipts->push_back(std::move(r));
            ++report->imported;
        } else {
            ++report->skipped;
        }
    }
    if (receipts->empty()) {
        *error = QStringLiteral("%1: no readable receipt (%2)%3")
                     .arg(data, report->summary(), report->problems.isEmpty() ? QString() : QStringLiteral("; ") + report->problems.front());
        return false;
    }
    return true;
}

bool isSroieHeldOut(int indexInFolder)
{
    return indexInFolder % 5 == 4;
}

QString sroieFieldText(const Document &document, const Annotations &annotations, const QString &label)
{
    QStringList parts;
    for (const Entity &e : annotations.entities) {
        if (e.label != label)
            continue;
        for (const QString &id : e.wordIds) {
            const int i = document.wordIndex(id);
            if (i >= 0)
                parts.push_back(document.words[std::size_t(i)].text);
        }
        if (label == QLatin1String("TOTAL") || label == QLatin1String("DATE"))
            break; // one value: the first entity
    }
    return parts.join(QLatin1Char(' '));
}

bool sroieFieldMatches(const QString &predicted, const QString &gold)
{
    return predicted.simplified() == gold.simplified();
}

} // namespace folio
