#include "document/formats/labelstudio.h"

#include "document/formats/datasetlimits.h"
#include "document/formats/jsonvalidate.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <map>

namespace folio {

using namespace formats;

static QJsonObject regionFor(const Document &doc, const Entity &e, const QHash<QString, int> &wordIndex)
{
    QRectF box;
    int page = 0;
    QJsonArray ids;
    for (const QString &w : e.wordIds) {
        const int i = wordIndex.value(w, -1);
        if (i < 0)
            continue;
        box = box.isNull() ? doc.words[i].box : box.united(doc.words[i].box);
        page = doc.words[i].page;
        ids.append(w);
    }
    const QSizeF size = page < int(doc.pages.size()) ? doc.pages[page].size : QSizeF(1000, 1000);
    const double W = size.width() > 0 ? size.width() : 1000, H = size.height() > 0 ? size.height() : 1000;
    QJsonObject value{{QStringLiteral("x"), 100.0 * box.x() / W},
                      {QStringLiteral("y"), 100.0 * box.y() / H},
                      {QStringLiteral("width"), 100.0 * box.width() / W},
                      {QStringLiteral("height"), 100.0 * box.height() / H},
                      {QStringLiteral("rotation"), 0},
                      {QStringLiteral("rectanglelabels"), QJsonArray{e.label}}};
    QJsonObject r{{QStringLiteral("id"), e.id},
                  {QStringLiteral("type"), QStringLiteral("rectanglelabels")},
                  {QStringLiteral("from_name"), QStringLiteral("label")},
                  {QStringLiteral("to_name"), QStringLiteral("image")},
                  {QStringLiteral("original_width"), int(W)},
                  {QStringLiteral("original_height"), int(H)},
                  {QStringLiteral("image_rotation"), 0},
                  {QStringLiteral("value"), value},
                  {QStringLiteral("meta"), QJsonObject{{QStringLiteral("folio_words"), ids}}}};
    if (e.source.kind == AnnotationSource::Model)
        r.insert(QStringLiteral("score"), e.confidence);
    return r;
}

static QJsonObject relationFor(const Link &l)
{
    return {{QStringLiteral("type"), QStringLiteral("relation")},
            {QStringLiteral("from_id"), l.from},
            {QStringLiteral("to_id"), l.to},
            {QStringLiteral("direction"), QStringLiteral("right")}};
}

bool LabelStudioFormat::exportItems(const std::vector<DatasetItem> &items, const QString &outDir,
                                    const DatasetExportOptions &options, QStringList *written, QString *error) const
{
    if (!checkDatasetItems(items, QStringLiteral("export"), error) || !ensureDir(outDir, error))
        return false;
    QJsonArray tasks;
    int taskId = 0;
    for (const DatasetItem &item : items) {
        const Document &doc = item.document;
        QHash<QString, int> wordIndex;
        QJsonArray words;
        for (int i = 0; i < int(doc.words.size()); ++i) {
            const Word &w = doc.words[i];
            wordIndex.insert(w.id, i);
            words.append(QJsonObject{{QStringLiteral("id"), w.id},
                                     {QStringLiteral("text"), w.text},
                                     {QStringLiteral("box"), QJsonArray{w.box.left(), w.box.top(), w.box.right(), w.box.bottom()}}});
        }
        const QSizeF pageSize = doc.pages.empty() ? QSizeF(1000, 1000) : doc.pages[0].size;
        QJsonObject data{{QStringLiteral("image"), doc.pages.empty() ? QString() : doc.pages[0].imagePath},
                         {QStringLiteral("folio_name"), item.name},
                         {QStringLiteral("folio_source"), doc.sourcePath},
                         {QStringLiteral("folio_page"), QJsonArray{pageSize.width(), pageSize.height()}},
                         {QStringLiteral("folio_words"), words}};
        // User result: accepted entities and links between them. Predictions: one per checkpoint.
        QJsonArray userResult;
        std::map<QString, QJsonArray> predicted;
        std::map<QString, std::pair<double, int>> scores;
        QHash<QString, QString> entityGroup; // entity id -> "" (user) or checkpoint
        for (const Entity &e : item.annotations.entities) {
            if (e.state == ReviewState::Rejected)
                continue;
            const QJsonObject region = regionFor(doc, e, wordIndex);
            if (e.state == ReviewState::Suggested) {
                predicted[e.source.checkpoint].append(region);
                scores[e.source.checkpoint].first += e.confidence;
                scores[e.source.checkpoint].second += 1;
                entityGroup.insert(e.id, QStringLiteral("model:") + e.source.checkpoint);
            } else {
                userResult.append(region);
                entityGroup.insert(e.id, QString());
            }
        }
        for (const Link &l : item.annotations.links) {
            if (l.state == ReviewState::Rejected || !entityGroup.contains(l.from) || !entityGroup.contains(l.to))
                continue;
            const QString g = entityGroup.value(l.from);
            if (g != entityGroup.value(l.to))
                continue; // a relation lives inside one result
            if (g.isEmpty() && l.state == ReviewState::Accepted)
                userResult.append(relationFor(l));
            else if (!g.isEmpty())
                predicted[g.mid(6)].append(relationFor(l));
        }
        QJsonObject task{{QStringLiteral("id"), ++taskId}, {QStringLiteral("data"), data}};
        if (!userResult.isEmpty())
            task.insert(QStringLiteral("annotations"), QJsonArray{QJsonObject{{QStringLiteral("result"), userResult}}});
        QJsonArray predictions;
        for (const auto &[ckpt, result] : predicted) {
            const auto &s = scores[ckpt];
            predictions.append(QJsonObject{{QStringLiteral("model_version"), ckpt},
                                           {QStringLiteral("score"), s.second ? s.first / s.second : 0.0},
                                           {QStringLiteral("result"), result}});
        }
        if (!predictions.isEmpty())
            task.insert(QStringLiteral("predictions"), predictions);
        tasks.append(task);
    }
    return writeExportFile(exportFilePath(outDir, options, QStringLiteral(".labelstudio.json")),
                           QJsonDocument(tasks).toJson(QJsonDocument::Indented), written, error);
}

// Reads one result list (of an annotation or a prediction) into entities and links.
static bool readResult(JsonValidator &jv, const QJsonArray &result, const QString &path, const Document &doc,
                       const AnnotationSource &source, double defaultScore, Annotations *out)
{
    QHash<QString, int> wordIndex;
    for (int i = 0; i < int(doc.words.size()); ++i)
        wordIndex.insert(doc.words[i].id, i);
    const ReviewState state = source.kind == AnnotationSource::User ? ReviewState::Accepted : ReviewState::Suggested;
    for (int k = 0; k < result.size(); ++k) {
        const QString rp = jsonIndex(path, k);
        QJsonObject r;
        QString type;
        if (!jv.object(result[k], rp, &r) || !jv.stringField(r, QStringLiteral("type"), rp, &type))
            return false;
        if (type == QLatin1String("relation")) {
            Link l;
            if (!jv.stringField(r, QStringLiteral("from_id"), rp, &l.from) ||
                !jv.stringField(r, QStringLiteral("to_id"), rp, &l.to))
                return false;
            l.id = QStringLiteral("l%1").arg(out->links.size());
            l.source = source;
            l.state = state;
            l.confidence = source.kind == AnnotationSource::User ? 1.0 : defaultScore;
            out->links.push_back(l);
            continue;
        }
        if (type != QLatin1String("rectanglelabels"))
            continue; // other control tags (text areas, choices) are not ours
        Entity e;
        QJsonObject value;
        QJsonArray labels;
        if (!jv.stringField(r, QStringLiteral("id"), rp, &e.id) ||
            !jv.objectField(r, QStringLiteral("value"), rp, &value) ||
            !jv.arrayField(value, QStringLiteral("rectanglelabels"), jsonKey(rp, QStringLiteral("value")), &labels))
            return false;
        if (labels.isEmpty() || !labels[0].isString())
            return jv.fail(jsonKey(jsonKey(rp, QStringLiteral("value")), QStringLiteral("rectanglelabels")),
                           QStringLiteral("expected one label string"));
        e.label = labels[0].toString();
        QJsonObject meta = r.value(QStringLiteral("meta")).toObject();
        if (meta.contains(QStringLiteral("folio_words"))) {
            QJsonArray ids;
            if (!jv.arrayField(meta, QStringLiteral("folio_words"), jsonKey(rp, QStringLiteral("meta")), &ids))
                return false;
            for (int i = 0; i < ids.size(); ++i) {
                QString w;
                if (!jv.string(ids[i], jsonIndex(jsonKey(rp, QStringLiteral("meta.folio_words")), i), &w))
                    return false;
                if (!wordIndex.contains(w))
                    return jv.fail(jsonIndex(jsonKey(rp, QStringLiteral("meta.folio_words")), i),
                                   QStringLiteral("unknown word id \"%1\"").arg(w));
                e.wordIds << w;
            }
        } else {
            double x, y, w, h;
            const QString vp = jsonKey(rp, QStringLiteral("value"));
            if (!jv.number(value.value(QStringLiteral("x")), jsonKey(vp, QStringLiteral("x")), &x) ||
                !jv.number(value.value(QStringLiteral("y")), jsonKey(vp, QStringLiteral("y")), &y) ||
                !jv.number(value.value(QStringLiteral("width")), jsonKey(vp, QStringLiteral("width")), &w) ||
                !jv.number(value.value(QStringLiteral("height")), jsonKey(vp, QStringLiteral("height")), &h))
                return false;
            const QSizeF size = doc.pages.empty() ? QSizeF(1000, 1000) : doc.pages[0].size;
            const QRectF rect(x * size.width() / 100, y * size.height() / 100, w * size.width() / 100,
                              h * size.height() / 100);
            for (const Word &word : doc.words)
                if (word.page == 0 && rect.contains(word.box.center()))
                    e.wordIds << word.id;
        }
        e.source = source;
        e.state = state;
        e.confidence = source.kind == AnnotationSource::User ? 1.0 : r.value(QStringLiteral("score")).toDouble(defaultScore);
        out->entities.push_back(e);
    }
    return true;
}

bool LabelStudioFormat::importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const
{
    QByteArray bytes;
    if (!readWholeFile(path, &bytes, error, DatasetLimits::maxJsonFileBytes))
        return false;
    JsonValidator jv(path);
    QJsonValue root;
    if (!jv.parse(bytes, &root)) {
        *error = jv.error();
        return false;
    }
    QJsonArray tasks = root.isObject() ? QJsonArray{root} : root.toArray();
    if (!root.isArray() && !root.isObject()) {
        jv.fail(QStringLiteral("$"), QStringLiteral("expected an array of tasks"));
        *error = jv.error();
        return false;
    }
    std::vector<DatasetItem> out;
    auto failed = [&]() {
        *error = jv.error();
        return false;
    };
    for (int t = 0; t < tasks.size(); ++t) {
        const QString tp = root.isArray() ? jsonIndex(QStringLiteral("$"), t) : QStringLiteral("$");
        QJsonObject task, data;
        QJsonArray words;
        if (!jv.object(tasks[t], tp, &task) || !jv.objectField(task, QStringLiteral("data"), tp, &data))
            return failed();
        const QString dp = jsonKey(tp, QStringLiteral("data"));
        if (!data.contains(QStringLiteral("folio_words")))
            return jv.fail(jsonKey(dp, QStringLiteral("folio_words")),
                           QStringLiteral("missing (Folio imports the tasks it exported, with their words)")),
                   failed();
        if (!jv.arrayField(data, QStringLiteral("folio_words"), dp, &words))
            return failed();
        DatasetItem item;
        QString image, source;
        if (!jv.stringField(data, QStringLiteral("folio_name"), dp, &item.name, false) ||
            !jv.stringField(data, QStringLiteral("folio_source"), dp, &source, false) ||
            !jv.stringField(data, QStringLiteral("image"), dp, &image, false))
            return failed();
        if (item.name.isEmpty())
            item.name = QStringLiteral("task%1").arg(task.value(QStringLiteral("id")).toInt(t + 1));
        QSizeF pageSize(1000, 1000);
        if (data.contains(QStringLiteral("folio_page"))) {
            const QJsonArray ps = data.value(QStringLiteral("folio_page")).toArray();
            if (ps.size() != 2 || !ps[0].isDouble() || !ps[1].isDouble())
                return jv.fail(jsonKey(dp, QStringLiteral("folio_page")), QStringLiteral("expected [width, height]")), failed();
            pageSize = QSizeF(ps[0].toDouble(), ps[1].toDouble());
            for (int k = 0; k < 2; ++k)
                if (!(pageSize.width() > 0 && pageSize.height() > 0) || ps[k].toDouble() > DatasetLimits::maxCoordinate)
                    return jv.fail(jsonIndex(jsonKey(dp, QStringLiteral("folio_page")), k),
                                   QStringLiteral("page size %1 x %2 is outside 1..%3")
                                       .arg(pageSize.width()).arg(pageSize.height())
                                       .arg(DatasetLimits::maxCoordinate, 0, 'f', 0)),
                           failed();
        }
        QStringList texts, ids;
        std::vector<QRectF> boxes;
        for (int i = 0; i < words.size(); ++i) {
            const QString wp = jsonIndex(jsonKey(dp, QStringLiteral("folio_words")), i);
            QJsonObject w;
            QString id, text;
            double b[4];
            if (!jv.object(words[i], wp, &w) || !jv.stringField(w, QStringLiteral("id"), wp, &id) ||
                !jv.stringField(w, QStringLiteral("text"), wp, &text) ||
                !jv.box(w.value(QStringLiteral("box")), jsonKey(wp, QStringLiteral("box")), b))
                return failed();
            ids << id;
            texts << text;
            boxes.push_back(QRectF(QPointF(b[0], b[1]), QPointF(b[2], b[3])));
        }
        item.document = documentFromWords(item.name, texts, std::vector<NormBox>(size_t(texts.size())), pageSize, image);
        for (int i = 0; i < int(item.document.words.size()); ++i) {
            Word &w = item.document.words[i];
            w.id = ids[i];
            w.box = boxes[size_t(i)];
            item.document.nodes[size_t(w.node)].id = ids[i];
            item.document.nodes[size_t(w.node)].box = w.box;
        }
        // The task's own document when it came from a Folio export: a re-import updates it.
        if (!source.isEmpty())
            item.document.sourcePath = source;
        item.document.normaliseWordBoxes();
        QJsonArray annotations, predictions;
        if (!jv.arrayField(task, QStringLiteral("annotations"), tp, &annotations, false) ||
            !jv.arrayField(task, QStringLiteral("predictions"), tp, &predictions, false))
            return failed();
        if (!annotations.isEmpty()) {
            const int last = int(annotations.size()) - 1;
            const QString ap = jsonIndex(jsonKey(tp, QStringLiteral("annotations")), last);
            QJsonObject a;
            QJsonArray result;
            if (!jv.object(annotations[last], ap, &a) || !jv.arrayField(a, QStringLiteral("result"), ap, &result) ||
                !readResult(jv, result, jsonKey(ap, QStringLiteral("result")), item.document, AnnotationSource{},
                            1.0, &item.annotations))
                return failed();
        }
        for (int k = 0; k < predictions.size(); ++k) {
            const QString pp = jsonIndex(jsonKey(tp, QStringLiteral("predictions")), k);
            QJsonObject p;
            QJsonArray result;
            if (!jv.object(predictions[k], pp, &p) || !jv.arrayField(p, QStringLiteral("result"), pp, &result))
                return failed();
            AnnotationSource src;
            src.kind = AnnotationSource::Model;
            src.checkpoint = p.value(QStringLiteral("model_version")).toString();
            if (!readResult(jv, result, jsonKey(pp, QStringLiteral("result")), item.document, src,
                            p.value(QStringLiteral("score")).toDouble(0.0), &item.annotations))
                return failed();
        }
        if (!checkDatasetItem(item, QStringLiteral("%1: %2").arg(path, tp), error))
            return false;
        out.push_back(std::move(item));
    }
    *items = std::move(out);
    return true;
}

} // namespace folio
