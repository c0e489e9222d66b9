#include "document/html/markupnodes.h"

#include "document/html/htmlinput.h"
#include "document/html/htmlparse.h"
#include "document/html/htmlunescape.h"

#include <libxml/tree.h>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace folio {
namespace {

struct DocFree { void operator()(xmlDoc *d) const { xmlFreeDoc(d); } };

bool isText(const xmlNode *n)
{
    return n && (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE);
}

// Python's str.isspace: Unicode White_Space plus U+001C..U+001F.
bool isPythonSpace(QChar c)
{
    return c.isSpace() || (c.unicode() >= 0x1C && c.unicode() <= 0x1F);
}

QString pythonStrip(const QString &s)
{
    qsizetype b = 0, e = s.size();
    while (b < e && isPythonSpace(s[b])) ++b;
    while (e > b && isPythonSpace(s[e - 1])) --e;
    return s.mid(b, e - b);
}

// One element being walked (or the document: element == false).
struct Frame
{
    xmlNode *cursor = nullptr;
    bool element = false;
    qsizetype pathLength = 0; // length of the XPath string up to and including this element
    int depth = 0;            // units in the XPath of this element
    std::unordered_map<std::string, std::pair<int, int>> names; // child tag -> (count, seen)
};

void countNames(Frame &f, xmlNode *first)
{
    for (xmlNode *c = first; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE)
            ++f.names[reinterpret_cast<const char *>(c->name)].first;
}

} // namespace

MarkupNodeList extractMarkupNodes(const QByteArray &html, const QString &sourcePath, const MarkupNodeOptions &options)
{
    MarkupNodeList out;
    const QString name = sourcePath.isEmpty() ? QStringLiteral("<memory>") : sourcePath;
    HtmlLoadResult diagnostics;
    bool empty = false;
    std::unique_ptr<xmlDoc, DocFree> xdoc(parseHtmlBytes(html, name, options.load, &diagnostics, &empty));
    out.warnings = diagnostics.warnings;
    if (!xdoc) {
        out.error = diagnostics.error;
        out.ok = empty;
        return out;
    }
    const int maxUnits = qMax(1, options.maxXPathUnits);
    const qsizetype maxChars = qMax(1, options.load.maxTextChars);
    int truncated = 0, clipped = 0;
    QString path; // XPath of the innermost open element (its first maxUnits units)
    std::vector<Frame> frames(1);
    frames.back().cursor = xdoc->children;
    countNames(frames.back(), xdoc->children);

    auto addNode = [&](const QByteArray &raw, const Frame &parent) {
        QByteArray bytes = raw;
        if (bytes.size() > maxChars * 4 + 4096) { // never decode a 100 MB node whole
            bytes.truncate(maxChars * 4 + 4096);
            ++truncated;
        }
        QString text = pythonStrip(pythonHtmlUnescape(fromXmlUtf8(bytes.constData(), bytes.size())));
        if (text.size() > maxChars) {
            text.truncate(maxChars);
            ++truncated;
        }
        if (text.isEmpty())
            return true;
        if (out.nodes.size() >= options.load.maxNodes) {
            out.error = QStringLiteral("%1: more than %2 text nodes, the limit").arg(name).arg(options.load.maxNodes);
            return false;
        }
        out.nodes << text;
        out.xpaths << path.left(parent.pathLength);
        return true;
    };

    while (!frames.empty()) {
        Frame &f = frames.back();
        xmlNode *c = f.cursor;
        if (!c) {
            frames.pop_back();
            continue;
        }
        f.cursor = c->next;
        if (c->type == XML_ELEMENT_NODE) {
            const char *tag = reinterpret_cast<const char *>(c->name);
            auto &count = f.names[tag];
            ++count.second;
            Frame child;
            child.element = true;
            child.depth = f.depth + 1;
            child.cursor = c->children;
            if (child.depth <= maxUnits) {
                path.truncate(f.pathLength);
                path += QLatin1Char('/') + fromXmlUtf8(tag);
                if (count.first > 1)
                    path += QLatin1Char('[') + QString::number(count.second) + QLatin1Char(']');
                child.pathLength = path.size();
            } else {
                child.pathLength = f.pathLength;
                if (child.depth == maxUnits + 1)
                    ++clipped;
            }
            countNames(child, c->children);
            frames.push_back(std::move(child));
            continue;
        }
        if (!f.element)
            continue; // text, comments and the DOCTYPE directly under the document are no nodes
        if (c->type == XML_COMMENT_NODE) {
            if (!addNode(QByteArray(reinterpret_cast<const char *>(c->content)), f))
                return out;
            continue;
        }
        if (!isText(c))
            continue;
        QByteArray raw(reinterpret_cast<const char *>(c->content));
        while (isText(f.cursor)) { // one run, as BeautifulSoup joins adjacent data
            raw.append(reinterpret_cast<const char *>(f.cursor->content));
            f.cursor = f.cursor->next;
        }
        if (!addNode(raw, f))
            return out;
    }
    if (clipped > 0)
        out.warnings << QStringLiteral("%1: elements nested deeper than %2 levels keep the XPath of their ancestor at that depth")
                            .arg(name).arg(maxUnits);
    if (truncated > 0)
        out.warnings << QStringLiteral("%1: %2 node text(s) longer than %3 characters were truncated")
                            .arg(name).arg(truncated).arg(maxChars);
    out.ok = true;
    return out;
}

MarkupNodeList extractMarkupNodesFromFile(const QString &path, const MarkupNodeOptions &options)
{
    QByteArray bytes;
    QString error;
    if (!readHtmlSource(path, options.load.maxFileBytes, &bytes, &error)) {
        MarkupNodeList out;
        out.error = error;
        return out;
    }
    return extractMarkupNodes(bytes, path, options);
}

} // namespace folio
