#include "document/formats/funsd.h"
#include "common/regularfile.h"
#include "document/layoutorder.h"
#include "document/formats/datasetlimits.h"
#include "document/wordnodes.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace folio {

namespace {

// "" when `path` is a regular file or nothing; else why it is not read (a FIFO, a device: issue 51).
QString notARegularFile(const QString &path)
{
    const std::string name = QFile::encodeName(path).toStdString();
    std::string why;
    if (!pathExists(name) || regularFileSize(name, -1, "this file", &why) >= 0)
        return {};
    return QFile::decodeName(QByteArray::fromStdString(why));
}

} // namespace

bool readPngSize(const QString &path, QSize *size, QString *error)
{
    if (const QString why = notARegularFile(path); !why.isEmpty()) {
        if (error) *error = why;
        return false;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error) *error = path + QStringLiteral(": cannot open PNG: ") + f.errorString();
        return false;
    }
    const QByteArray head = f.read(24);
    static const char sig[8] = {char(0x89), 'P', 'N', 'G', '\r', '\n', char(0x1a), '\n'};
    if (head.size() < 24 || !head.startsWith(QByteArray(sig, 8)) || head.mid(12, 4) != "IHDR") {
        if (error) *error = path + QStringLiteral(": not a PNG file (no IHDR header)");
        return false;
    }
    auto be32 = [&](int at) {
        const auto *p = reinterpret_cast<const unsigned char *>(head.constData() + at);
        return (quint32(p[0]) << 24) | (quint32(p[1]) << 16) | (quint32(p[2]) << 8) | quint32(p[3]);
    };
    const quint32 w = be32(16), h = be32(20);
    if (w == 0 || h == 0 || w > 1u << 20 || h > 1u << 20) {
        if (error) *error = path + QStringLiteral(": implausible PNG size %1x%2").arg(w).arg(h);
        return false;
    }
    *size = QSize(int(w), int(h));
    return true;
}

namespace {

// A FUNSD box [x0, y0, x1, y1]: numbers within DatasetLimits::maxCoordinate, not inverted.
// Returns an empty string when fine, otherwise the problem.
QString boxFromJson(const QJsonValue &v, QRectF *box)
{
    const QJsonArray a = v.toArray();
    if (a.size() != 4)
        return QStringLiteral("\"box\" is not [x0, y0, x1, y1]");
    for (const auto &x : a) {
        if (!x.isDouble())
            return QStringLiteral("\"box\" is not [x0, y0, x1, y1]");
        if (std::abs(x.toDouble()) > DatasetLimits::maxCoordinate)
            return QStringLiteral("\"box\" coordinate %1 is outside -%2..%2")
                .arg(x.toDouble()).arg(DatasetLimits::maxCoordinate, 0, 'f', 0);
    }
    if (a[0].toDouble() > a[2].toDouble() || a[1].toDouble() > a[3].toDouble())
        return QStringLiteral("\"box\" [%1, %2, %3, %4] is inverted (x0 > x1 or y0 > y1)")
            .arg(a[0].toDouble()).arg(a[1].toDouble()).arg(a[2].toDouble()).arg(a[3].toDouble());
    *box = QRectF(QPointF(a[0].toDouble(), a[1].toDouble()), QPointF(a[2].toDouble(), a[3].toDouble()));
    return QString();
}

QJsonArray boxToJson(const QRectF &b)
{
    auto num = [](double v) { return std::floor(v) == v ? QJsonValue(qint64(v)) : QJsonValue(v); };
    return QJsonArray{num(b.left()), num(b.top()), num(b.right()), num(b.bottom())};
}

// Line-by-line reading order of word indices.
std::vector<int> readingOrder(const std::vector<Word> &words)
{
    std::vector<int> idx(words.size());
    std::iota(idx.begin(), idx.end(), 0);
    auto yc = [&](int i) { return words[size_t(i)].box.center().y(); };
    std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return yc(a) < yc(b); });
    struct Line { double sumYc = 0; double height = 0; std::vector<int> members; };
    std::vector<Line> lines;
    for (int i : idx) {
        const double h = words[size_t(i)].box.height();
        if (!lines.empty()) {
            Line &l = lines.back();
            const double mean = l.sumYc / double(l.members.size());
            if (std::abs(yc(i) - mean) <= 0.5 * std::max(h, l.height)) {
                l.members.push_back(i);
                l.sumYc += yc(i);
                l.height = std::max(l.height, h);
                continue;
            }
        }
        lines.push_back(Line{yc(i), h, {i}});
    }
    std::vector<int> out;
    out.reserve(words.size());
    for (Line &l : lines) {
        std::stable_sort(l.members.begin(), l.members.end(),
                         [&](int a, int b) { return words[size_t(a)].box.left() < words[size_t(b)].box.left(); });
        out.insert(out.end(), l.members.begin(), l.members.end());
    }
    return out;
}

} // namespace

int startSinglePageDocument(Document *d, const QSizeF &pageSize)
{
    d->kind = SourceKind::Image;
    d->pages.push_back(Page{pageSize, QString(), 0});
    Node root;
    root.id = QStringLiteral("doc");
    root.kind = NodeKind::Root;
    d->addNode(root, -1);
    Node pageNode;
    pageNode.id = QStringLiteral("p1");
    pageNode.kind = NodeKind::Page;
    pageNode.page = 0;
    pageNode.box = QRectF(QPointF(0, 0), pageSize);
    return d->addNode(pageNode, 0);
}

bool funsdFromJson(const QByteArray &json, const QSize &pageSize, FunsdWordOrder order, Document *doc,
                   Annotations *annotations, QString *error)
{
    auto fail = [&](const QString &m) { if (error) *error = m; return false; };
    QJsonParseError pe;
    const QJsonDocument jd = QJsonDocument::fromJson(json, &pe);
    if (jd.isNull())
        return fail(QStringLiteral("invalid JSON: ") + pe.errorString());
    if (!jd.isObject() || !jd.object().value(QStringLiteral("form")).isArray())
        return fail(QStringLiteral("not a FUNSD annotation: no \"form\" array"));
    if (pageSize.width() <= 0 || pageSize.height() <= 0)
        return fail(QStringLiteral("page size is empty"));

    Document d;
    Annotations ann;
    const int pageIdx = startSinglePageDocument(&d, QSizeF(pageSize));

    QSet<QString> entityIds;
    QSet<QPair<QString, QString>> seenLinks;
    std::vector<std::pair<QString, QString>> linkPairs;
    const QJsonArray form = jd.object().value(QStringLiteral("form")).toArray();
    for (int ei = 0; ei < form.size(); ++ei) {
        const QString where = QStringLiteral("form[%1]").arg(ei);
        const QJsonObject e = form[ei].toObject();
        if (!e.value(QStringLiteral("id")).isDouble())
            return fail(where + QStringLiteral(": missing integer \"id\""));
        const QString eid = QStringLiteral("e%1").arg(e.value(QStringLiteral("id")).toInteger());
        if (entityIds.contains(eid))
            return fail(where + QStringLiteral(": duplicate id ") + eid);
        entityIds.insert(eid);
        Node block;
        block.id = eid;
        block.kind = NodeKind::Block;
        block.page = 0;
        block.text = e.value(QStringLiteral("text")).toString();
        if (const QString bad = boxFromJson(e.value(QStringLiteral("box")), &block.box); !bad.isEmpty())
            return fail(where + QStringLiteral(": ") + bad);
        block.tag = e.value(QStringLiteral("label")).toString();
        const int blockIdx = d.addNode(block, pageIdx);

        Entity ent;
        ent.id = eid;
        ent.label = block.tag.toUpper();
        if (ent.label.isEmpty())
            return fail(where + QStringLiteral(": missing \"label\""));
        const QJsonArray words = e.value(QStringLiteral("words")).toArray();
        for (int wi = 0; wi < words.size(); ++wi) {
            const QJsonObject w = words[wi].toObject();
            Word word;
            word.id = eid + QStringLiteral("w%1").arg(wi);
            word.text = w.value(QStringLiteral("text")).toString();
            word.page = 0;
            if (const QString bad = boxFromJson(w.value(QStringLiteral("box")), &word.box); !bad.isEmpty())
                return fail(where + QStringLiteral(".words[%1]: ").arg(wi) + bad);
            word.norm = normaliseBox(word.box, QSizeF(pageSize));
            appendWordWithNode(d, word, blockIdx);
            ent.wordIds << word.id;
        }
        for (const auto &lv : e.value(QStringLiteral("linking")).toArray()) {
            const QJsonArray pair = lv.toArray();
            if (pair.size() != 2 || !pair[0].isDouble() || !pair[1].isDouble())
                return fail(where + QStringLiteral(": \"linking\" entries must be [from, to]"));
            const QString from = QStringLiteral("e%1").arg(pair[0].toInteger());
            const QString to = QStringLiteral("e%1").arg(pair[1].toInteger());
            if (!seenLinks.contains({from, to})) {
                seenLinks.insert({from, to});
                linkPairs.emplace_back(from, to);
            }
        }
        ann.entities.push_back(ent);
    }
    for (const auto &p : linkPairs) {
        if (!entityIds.contains(p.first) || !entityIds.contains(p.second))
            return fail(QStringLiteral("link %1 -> %2 names an unknown entity").arg(p.first, p.second));
        Link l;
        l.id = QStringLiteral("l%1").arg(ann.links.size());
        l.from = p.first;
        l.to = p.second;
        ann.links.push_back(l);
    }

    if (order == FunsdWordOrder::Reading || order == FunsdWordOrder::Layout) {
        std::vector<QRectF> boxes;
        if (order == FunsdWordOrder::Layout)
            for (const Word &w : d.words)
                boxes.push_back(w.box);
        const std::vector<int> ord = order == FunsdWordOrder::Reading ? readingOrder(d.words) : layoutReadingOrder(boxes);
        std::vector<Word> sorted;
        sorted.reserve(ord.size());
        QHash<QString, int> pos;
        for (int i : ord) {
            pos.insert(d.words[size_t(i)].id, int(sorted.size()));
            sorted.push_back(d.words[size_t(i)]);
        }
        d.words = std::move(sorted);
        for (Entity &e : ann.entities)
            std::stable_sort(e.wordIds.begin(), e.wordIds.end(),
                             [&](const QString &a, const QString &b) { return pos.value(a) < pos.value(b); });
    }
    *doc = std::move(d);
    *annotations = std::move(ann);
    return true;
}

bool importFunsdFile(const QString &jsonPath, FunsdWordOrder order, Document *doc, Annotations *annotations,
                     QString *error, const QString &imagePath)
{
    if (const QString why = notARegularFile(jsonPath); !why.isEmpty()) {
        if (error) *error = why;
        return false;
    }
    QFile f(jsonPath);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error) *error = jsonPath + QStringLiteral(": cannot open: ") + f.errorString();
        return false;
    }
    if (f.size() > (qint64(64) << 20)) {
        if (error) *error = jsonPath + QStringLiteral(": file too large for a FUNSD page");
        return false;
    }
    const QByteArray json = f.readAll();
    QString png = imagePath;
    if (png.isEmpty()) {
        const QFileInfo fi(jsonPath);
        png = fi.dir().absoluteFilePath(QStringLiteral("../images/") + fi.completeBaseName() + QStringLiteral(".png"));
        const QString beside = fi.dir().absoluteFilePath(fi.completeBaseName() + QStringLiteral(".png"));
        if (!QFileInfo::exists(png) && QFileInfo::exists(beside))
            png = beside; // a single page copied out of the dataset layout
    }
    QSize size;
    QString err;
    if (!readPngSize(png, &size, &err)) {
        if (error) *error = jsonPath + QStringLiteral(": page image: ") + err;
        return false;
    }
    if (!funsdFromJson(json, size, order, doc, annotations, &err)) {
        if (error) *error = jsonPath + QStringLiteral(": ") + err;
        return false;
    }
    doc->sourcePath = jsonPath;
    doc->title = QFileInfo(jsonPath).completeBaseName();
    doc->pages[0].imagePath = QFileInfo(png).absoluteFilePath();
    return true;
}

QByteArray funsdToJson(const Document &doc, const Annotations &annotations, bool indented)
{
    QHash<QString, int> nodeById;
    for (int i = 0; i < int(doc.nodes.size()); ++i)
        if (doc.nodes[size_t(i)].kind == NodeKind::Block)
            nodeById.insert(doc.nodes[size_t(i)].id, i);
    QHash<QString, int> wordById;
    for (int i = 0; i < int(doc.words.size()); ++i)
        wordById.insert(doc.words[size_t(i)].id, i);

    // Numeric FUNSD ids: keep "e<n>", number the rest after the largest.
    QHash<QString, qint64> numeric;
    qint64 next = 0;
    for (const Entity &e : annotations.entities) {
        bool ok = false;
        const qint64 n = e.id.startsWith(QLatin1Char('e')) ? e.id.mid(1).toLongLong(&ok) : 0;
        if (ok) {
            numeric.insert(e.id, n);
            next = std::max(next, n + 1);
        }
    }
    for (const Entity &e : annotations.entities)
        if (!numeric.contains(e.id))
            numeric.insert(e.id, next++);

    std::vector<const Entity *> ents;
    for (const Entity &e : annotations.entities)
        if (e.state != ReviewState::Rejected)
            ents.push_back(&e);
    std::stable_sort(ents.begin(), ents.end(), [&](const Entity *a, const Entity *b) { return numeric[a->id] < numeric[b->id]; });

    QJsonArray form;
    for (const Entity *e : ents) {
        QJsonObject o;
        o.insert(QStringLiteral("id"), numeric[e->id]);
        o.insert(QStringLiteral("label"), e->label.toLower());
        QJsonArray words;
        QRectF unionBox;
        QStringList texts;
        const auto blockIt = nodeById.constFind(e->id);
        if (blockIt != nodeById.constEnd()) {
            const Node &block = doc.nodes[size_t(*blockIt)];
            for (int c : block.children) {
                const Node &wn = doc.nodes[size_t(c)];
                const int wi = wordById.value(wn.id, -1);
                const Word *w = wi >= 0 ? &doc.words[size_t(wi)] : nullptr;
                words.append(QJsonObject{{QStringLiteral("text"), w ? w->text : wn.text},
                                         {QStringLiteral("box"), boxToJson(w ? w->box : wn.box)}});
            }
            o.insert(QStringLiteral("text"), block.text);
            o.insert(QStringLiteral("box"), boxToJson(block.box));
        } else {
            for (const QString &id : e->wordIds) {
                const int wi = wordById.value(id, -1);
                if (wi < 0)
                    continue;
                const Word &w = doc.words[size_t(wi)];
                words.append(QJsonObject{{QStringLiteral("text"), w.text}, {QStringLiteral("box"), boxToJson(w.box)}});
                unionBox = unionBox.isNull() ? w.box : unionBox.united(w.box);
                texts << w.text;
            }
            o.insert(QStringLiteral("text"), texts.join(QLatin1Char(' ')));
            o.insert(QStringLiteral("box"), boxToJson(unionBox));
        }
        o.insert(QStringLiteral("words"), words);
        QJsonArray linking;
        for (const Link &l : annotations.links) {
            if (l.state == ReviewState::Rejected || (l.from != e->id && l.to != e->id))
                continue;
            if (!numeric.contains(l.from) || !numeric.contains(l.to))
                continue;
            linking.append(QJsonArray{numeric[l.from], numeric[l.to]});
        }
        o.insert(QStringLiteral("linking"), linking);
        form.append(o);
    }
    return QJsonDocument(QJsonObject{{QStringLiteral("form"), form}})
        .toJson(indented ? QJsonDocument::Indented : QJsonDocument::Compact);
}

QStringList funsdSplitFiles(const QString &datasetDir, const QString &split)
{
    const QString sub = split == QLatin1String("test") ? QStringLiteral("testing_data") : QStringLiteral("training_data");
    QDir dir(QDir(datasetDir).absoluteFilePath(sub + QStringLiteral("/annotations")));
    QStringList out;
    const QStringList names = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QString &n : names)
        out << dir.absoluteFilePath(n);
    return out;
}

QStringList funsdTrainingWordIds(const Document &doc)
{
    QStringList ids;
    for (const Word &w : doc.words)
        if (!w.text.trimmed().isEmpty())
            ids << w.id;
    return ids;
}

} // namespace folio
