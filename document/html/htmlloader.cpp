#include "document/html/htmlloader.h"

#include "document/formats/datasetlimits.h"
#include "document/html/htmlcharset.h"
#include "document/html/htmlinput.h"
#include "document/html/htmlparse.h"
#include "document/html/htmlprescan.h"
#include "document/html/htmlsections.h"

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include <QStringDecoder>

#include <cstring>

#include <memory>
#include <set>
#include <unordered_map>
#include <string>

namespace folio {

// Elements deeper than this are not added to the Document (their text is kept, attached to the
// deepest kept ancestor). Blink caps its parser's DOM depth at 512 the same way.
static constexpr int kMaxElementDepth = 512;

// Words of one page: a Document holds at most this many (a project stores no more: DatasetLimits).
// Checked while the words are made, so a page of 40 MB of short words (16 M words: 2.2 GB in
// folio-cli, 3.9 GB in the GUI) is refused at the limit instead of after taking the memory.
static constexpr qsizetype kMaxPageWords = DatasetLimits::maxWords;

QString normaliseHtmlWhitespace(const QString &text)
{
    QString out;
    out.reserve(text.size());
    bool pendingSpace = false;
    for (const QChar c : text) {
        const ushort u = c.unicode();
        if (u == ' ' || u == '\t' || u == '\n' || u == '\r' || u == '\f') {
            pendingSpace = !out.isEmpty();
            continue;
        }
        if (pendingSpace) {
            out += QLatin1Char(' ');
            pendingSpace = false;
        }
        out += c;
    }
    return out;
}

std::vector<int> textNodeSequence(const Document &doc)
{
    std::vector<int> seq;
    for (int i = 0; i < int(doc.nodes.size()); ++i)
        if (doc.nodes[size_t(i)].kind == NodeKind::Text)
            seq.push_back(i);
    return seq;
}

QHash<QString, int> nodeIndexById(const Document &doc)
{
    QHash<QString, int> index;
    index.reserve(qsizetype(doc.nodes.size()));
    for (int i = 0; i < int(doc.nodes.size()); ++i)
        index.insert(doc.nodes[size_t(i)].id, i);
    return index;
}

// libxml2 hands out UTF-8. QString::fromUtf8 drops a leading U+FEFF, which is content in the
// middle of a page (lxml keeps it), so decode with the BOM converted, not stripped.
QString fromXmlUtf8(const char *utf8, qsizetype size)
{
    if (!utf8)
        return QString();
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::ConvertInitialBom);
    return decoder(QByteArrayView(utf8, size < 0 ? qsizetype(strlen(utf8)) : size));
}

namespace {

struct DocDeleter { void operator()(xmlDoc *d) const { xmlFreeDoc(d); } };

bool isTextLike(const xmlNode *n)
{
    return n && (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE);
}

// One open element (or the document) during the walk.
struct Frame
{
    xmlNode *cursor = nullptr;     // next child to visit
    int docIndex = 0;              // Document node children attach to
    bool rawText = false;          // <script>/<style>: text children are not content
    bool kept = true;              // element added to the Document
    int depth = 0;
    std::unordered_map<std::string, std::pair<int, int>> names; // tag -> (total, seen)
    int textTotal = 0, textSeen = 0;
};

void countChildren(Frame &f, xmlNode *first)
{
    for (xmlNode *c = first; c; c = c->next) {
        if (c->type == XML_ELEMENT_NODE) {
            ++f.names[reinterpret_cast<const char *>(c->name)].first;
        } else if (isTextLike(c)) {
            ++f.textTotal;
            while (isTextLike(c->next))
                c = c->next;
        }
    }
}

class Walker
{
public:
    Walker(const QString &path, const HtmlLoadOptions &options, HtmlLoadResult *result)
        : m_path(path), m_options(options), m_result(result), m_doc(result->document) {}

    bool walk(xmlDoc *xdoc)
    {
        Node root;
        root.id = QStringLiteral("/");
        root.kind = NodeKind::Root;
        m_doc.addNode(std::move(root), -1);

        std::vector<Frame> frames;
        frames.emplace_back();
        frames.back().cursor = xdoc->children;
        countChildren(frames.back(), xdoc->children);
        int flattened = 0;

        while (!frames.empty()) {
            Frame &f = frames.back();
            xmlNode *c = f.cursor;
            if (!c) {
                frames.pop_back();
                continue;
            }
            f.cursor = c->next;
            if (c->type == XML_ELEMENT_NODE) {
                const char *rawName = reinterpret_cast<const char *>(c->name);
                const QString &rawTag = intern(rawName);
                const QString &tag = intern(rawTag.toLower());
                auto &count = f.names[rawName];
                ++count.second;
                Frame child;
                child.depth = f.depth + 1;
                child.cursor = c->children;
                child.rawText = tag == QLatin1String("script") || tag == QLatin1String("style");
                if (f.kept && child.depth <= kMaxElementDepth) {
                    Node node;
                    node.kind = NodeKind::Element;
                    node.tag = tag;
                    node.id = compactId();
                    node.step = count.first > 1 ? rawTag + QStringLiteral("[%1]").arg(count.second) : rawTag;
                    for (xmlAttr *a = c->properties; a; a = a->next) {
                        xmlChar *value = xmlNodeGetContent(reinterpret_cast<xmlNode *>(a));
                        node.attributes.append({fromXmlUtf8(reinterpret_cast<const char *>(a->name)),
                                                fromXmlUtf8(reinterpret_cast<const char *>(value))});
                        xmlFree(value);
                    }
                    child.docIndex = m_doc.addNode(std::move(node), f.docIndex);
                    if (!checkNodeCount())
                        return false;
                } else {
                    child.kept = false;
                    child.docIndex = f.docIndex;
                    ++flattened;
                }
                countChildren(child, c->children);
                frames.push_back(std::move(child));
                continue;
            }
            if (!isTextLike(c))
                continue; // comments, PIs, DTD
            // Merge a run of adjacent text/CDATA siblings (lxml's .text/.tail do the same).
            QByteArray raw(reinterpret_cast<const char *>(c->content));
            while (isTextLike(f.cursor)) {
                raw.append(reinterpret_cast<const char *>(f.cursor->content));
                f.cursor = f.cursor->next;
            }
            ++f.textSeen;
            if (f.rawText)
                continue;
            QString step;
            if (f.kept)
                step = f.textTotal > 1 ? QStringLiteral("text()[%1]").arg(f.textSeen) : m_textStep;
            else
                step = QStringLiteral("descendant::text()[deep%1]").arg(++m_deepText);
            if (!addText(raw, step, f.docIndex))
                return false;
        }
        if (flattened > 0)
            m_result->warnings << QStringLiteral("%1: %2 elements nested deeper than %3 were flattened (their text is kept)")
                                      .arg(m_path).arg(flattened).arg(kMaxElementDepth);
        if (m_truncated > 0)
            m_result->warnings << QStringLiteral("%1: %2 text node(s) longer than %3 characters were truncated")
                                      .arg(m_path).arg(m_truncated).arg(m_options.maxTextChars);
        return true;
    }

private:
    // One shared copy of each tag name and XPath step (implicitly shared QStrings): 2.5 M <b>
    // elements held 2.5 M copies of "b" twice over.
    const QString &intern(const char *raw)
    {
        const auto it = m_rawNames.find(raw);
        if (it != m_rawNames.end())
            return it->second;
        return m_rawNames.emplace(raw, QString::fromUtf8(raw)).first->second;
    }
    const QString &intern(const QString &s) { return *m_lowerNames.insert(s).first; }

    bool checkNodeCount()
    {
        if (int(m_doc.nodes.size()) <= m_options.maxNodes)
            return true;
        m_result->error = QStringLiteral("%1: more than %2 nodes, the limit").arg(m_path).arg(m_options.maxNodes);
        return false;
    }

    // "h<index>": the index the next node will have (compact, and stable for the same page).
    QString compactId() const { return QLatin1Char('h') + QString::number(m_doc.nodes.size()); }

    bool addText(QByteArray &raw, const QString &step, int parent)
    {
        const qsizetype maxChars = qMax(1, m_options.maxTextChars);
        bool truncated = false;
        // Cheap pre-cut: never decode a 100 MB node whole (4 bytes per char at most, plus slack
        // for collapsed white space).
        const qsizetype byteCap = maxChars * 4 + 4096;
        if (raw.size() > byteCap) {
            raw.truncate(byteCap);
            truncated = true;
        }
        QString text = normaliseHtmlWhitespace(fromXmlUtf8(raw.constData(), raw.size()));
        if (text.size() > maxChars) {
            text.truncate(maxChars);
            truncated = true;
        }
        if (truncated)
            ++m_truncated;
        if (text.isEmpty())
            return true;
        const int parentTagIsTitle = m_doc.nodes[size_t(parent)].tag == QLatin1String("title");
        if (parentTagIsTitle && m_doc.title.isEmpty())
            m_doc.title = text;

        Node node;
        node.kind = NodeKind::Text;
        node.id = compactId();
        node.step = step;
        node.text = text;
        const QString id = node.id;
        const int index = m_doc.addNode(std::move(node), parent);
        if (!checkNodeCount())
            return false;
        return addWords(m_doc.nodes[size_t(index)].text, id, index);
    }

    bool addWords(const QString &text, const QString &nodeId, int nodeIndex)
    {
        const qsizetype n = text.size();
        qsizetype i = 0;
        while (i < n) {
            while (i < n && text[i].isSpace())
                ++i;
            if (i >= n)
                break;
            const qsizetype start = i;
            while (i < n && !text[i].isSpace())
                ++i;
            if (qsizetype(m_doc.words.size()) >= kMaxPageWords) {
                m_result->error = QStringLiteral("%1: more than %2 words, the limit for one page").arg(m_path).arg(kMaxPageWords);
                return false;
            }
            Word w;
            w.id = nodeId + QLatin1Char('#') + QString::number(start);
            w.text = text.mid(start, i - start);
            w.page = 0;
            w.node = nodeIndex;
            m_doc.words.push_back(std::move(w));
        }
        return true;
    }

    QString m_path;
    const HtmlLoadOptions &m_options;
    HtmlLoadResult *m_result;
    Document &m_doc;
    int m_truncated = 0;
    int m_deepText = 0;
    std::unordered_map<std::string, QString> m_rawNames;
    std::set<QString> m_lowerNames;
    const QString m_textStep = QStringLiteral("text()");
};

// Share of control bytes (other than white space and ESC) in the first 64 KiB.
double controlByteShare(const QByteArray &bytes)
{
    const qsizetype n = qMin<qsizetype>(bytes.size(), 64 * 1024);
    if (n == 0)
        return 0;
    qsizetype control = 0;
    for (qsizetype i = 0; i < n; ++i) {
        const unsigned char c = static_cast<unsigned char>(bytes[i]);
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1B)
            ++control;
    }
    return double(control) / double(n);
}

} // namespace

xmlDoc *parseHtmlBytes(const QByteArray &bytes, const QString &name, const HtmlLoadOptions &options,
                       HtmlLoadResult *out, bool *emptyInput)
{
    HtmlLoadResult &result = *out;
    *emptyInput = false;
    if (bytes.size() > options.maxFileBytes) {
        result.error = QStringLiteral("%1: %2 of HTML, the limit is %3").arg(name, humanBytes(bytes.size()), humanBytes(options.maxFileBytes));
        return nullptr;
    }
    if (bytes.size() > INT_MAX - 16) {
        result.error = QStringLiteral("%1: %2 is too large for the HTML parser").arg(name, humanBytes(bytes.size()));
        return nullptr;
    }

    const HtmlCharset charset = detectHtmlCharset(bytes, options.encoding);
    result.encoding = charset.name;
    result.encodingSource = charset.source;
    if (!charset.note.isEmpty())
        result.warnings << QStringLiteral("%1: %2").arg(name, charset.note);
    const bool wide = charset.name.startsWith("UTF-16") || charset.name.startsWith("UTF-32");
    if (!wide) {
        const double share = controlByteShare(bytes);
        if (share > 0.05) {
            result.error = QStringLiteral("%1: does not look like HTML (binary data: %2% control bytes in the first 64 KB)")
                               .arg(name).arg(int(share * 100 + 0.5));
            return nullptr;
        }
    }

    const char *data = bytes.constData() + charset.bomLength;
    int size = int(bytes.size() - charset.bomLength);
    // Same options as lxml.html's parser (recover, no network, compact), plus silence.
    int parseOptions = HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_COMPACT
        | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | XML_PARSE_HUGE;
    // Other charsets are decoded here: libxml2's converters stop at the first byte the charset
    // does not define (0x81 in windows-1252) and the rest of the page was silently lost.
    QByteArray parserCharset = charset.name;
    QByteArray decoded;
    if (charset.name.compare("UTF-8", Qt::CaseInsensitive) != 0) {
        int replaced = 0;
        decoded = decodeToUtf8Lenient(data, size, charset.name, &replaced);
        if (!decoded.isNull() && decoded.size() <= INT_MAX - 16) {
            data = decoded.constData();
            size = int(decoded.size());
            parserCharset = "UTF-8";
            parseOptions |= HTML_PARSE_IGNORE_ENC; // a <meta charset> must not switch it again
            if (replaced > 0)
                result.warnings << QStringLiteral("%1: %2 byte sequence(s) not valid in %3 read as U+FFFD")
                                       .arg(name).arg(replaced).arg(QString::fromLatin1(charset.name));
        }
    }
    // Refuse from a cheap count of the markup before libxml2 builds a tree of it (a 20 MB page of
    // 2.5 M <b>x</b> took 3.7 GB before the walk below found it too large); else make room for
    // the nodes once (no copies of a growing vector).
    if (parserCharset.compare("UTF-8", Qt::CaseInsensitive) == 0) {
        const qint64 estimate = estimateHtmlNodes(data, size, options.maxNodes);
        if (estimate > options.maxNodes) {
            result.error = QStringLiteral("%1: more than %2 nodes, the limit (%3 tags and text runs counted before parsing)")
                               .arg(name).arg(options.maxNodes).arg(estimate);
            return nullptr;
        }
        // slack for what the parser adds (html, head, body) and the count misses
        result.document.nodes.reserve(size_t(qMin<qint64>(estimate + estimate / 16 + 64, qint64(options.maxNodes) + 1)));
    }
    xmlDoc *xdoc = htmlReadMemory(size > 0 ? data : "", size, nullptr, parserCharset.constData(), parseOptions);
    if (!xdoc) {
        if (size == 0) {
            *emptyInput = true; // an empty file is an empty document, not an error
            return nullptr;
        }
        result.error = QStringLiteral("%1: libxml2 could not parse the HTML (encoding %2)").arg(name, QString::fromLatin1(charset.name));
        return nullptr;
    }
    return xdoc;
}

HtmlLoadResult loadHtmlBytes(const QByteArray &bytes, const QString &sourcePath, const HtmlLoadOptions &options)
{
    HtmlLoadResult result;
    const QString name = sourcePath.isEmpty() ? QStringLiteral("<memory>") : sourcePath;
    result.document.sourcePath = sourcePath;
    result.document.kind = SourceKind::Html;
    bool empty = false;
    std::unique_ptr<xmlDoc, DocDeleter> xdoc(parseHtmlBytes(bytes, name, options, &result, &empty));
    if (!xdoc) {
        if (empty) {
            Node root;
            root.id = QStringLiteral("/");
            result.document.addNode(std::move(root), -1);
            result.document.pages.assign(1, Page{QSizeF(0, 0), QString(), 0});
            result.ok = true;
            result.warnings << QStringLiteral("%1: empty file").arg(name);
        }
        return result;
    }
    Walker walker(name, options, &result);
    if (!walker.walk(xdoc.get())) {
        result.document = Document();
        return result;
    }
    buildHtmlSections(&result.document);
    // One page of unknown size until a rendered snapshot gives it one (words live on page 0).
    result.document.pages.assign(1, Page{QSizeF(0, 0), QString(), 0});
    result.ok = true;
    return result;
}

HtmlLoadResult loadHtmlFile(const QString &path, const HtmlLoadOptions &options)
{
    QByteArray bytes;
    QString error;
    if (!readHtmlSource(path, options.maxFileBytes, &bytes, &error)) {
        HtmlLoadResult result;
        result.error = error;
        return result;
    }
    return loadHtmlBytes(bytes, path, options);
}

} // namespace folio
