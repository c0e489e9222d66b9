#include "document/structured/candidatecontext.h"

namespace folio::structured {

bool isWordChar(QChar c) { return c.isLetterOrNumber() || c == QLatin1Char('_'); }

bool matches(const QRegularExpression &re, const QString &s) { return re.match(s).hasMatch(); }

const QRegularExpression &elsewhereWords()
{
    static const QRegularExpression re(
        QStringLiteral("cart|basket|ship|deliver|related|recommend|carousel|footer|header|nav|menu|review|rating|similar|upsell|cross"),
        QRegularExpression::CaseInsensitiveOption);
    return re;
}

QString describeElement(const Node &n)
{
    QString s;
    for (const auto &[name, value] : n.attributes)
        if (name == QLatin1String("class") || name == QLatin1String("id") || name == QLatin1String("itemprop"))
            s += value + QLatin1Char(' ');
    return s + n.tag;
}

std::vector<QString> ancestorDescriptions(const Document &doc, int textNode, int depth)
{
    std::vector<QString> out;
    int a = textNode >= 0 && textNode < int(doc.nodes.size()) ? doc.nodes[std::size_t(textNode)].parent : -1;
    for (int d = 0; a >= 0 && d < depth; ++d, a = doc.nodes[std::size_t(a)].parent) {
        const Node &anc = doc.nodes[std::size_t(a)];
        if (anc.kind != NodeKind::Element)
            break;
        out.push_back(describeElement(anc));
    }
    return out;
}

bool underTag(const Document &doc, int textNode, int depth, std::initializer_list<const char *> tags)
{
    int a = textNode >= 0 && textNode < int(doc.nodes.size()) ? doc.nodes[std::size_t(textNode)].parent : -1;
    for (int d = 0; a >= 0 && d < depth; ++d, a = doc.nodes[std::size_t(a)].parent) {
        const Node &anc = doc.nodes[std::size_t(a)];
        if (anc.kind != NodeKind::Element)
            break;
        for (const char *t : tags)
            if (anc.tag == QLatin1String(t))
                return true;
    }
    return false;
}

QString leadingText(const Document &doc, int element, int cap)
{
    QString out;
    if (element < 0 || element >= int(doc.nodes.size()))
        return out;
    std::vector<int> stack{element};
    while (!stack.empty() && out.size() < cap) {
        const int n = stack.back();
        stack.pop_back();
        const Node &node = doc.nodes[std::size_t(n)];
        if (node.kind == NodeKind::Text)
            out += node.text + QLatin1Char(' ');
        for (auto it = node.children.rbegin(); it != node.children.rend(); ++it)
            stack.push_back(*it);
    }
    return out.left(cap);
}

TextNodeOrder textNodeOrder(const Document &doc)
{
    TextNodeOrder o;
    o.number.assign(doc.nodes.size(), 0);
    for (int n = 0; n < int(doc.nodes.size()); ++n) {
        const Node &node = doc.nodes[std::size_t(n)];
        if (node.kind == NodeKind::Element && node.tag == QLatin1String("h1") && o.h1At < 0)
            o.h1At = int(o.nodes.size());
        if (node.kind != NodeKind::Text || node.text.trimmed().isEmpty())
            continue;
        o.nodes.push_back(n);
        o.number[std::size_t(n)] = int(o.nodes.size());
    }
    return o;
}

} // namespace folio::structured
