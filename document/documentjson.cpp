#include "document/documentjson.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace folio {

static QJsonArray rectToJson(const QRectF &r)
{
    return QJsonArray{r.left(), r.top(), r.right(), r.bottom()};
}

static QJsonArray normToJson(const NormBox &b)
{
    return QJsonArray{b.x0, b.y0, b.x1, b.y1};
}

static QString sourceToString(const AnnotationSource &s)
{
    return s.kind == AnnotationSource::User ? QStringLiteral("user") : QStringLiteral("model:") + s.checkpoint;
}

static QJsonArray stringsToJson(const QStringList &list)
{
    QJsonArray a;
    for (const QString &s : list) a.append(s);
    return a;
}

static QJsonObject qsNodeToJson(const QsNode &n)
{
    QJsonObject o;
    if (!n.id.isEmpty())
        o.insert(QStringLiteral("id"), n.id);
    o.insert(QStringLiteral("question"), n.question);
    o.insert(QStringLiteral("summary"), n.summary);
    o.insert(QStringLiteral("evidence"), stringsToJson(n.evidenceSections));
    if (!n.evidenceSpans.empty()) {
        QJsonArray spans;
        for (const QsEvidenceSpan &s : n.evidenceSpans)
            spans.append(QJsonObject{{QStringLiteral("first"), s.firstWord},
                                     {QStringLiteral("last"), s.lastWord},
                                     {QStringLiteral("text"), s.text}});
        o.insert(QStringLiteral("spans"), spans);
    }
    if (n.source.kind != AnnotationSource::User)
        o.insert(QStringLiteral("source"), sourceToString(n.source));
    if (n.confidence != 1.0)
        o.insert(QStringLiteral("confidence"), n.confidence);
    if (n.state != ReviewState::Accepted)
        o.insert(QStringLiteral("state"), reviewStateName(n.state));
    if (n.evidenceMissing)
        o.insert(QStringLiteral("evidenceMissing"), true);
    QJsonArray children;
    for (const QsNode &c : n.children) children.append(qsNodeToJson(c));
    o.insert(QStringLiteral("children"), children);
    return o;
}

QJsonObject annotationsToJsonObject(const Annotations &a)
{
    QJsonArray entities;
    for (const Entity &e : a.entities) {
        entities.append(QJsonObject{{QStringLiteral("id"), e.id},
                                    {QStringLiteral("label"), e.label},
                                    {QStringLiteral("words"), stringsToJson(e.wordIds)},
                                    {QStringLiteral("source"), sourceToString(e.source)},
                                    {QStringLiteral("confidence"), e.confidence},
                                    {QStringLiteral("state"), reviewStateName(e.state)}});
    }
    QJsonArray links;
    for (const Link &l : a.links) {
        links.append(QJsonObject{{QStringLiteral("id"), l.id},
                                 {QStringLiteral("from"), l.from},
                                 {QStringLiteral("to"), l.to},
                                 {QStringLiteral("source"), sourceToString(l.source)},
                                 {QStringLiteral("confidence"), l.confidence},
                                 {QStringLiteral("state"), reviewStateName(l.state)}});
    }
    QJsonArray fields;
    for (const FieldValue &f : a.fields) {
        fields.append(QJsonObject{{QStringLiteral("field"), f.field},
                                  {QStringLiteral("words"), stringsToJson(f.wordIds)},
                                  {QStringLiteral("text"), f.text},
                                  {QStringLiteral("source"), sourceToString(f.source)},
                                  {QStringLiteral("confidence"), f.confidence},
                                  {QStringLiteral("state"), reviewStateName(f.state)}});
    }
    QJsonObject o{{QStringLiteral("entities"), entities},
                  {QStringLiteral("links"), links},
                  {QStringLiteral("fields"), fields}};
    if (!a.qsRoots.empty() || !a.qsSummary.isEmpty()) {
        QJsonArray nodes;
        for (const QsNode &n : a.qsRoots) nodes.append(qsNodeToJson(n));
        o.insert(QStringLiteral("qs"), QJsonObject{{QStringLiteral("summary"), a.qsSummary},
                                                   {QStringLiteral("nodes"), nodes}});
    }
    return o;
}

static QJsonObject pageToJson(const Page &p)
{
    QJsonObject o{{QStringLiteral("width"), p.size.width()}, {QStringLiteral("height"), p.size.height()}};
    if (!p.imagePath.isEmpty()) o.insert(QStringLiteral("image"), p.imagePath);
    if (p.dpi != 0) o.insert(QStringLiteral("dpi"), p.dpi);
    return o;
}

static QJsonObject nodeToJson(const Node &n)
{
    QJsonObject o{{QStringLiteral("id"), n.id},
                  {QStringLiteral("kind"), nodeKindName(n.kind)},
                  {QStringLiteral("parent"), n.parent}};
    if (!n.step.isEmpty()) o.insert(QStringLiteral("step"), n.step);
    if (!n.tag.isEmpty()) o.insert(QStringLiteral("tag"), n.tag);
    if (!n.text.isEmpty()) o.insert(QStringLiteral("text"), n.text);
    if (!n.attributes.isEmpty()) {
        QJsonArray attrs;
        for (const auto &kv : n.attributes) attrs.append(QJsonArray{kv.first, kv.second});
        o.insert(QStringLiteral("attributes"), attrs);
    }
    if (n.page >= 0) o.insert(QStringLiteral("page"), n.page);
    if (!n.box.isNull()) o.insert(QStringLiteral("box"), rectToJson(n.box));
    if (!n.visible) o.insert(QStringLiteral("hidden"), true);
    if (n.confidence >= 0) o.insert(QStringLiteral("confidence"), n.confidence);
    return o;
}

static QJsonObject wordToJson(const Word &w)
{
    QJsonObject o{{QStringLiteral("id"), w.id},
                  {QStringLiteral("text"), w.text},
                  {QStringLiteral("page"), w.page},
                  {QStringLiteral("box"), rectToJson(w.box)},
                  {QStringLiteral("norm"), normToJson(w.norm)},
                  {QStringLiteral("node"), w.node}};
    if (w.confidence >= 0) o.insert(QStringLiteral("confidence"), w.confidence);
    if (w.userEdited) o.insert(QStringLiteral("edited"), true);
    return o;
}

static QJsonObject sectionToJson(const Section &s)
{
    return QJsonObject{{QStringLiteral("title"), s.title},
                       {QStringLiteral("level"), s.level},
                       {QStringLiteral("parent"), s.parent},
                       {QStringLiteral("node"), s.node},
                       {QStringLiteral("words"), QJsonArray{s.firstWord, s.endWord}}};
}

QJsonObject documentToJsonObject(const Document &doc, const Annotations *annotations)
{
    QJsonObject root;
    root.insert(QStringLiteral("format"), QStringLiteral("folio.document"));
    root.insert(QStringLiteral("version"), 1);
    root.insert(QStringLiteral("source"), doc.sourcePath);
    root.insert(QStringLiteral("kind"), sourceKindName(doc.kind));
    root.insert(QStringLiteral("title"), doc.title);

    QJsonArray pages;
    for (const Page &p : doc.pages)
        pages.append(pageToJson(p));
    root.insert(QStringLiteral("pages"), pages);
    QJsonArray nodes;
    for (const Node &n : doc.nodes)
        nodes.append(nodeToJson(n));
    root.insert(QStringLiteral("nodes"), nodes);
    QJsonArray words;
    for (const Word &w : doc.words)
        words.append(wordToJson(w));
    root.insert(QStringLiteral("words"), words);
    QJsonArray sections;
    for (const Section &sec : doc.sections)
        sections.append(sectionToJson(sec));
    root.insert(QStringLiteral("sections"), sections);
    if (annotations)
        root.insert(QStringLiteral("annotations"), annotationsToJsonObject(*annotations));
    return root;
}

// Qt's JSON reader drops a raw U+FEFF at the start of a string value, so such a value did not
// read back (found by fuzz_format_swde): it is written escaped. (A raw BOM after a quote only
// occurs at the start of a value, or after an escaped quote, where "\ufeff" reads the same.)
static void escapeLeadingBoms(QByteArray &json)
{
    json.replace("\"\xEF\xBB\xBF", "\"\\ufeff");
}

QByteArray documentToJson(const Document &doc, const Annotations *annotations, bool indented)
{
    QByteArray json = QJsonDocument(documentToJsonObject(doc, annotations))
                          .toJson(indented ? QJsonDocument::Indented : QJsonDocument::Compact);
    escapeLeadingBoms(json);
    return json;
}

namespace {

// Writes the text QJsonDocument would write for the whole document, one array element at a time
// (the same key order, indentation and number forms), so no second copy of the page is built.
class StreamingWriter
{
public:
    StreamingWriter(QIODevice *out, bool indented) : m_out(out), m_indented(indented) {}
    bool ok() const { return m_ok; }

    void write(const QByteArray &bytes)
    {
        if (m_ok && m_out->write(bytes) != bytes.size())
            m_ok = false;
    }
    // The text of `value` nested `depth` levels deep (indented: its continuation lines shifted).
    QByteArray text(const QJsonValue &value, int depth) const
    {
        QByteArray t = QJsonDocument(QJsonArray{value}).toJson(m_indented ? QJsonDocument::Indented : QJsonDocument::Compact);
        // Unwrap "[...]": compact "[x]"; indented "[\n    x\n]\n" (x's lines indented by one level).
        if (!m_indented) {
            t = t.mid(1, t.size() - 2);
        } else {
            t = t.mid(2, t.size() - 5); // drop "[\n" and "\n]\n"
            const QByteArray shift(4 * (depth - 1), ' ');
            QByteArray shifted;
            shifted.reserve(t.size() + t.count('\n') * shift.size() + shift.size());
            for (const QByteArray &line : t.split('\n')) {
                if (!shifted.isEmpty())
                    shifted += '\n';
                shifted += shift + line;
            }
            t = shifted;
        }
        escapeLeadingBoms(t);
        return t;
    }
    void member(const char *key, bool first)
    {
        write(QByteArray(first ? "" : ",") + (m_indented ? "\n    \"" : "\"") + key + (m_indented ? "\": " : "\":"));
    }
    void scalarMember(const char *key, const QJsonValue &v, bool first)
    {
        member(key, first);
        QByteArray t = text(v, 1);
        write(m_indented ? t.trimmed() : t);
    }
    template <typename T, typename ToJson>
    void arrayMember(const char *key, const std::vector<T> &items, ToJson toJson, bool first)
    {
        member(key, first);
        if (items.empty()) {
            write(m_indented ? "[\n    ]" : "[]");
            return;
        }
        write("[");
        bool firstItem = true;
        for (const T &item : items) {
            if (!firstItem)
                write(",");
            if (m_indented)
                write("\n");
            write(text(toJson(item), 2));
            firstItem = false;
        }
        write(m_indented ? "\n    ]" : "]");
    }

private:
    QIODevice *m_out;
    bool m_indented;
    bool m_ok = true;
};

} // namespace

bool writeDocumentJson(QIODevice *out, const Document &doc, const Annotations *annotations, bool indented)
{
    StreamingWriter w(out, indented);
    w.write("{");
    bool first = true;
    if (annotations) { // keys in QJsonObject's (sorted) order
        w.member("annotations", true);
        QByteArray t = w.text(annotationsToJsonObject(*annotations), 1);
        w.write(indented ? t.trimmed() : t);
        first = false;
    }
    w.scalarMember("format", QStringLiteral("folio.document"), first);
    w.scalarMember("kind", sourceKindName(doc.kind), false);
    w.arrayMember("nodes", doc.nodes, nodeToJson, false);
    w.arrayMember("pages", doc.pages, pageToJson, false);
    w.arrayMember("sections", doc.sections, sectionToJson, false);
    w.scalarMember("source", doc.sourcePath, false);
    w.scalarMember("title", doc.title, false);
    w.scalarMember("version", 1, false);
    w.arrayMember("words", doc.words, wordToJson, false);
    w.write(indented ? "\n}\n" : "}");
    return w.ok();
}

// ---- reading ---------------------------------------------------------------

// A whole number that int holds (converting any other double to int is undefined).
static bool fitsInt(double d)
{
    return d >= -2147483648.0 && d <= 2147483647.0 && d == std::floor(d);
}

namespace {

// Small strict reader: every accessor records the first error with its JSON path.
class Reader
{
public:
    QString error;
    bool ok() const { return error.isEmpty(); }
    void fail(const QString &where, const QString &what)
    {
        if (error.isEmpty()) error = where + QStringLiteral(": ") + what;
    }
    QString string(const QJsonObject &o, const char *key, const QString &where, bool required = true)
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined()) {
            if (required) fail(where, QStringLiteral("missing \"%1\"").arg(QLatin1String(key)));
            return {};
        }
        if (!v.isString()) fail(where, QStringLiteral("\"%1\" must be a string").arg(QLatin1String(key)));
        return v.toString();
    }
    double number(const QJsonObject &o, const char *key, const QString &where, bool required, double fallback)
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined()) {
            if (required) fail(where, QStringLiteral("missing \"%1\"").arg(QLatin1String(key)));
            return fallback;
        }
        if (!v.isDouble()) fail(where, QStringLiteral("\"%1\" must be a number").arg(QLatin1String(key)));
        return v.toDouble(fallback);
    }
    int integer(const QJsonObject &o, const char *key, const QString &where, bool required, int fallback)
    {
        const double d = number(o, key, where, required, fallback);
        if (!fitsInt(d)) { // int(d) of a larger number is undefined (found by fuzz_documentjson)
            fail(where, QStringLiteral("\"%1\" must be an integer").arg(QLatin1String(key)));
            return fallback;
        }
        return int(d);
    }
    QJsonArray array(const QJsonObject &o, const char *key, const QString &where, bool required = true)
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined()) {
            if (required) fail(where, QStringLiteral("missing \"%1\"").arg(QLatin1String(key)));
            return {};
        }
        if (!v.isArray()) fail(where, QStringLiteral("\"%1\" must be an array").arg(QLatin1String(key)));
        return v.toArray();
    }
    QJsonObject object(const QJsonValue &v, const QString &where)
    {
        if (!v.isObject()) fail(where, QStringLiteral("must be an object"));
        return v.toObject();
    }
    QStringList strings(const QJsonObject &o, const char *key, const QString &where)
    {
        QStringList out;
        const QJsonArray a = array(o, key, where, false);
        for (const QJsonValue &v : a) {
            if (!v.isString()) { fail(where, QStringLiteral("\"%1\" must hold strings").arg(QLatin1String(key))); break; }
            out << v.toString();
        }
        return out;
    }
    bool quad(const QJsonObject &o, const char *key, const QString &where, double out[4], bool required)
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined()) {
            if (required) fail(where, QStringLiteral("missing \"%1\"").arg(QLatin1String(key)));
            return false;
        }
        const QJsonArray a = v.toArray();
        if (!v.isArray() || a.size() != 4) {
            fail(where, QStringLiteral("\"%1\" must be an array of 4 numbers").arg(QLatin1String(key)));
            return false;
        }
        for (int i = 0; i < 4; ++i) {
            if (!a[i].isDouble()) { fail(where, QStringLiteral("\"%1\" must be an array of 4 numbers").arg(QLatin1String(key))); return false; }
            out[i] = a[i].toDouble();
        }
        return true;
    }
    AnnotationSource source(const QJsonObject &o, const QString &where)
    {
        AnnotationSource s;
        const QString text = string(o, "source", where, false);
        if (text.isEmpty() || text == QLatin1String("user")) return s;
        if (!text.startsWith(QLatin1String("model:"))) { fail(where, QStringLiteral("unknown source \"%1\"").arg(text)); return s; }
        s.kind = AnnotationSource::Model;
        s.checkpoint = text.mid(6);
        return s;
    }
    ReviewState state(const QJsonObject &o, const QString &where)
    {
        const QString text = string(o, "state", where, false);
        if (text.isEmpty()) return ReviewState::Accepted;
        bool good = false;
        const ReviewState s = reviewStateFromName(text, &good);
        if (!good) fail(where, QStringLiteral("unknown state \"%1\"").arg(text));
        return s;
    }
};

static QRectF rectFrom(const double q[4])
{
    return QRectF(QPointF(q[0], q[1]), QPointF(q[2], q[3]));
}

static bool readQsNode(Reader &r, const QJsonValue &value, const QString &where, QsNode *out, int depth)
{
    if (depth > 256) { r.fail(where, QStringLiteral("hierarchy nested deeper than 256 levels")); return false; }
    const QJsonObject o = r.object(value, where);
    if (!r.ok()) return false;
    out->question = r.string(o, "question", where, false);
    out->summary = r.string(o, "summary", where, false);
    out->id = r.string(o, "id", where, false);
    out->evidenceSections = r.strings(o, "evidence", where);
    const QJsonArray spans = r.array(o, "spans", where, false);
    for (int i = 0; i < spans.size() && r.ok(); ++i) {
        const QString at = where + QStringLiteral(".spans[%1]").arg(i);
        const QJsonObject so = r.object(spans[i], at);
        if (!r.ok()) break;
        out->evidenceSpans.push_back({r.string(so, "first", at), r.string(so, "last", at), r.string(so, "text", at, false)});
    }
    out->source = r.source(o, where);
    out->confidence = r.number(o, "confidence", where, false, 1.0);
    out->state = r.state(o, where);
    const QJsonValue missing = o.value(QLatin1String("evidenceMissing"));
    if (!missing.isUndefined() && !missing.isBool()) r.fail(where, QStringLiteral("\"evidenceMissing\" must be true or false"));
    out->evidenceMissing = missing.toBool(false);
    const QJsonArray children = r.array(o, "children", where, false);
    for (int i = 0; i < children.size() && r.ok(); ++i) {
        QsNode child;
        if (readQsNode(r, children[i], where + QStringLiteral(".children[%1]").arg(i), &child, depth + 1))
            out->children.push_back(std::move(child));
    }
    return r.ok();
}

static bool readAnnotations(Reader &r, const QJsonObject &o, Annotations *a)
{
    const QJsonArray entities = r.array(o, "entities", QStringLiteral("annotations"), false);
    for (int i = 0; i < entities.size() && r.ok(); ++i) {
        const QString where = QStringLiteral("annotations.entities[%1]").arg(i);
        const QJsonObject e = r.object(entities[i], where);
        if (!r.ok()) break;
        Entity ent;
        ent.id = r.string(e, "id", where);
        ent.label = r.string(e, "label", where);
        ent.wordIds = r.strings(e, "words", where);
        ent.source = r.source(e, where);
        ent.confidence = r.number(e, "confidence", where, false, 1.0);
        ent.state = r.state(e, where);
        a->entities.push_back(ent);
    }
    const QJsonArray links = r.array(o, "links", QStringLiteral("annotations"), false);
    for (int i = 0; i < links.size() && r.ok(); ++i) {
        const QString where = QStringLiteral("annotations.links[%1]").arg(i);
        const QJsonObject e = r.object(links[i], where);
        if (!r.ok()) break;
        Link l;
        l.id = r.string(e, "id", where, false);
        l.from = r.string(e, "from", where);
        l.to = r.string(e, "to", where);
        l.source = r.source(e, where);
        l.confidence = r.number(e, "confidence", where, false, 1.0);
        l.state = r.state(e, where);
        a->links.push_back(l);
    }
    const QJsonArray fields = r.array(o, "fields", QStringLiteral("annotations"), false);
    for (int i = 0; i < fields.size() && r.ok(); ++i) {
        const QString where = QStringLiteral("annotations.fields[%1]").arg(i);
        const QJsonObject e = r.object(fields[i], where);
        if (!r.ok()) break;
        FieldValue f;
        f.field = r.string(e, "field", where);
        f.wordIds = r.strings(e, "words", where);
        f.text = r.string(e, "text", where, false);
        f.source = r.source(e, where);
        f.confidence = r.number(e, "confidence", where, false, 1.0);
        f.state = r.state(e, where);
        a->fields.push_back(f);
    }
    if (o.contains(QLatin1String("qs")) && r.ok()) {
        const QJsonObject qs = r.object(o.value(QLatin1String("qs")), QStringLiteral("annotations.qs"));
        a->qsSummary = r.string(qs, "summary", QStringLiteral("annotations.qs"), false);
        const QJsonArray nodes = r.array(qs, "nodes", QStringLiteral("annotations.qs"), false);
        for (int i = 0; i < nodes.size() && r.ok(); ++i) {
            QsNode n;
            if (readQsNode(r, nodes[i], QStringLiteral("annotations.qs.nodes[%1]").arg(i), &n, 0))
                a->qsRoots.push_back(std::move(n));
        }
    }
    return r.ok();
}

} // namespace

bool annotationsFromJsonObject(const QJsonObject &object, Annotations *annotations, QString *error)
{
    Reader r;
    Annotations a;
    readAnnotations(r, object, &a);
    if (!r.ok()) {
        if (error) *error = r.error;
        return false;
    }
    *annotations = std::move(a);
    return true;
}

bool documentFromJson(const QByteArray &json, Document *docOut, Annotations *annotationsOut, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument jd = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        if (error) *error = QStringLiteral("not valid JSON at byte %1: %2").arg(parseError.offset).arg(parseError.errorString());
        return false;
    }
    if (!jd.isObject()) {
        if (error) *error = QStringLiteral("top level must be a JSON object");
        return false;
    }
    const QJsonObject root = jd.object();
    Reader r;
    if (root.value(QLatin1String("format")).toString() != QLatin1String("folio.document"))
        r.fail(QStringLiteral("format"), QStringLiteral("not a Folio document (expected \"format\": \"folio.document\")"));
    const int version = r.integer(root, "version", QStringLiteral("document"), true, 0);
    if (r.ok() && version != 1)
        r.fail(QStringLiteral("version"), QStringLiteral("unsupported version %1 (this Folio reads 1)").arg(version));

    Document doc;
    doc.sourcePath = r.string(root, "source", QStringLiteral("document"), false);
    doc.kind = sourceKindFromName(r.string(root, "kind", QStringLiteral("document"), false));
    doc.title = r.string(root, "title", QStringLiteral("document"), false);

    const QJsonArray pages = r.array(root, "pages", QStringLiteral("document"));
    for (int i = 0; i < pages.size() && r.ok(); ++i) {
        const QString where = QStringLiteral("pages[%1]").arg(i);
        const QJsonObject o = r.object(pages[i], where);
        Page p;
        p.size = QSizeF(r.number(o, "width", where, true, 0), r.number(o, "height", where, true, 0));
        if (r.ok() && (p.size.width() < 0 || p.size.height() < 0)) r.fail(where, QStringLiteral("negative page size"));
        p.imagePath = r.string(o, "image", where, false);
        p.dpi = r.number(o, "dpi", where, false, 0);
        doc.pages.push_back(p);
    }

    const QJsonArray nodes = r.array(root, "nodes", QStringLiteral("document"));
    doc.nodes.reserve(size_t(nodes.size()));
    for (int i = 0; i < nodes.size() && r.ok(); ++i) {
        const QString where = QStringLiteral("nodes[%1]").arg(i);
        const QJsonObject o = r.object(nodes[i], where);
        if (!r.ok()) break;
        Node n;
        n.id = r.string(o, "id", where);
        bool kindOk = false;
        n.kind = nodeKindFromName(r.string(o, "kind", where), &kindOk);
        if (r.ok() && !kindOk) r.fail(where, QStringLiteral("unknown node kind \"%1\"").arg(o.value(QLatin1String("kind")).toString()));
        const int parent = r.integer(o, "parent", where, true, -1);
        if (r.ok() && (parent < -1 || parent >= i))
            r.fail(where, QStringLiteral("parent %1 must be -1 or the index of an earlier node").arg(parent));
        if (r.ok() && (parent == -1) != (i == 0))
            r.fail(where, i == 0 ? QStringLiteral("the first node must be the root (parent -1)") : QStringLiteral("only the first node may have parent -1"));
        n.step = r.string(o, "step", where, false);
        n.tag = r.string(o, "tag", where, false);
        n.text = r.string(o, "text", where, false);
        const QJsonArray attrs = r.array(o, "attributes", where, false);
        for (const QJsonValue &kv : attrs) {
            const QJsonArray pair = kv.toArray();
            if (!kv.isArray() || pair.size() != 2 || !pair[0].isString() || !pair[1].isString()) {
                r.fail(where, QStringLiteral("\"attributes\" must be [name, value] string pairs"));
                break;
            }
            n.attributes.append({pair[0].toString(), pair[1].toString()});
        }
        n.page = r.integer(o, "page", where, false, -1);
        double q[4];
        if (r.quad(o, "box", where, q, false)) n.box = rectFrom(q);
        n.visible = !o.value(QLatin1String("hidden")).toBool(false);
        n.confidence = r.number(o, "confidence", where, false, -1);
        if (r.ok()) doc.addNode(std::move(n), parent);
    }

    const QJsonArray words = r.array(root, "words", QStringLiteral("document"));
    doc.words.reserve(size_t(words.size()));
    for (int i = 0; i < words.size() && r.ok(); ++i) {
        const QString where = QStringLiteral("words[%1]").arg(i);
        const QJsonObject o = r.object(words[i], where);
        if (!r.ok()) break;
        Word w;
        w.id = r.string(o, "id", where);
        w.text = r.string(o, "text", where);
        w.page = r.integer(o, "page", where, true, 0);
        if (r.ok() && (w.page < 0 || w.page >= int(doc.pages.size())))
            r.fail(where, QStringLiteral("page %1 does not exist (%2 pages)").arg(w.page).arg(doc.pages.size()));
        double q[4];
        if (r.quad(o, "box", where, q, true)) w.box = rectFrom(q);
        if (r.quad(o, "norm", where, q, true)) {
            if (fitsInt(q[0]) && fitsInt(q[1]) && fitsInt(q[2]) && fitsInt(q[3]))
                w.norm = NormBox{int(q[0]), int(q[1]), int(q[2]), int(q[3])};
            else
                r.fail(where, QStringLiteral("\"norm\" must be an array of 4 integers"));
        }
        w.node = r.integer(o, "node", where, true, -1);
        if (r.ok() && (w.node < -1 || w.node >= int(doc.nodes.size())))
            r.fail(where, QStringLiteral("node %1 does not exist").arg(w.node));
        w.confidence = r.number(o, "confidence", where, false, -1);
        w.userEdited = o.value(QLatin1String("edited")).toBool(false);
        doc.words.push_back(std::move(w));
    }

    const QJsonArray sections = r.array(root, "sections", QStringLiteral("document"), false);
    for (int i = 0; i < sections.size() && r.ok(); ++i) {
        const QString where = QStringLiteral("sections[%1]").arg(i);
        const QJsonObject o = r.object(sections[i], where);
        if (!r.ok()) break;
        Section s;
        s.title = r.string(o, "title", where, false);
        s.level = r.integer(o, "level", where, true, 0);
        s.parent = r.integer(o, "parent", where, true, -1);
        if (r.ok() && (s.parent < -1 || s.parent >= i))
            r.fail(where, QStringLiteral("parent %1 must be -1 or an earlier section").arg(s.parent));
        s.node = r.integer(o, "node", where, false, -1);
        if (r.ok() && (s.node < -1 || s.node >= int(doc.nodes.size())))
            r.fail(where, QStringLiteral("node %1 does not exist").arg(s.node));
        const QJsonArray range = r.array(o, "words", where);
        if (r.ok()) {
            if (range.size() != 2 || !range[0].isDouble() || !range[1].isDouble()) {
                r.fail(where, QStringLiteral("\"words\" must be [first, end]"));
            } else {
                s.firstWord = range[0].toInt();
                s.endWord = range[1].toInt();
                if (s.firstWord < 0 || s.endWord < s.firstWord || s.endWord > int(doc.words.size()))
                    r.fail(where, QStringLiteral("word range [%1, %2) is outside the %3 words").arg(s.firstWord).arg(s.endWord).arg(doc.words.size()));
            }
        }
        if (!r.ok()) break;
        const int index = int(doc.sections.size());
        doc.sections.push_back(s);
        if (s.parent >= 0) doc.sections[size_t(s.parent)].children.push_back(index);
    }

    Annotations annotations;
    if (r.ok() && root.contains(QLatin1String("annotations")))
        readAnnotations(r, r.object(root.value(QLatin1String("annotations")), QStringLiteral("annotations")), &annotations);

    if (!r.ok()) {
        if (error) *error = r.error;
        return false;
    }
    *docOut = std::move(doc);
    if (annotationsOut) *annotationsOut = std::move(annotations);
    return true;
}

bool readDocumentJsonFile(const QString &path, Document *doc, Annotations *annotations, QString *error, qint64 maxBytes)
{
    QFile file(path);
    if (!QFileInfo(path).isFile()) {
        if (error) *error = path + QStringLiteral(": no such file");
        return false;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        if (error) *error = path + QStringLiteral(": cannot open: ") + file.errorString();
        return false;
    }
    if (file.size() > maxBytes) {
        if (error) *error = path + QStringLiteral(": file is %1 bytes, larger than the %2-byte limit").arg(file.size()).arg(maxBytes);
        return false;
    }
    QString problem;
    if (!documentFromJson(file.readAll(), doc, annotations, &problem)) {
        if (error) *error = path + QStringLiteral(": ") + problem;
        return false;
    }
    return true;
}

} // namespace folio
