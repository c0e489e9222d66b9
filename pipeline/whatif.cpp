#include "pipeline/whatif.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace folio::pipeline {

namespace {

const qint64 kMaxEditFileBytes = 1 << 20;
const int kMaxEdits = 100000;

QString kindName(WordEdit::Kind k)
{
    switch (k) {
    case WordEdit::Kind::Move: return QStringLiteral("move");
    case WordEdit::Kind::Resize: return QStringLiteral("resize");
    case WordEdit::Kind::Delete: return QStringLiteral("delete");
    }
    return QString();
}

bool finiteOffset(double v) { return std::isfinite(v) && std::abs(v) <= 1e7; }

} // namespace

bool parseWordEdit(WordEdit::Kind kind, const QString &spec, WordEdit *edit, QString *error)
{
    const QString name = QStringLiteral("--") + kindName(kind);
    WordEdit e;
    e.kind = kind;
    bool ok = false;
    if (kind == WordEdit::Kind::Delete) {
        e.word = spec.trimmed().toInt(&ok);
        if (!ok || e.word < 0) {
            *error = QStringLiteral("%1 '%2': expected a word index (0, 1, ...)").arg(name, spec);
            return false;
        }
        *edit = e;
        return true;
    }
    const int colon = spec.indexOf(QLatin1Char(':'));
    const QStringList d = colon < 0 ? QStringList() : spec.mid(colon + 1).split(QLatin1Char(','));
    bool okX = false, okY = false;
    if (colon > 0 && d.size() == 2) {
        e.word = spec.left(colon).trimmed().toInt(&ok);
        e.dx = d[0].trimmed().toDouble(&okX);
        e.dy = d[1].trimmed().toDouble(&okY);
    }
    if (!ok || !okX || !okY || e.word < 0 || !finiteOffset(e.dx) || !finiteOffset(e.dy)) {
        *error = QStringLiteral("%1 '%2': expected WORD:%3 (a word index and two numbers in page units)")
                     .arg(name, spec, kind == WordEdit::Kind::Move ? QStringLiteral("DX,DY") : QStringLiteral("DW,DH"));
        return false;
    }
    *edit = e;
    return true;
}

bool readWordEdits(const QString &path, std::vector<WordEdit> *edits, QString *error)
{
    const QFileInfo info(path);
    if (!info.exists() || !info.isFile()) {
        *error = path + QStringLiteral(": no such file");
        return false;
    }
    if (info.size() > kMaxEditFileBytes) {
        *error = QStringLiteral("%1: %2 bytes; an edit list holds at most %3").arg(path).arg(info.size()).arg(kMaxEditFileBytes);
        return false;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = path + QStringLiteral(": cannot read: ") + f.errorString();
        return false;
    }
    QJsonParseError pe{};
    const QJsonDocument doc = QJsonDocument::fromJson(f.read(kMaxEditFileBytes), &pe);
    if (pe.error != QJsonParseError::NoError) {
        *error = QStringLiteral("%1: invalid JSON at offset %2: %3").arg(path).arg(pe.offset).arg(pe.errorString());
        return false;
    }
    const QJsonArray list = doc.isArray() ? doc.array() : doc.object().value(QStringLiteral("edits")).toArray();
    if (!doc.isArray() && !doc.object().value(QStringLiteral("edits")).isArray()) {
        *error = path + QStringLiteral(": expected a list of edits (or {\"edits\": [...]})");
        return false;
    }
    if (list.size() > kMaxEdits) {
        *error = QStringLiteral("%1: %2 edits; at most %3").arg(path).arg(list.size()).arg(kMaxEdits);
        return false;
    }
    std::vector<WordEdit> out;
    for (int i = 0; i < list.size(); ++i) {
        const QJsonObject o = list[i].toObject();
        const QString op = o.value(QStringLiteral("op")).toString();
        const QString where = QStringLiteral("%1: edit %2").arg(path).arg(i);
        WordEdit e;
        if (op == QLatin1String("move")) e.kind = WordEdit::Kind::Move;
        else if (op == QLatin1String("resize")) e.kind = WordEdit::Kind::Resize;
        else if (op == QLatin1String("delete")) e.kind = WordEdit::Kind::Delete;
        else {
            *error = where + QStringLiteral(": \"op\" must be \"move\", \"resize\" or \"delete\"");
            return false;
        }
        const QJsonValue w = o.value(QStringLiteral("word"));
        const double wd = w.toDouble(-1);
        if (!w.isDouble() || wd < 0 || wd != std::floor(wd) || wd > 1e9) {
            *error = where + QStringLiteral(": \"word\" must be a word index (0, 1, ...)");
            return false;
        }
        e.word = int(wd);
        if (e.kind != WordEdit::Kind::Delete) {
            const bool move = e.kind == WordEdit::Kind::Move;
            const QString kx = move ? QStringLiteral("dx") : QStringLiteral("dw");
            const QString ky = move ? QStringLiteral("dy") : QStringLiteral("dh");
            const QJsonValue vx = o.value(kx), vy = o.value(ky);
            if ((!vx.isUndefined() && !vx.isDouble()) || (!vy.isUndefined() && !vy.isDouble())
                || !finiteOffset(vx.toDouble(0)) || !finiteOffset(vy.toDouble(0))) {
                *error = where + QStringLiteral(": \"%1\" and \"%2\" must be numbers (page units)").arg(kx, ky);
                return false;
            }
            e.dx = vx.toDouble(0);
            e.dy = vy.toDouble(0);
        }
        out.push_back(e);
    }
    *edits = std::move(out);
    return true;
}

EditedDocument applyWordEdits(const Document &document, const std::vector<WordEdit> &edits)
{
    EditedDocument r;
    r.document = document;
    Document &doc = r.document;
    const int n = int(doc.words.size());
    for (const WordEdit &e : edits) {
        if (e.word < 0 || e.word >= n) {
            r.error = QStringLiteral("%1 word %2: the document has %3 words (0..%4)")
                          .arg(kindName(e.kind)).arg(e.word).arg(n).arg(n - 1);
            return r;
        }
        Word &w = doc.words[std::size_t(e.word)];
        if (e.kind == WordEdit::Kind::Delete) {
            w.text.clear();
            continue;
        }
        if (w.page < 0 || w.page >= int(doc.pages.size()) || !doc.pages[std::size_t(w.page)].size.isValid()
            || doc.pages[std::size_t(w.page)].size.isEmpty()) {
            r.error = QStringLiteral("%1 word %2: its page has no size, so its box cannot be edited").arg(kindName(e.kind)).arg(e.word);
            return r;
        }
        const QSizeF page = doc.pages[std::size_t(w.page)].size;
        QRectF box = w.box;
        if (e.kind == WordEdit::Kind::Move) {
            box.translate(e.dx, e.dy);
        } else {
            box.setWidth(box.width() + e.dx);
            box.setHeight(box.height() + e.dy);
            if (box.width() < 1 || box.height() < 1) {
                r.error = QStringLiteral("resize word %1 by %2,%3: the box would be %4 x %5 (at least 1 x 1)")
                              .arg(e.word).arg(e.dx).arg(e.dy).arg(box.width()).arg(box.height());
                return r;
            }
        }
        const QRectF wanted = box;
        box.setWidth(std::min(box.width(), page.width()));
        box.setHeight(std::min(box.height(), page.height()));
        box.moveLeft(std::clamp(box.left(), 0.0, page.width() - box.width()));
        box.moveTop(std::clamp(box.top(), 0.0, page.height() - box.height()));
        if (box != wanted)
            r.notes << QStringLiteral("word %1 (%2): %3 would leave the page (%4 x %5); clamped to x %6..%7, y %8..%9")
                           .arg(e.word).arg(w.text, kindName(e.kind)).arg(page.width()).arg(page.height())
                           .arg(box.left()).arg(box.right()).arg(box.top()).arg(box.bottom());
        w.box = box;
        w.norm = normaliseBox(box, page);
    }
    // A page that had words must keep one: the model has nothing to run on otherwise.
    const auto hasText = [](const Word &w) { return !w.text.trimmed().isEmpty(); };
    for (std::size_t p = 0; p < std::max(document.pages.size(), std::size_t(1)); ++p) {
        bool before = false, after = false;
        for (std::size_t i = 0; i < doc.words.size(); ++i)
            if (doc.words[i].page == int(p)) {
                before = before || hasText(document.words[i]);
                after = after || hasText(doc.words[i]);
            }
        if (before && !after) {
            r.error = QStringLiteral("the edits delete every word of page %1: nothing left to run the model on").arg(p + 1);
            return r;
        }
    }
    r.ok = true;
    return r;
}

} // namespace folio::pipeline
