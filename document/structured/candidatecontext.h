#pragma once
// What price and identifier candidates share: the page's text nodes in order, the words around a
// node, and the element chain above it (pricecandidates.cpp, identifiercandidates.cpp).

#include "document/document.h"

#include <QRegularExpression>
#include <QString>

#include <vector>

namespace folio::structured {

bool isWordChar(QChar c);
bool matches(const QRegularExpression &re, const QString &s);

// Cart, navigation, footer, reviews, related products: where a page repeats other products' values.
const QRegularExpression &elsewhereWords();

// "class id itemprop tag" of an element.
QString describeElement(const Node &n);

// The element chain above a text node: describeElement of its parent (index 0), grandparent, ...
// up to `depth` elements.
std::vector<QString> ancestorDescriptions(const Document &doc, int textNode, int depth);
// True when one of the `depth` elements above the text node has one of the tags.
bool underTag(const Document &doc, int textNode, int depth, std::initializer_list<const char *> tags);

// The first `cap` characters of an element's text (its text descendants in document order).
QString leadingText(const Document &doc, int element, int cap);

// The Document's non-blank text nodes in order, and the text-node number of the first <h1> (-1: none).
struct TextNodeOrder
{
    std::vector<int> nodes;  // Document::nodes indices
    std::vector<int> number; // per Document node: its 1-based text-node number, 0 for others
    int h1At = -1;           // text nodes before the first <h1>
};
TextNodeOrder textNodeOrder(const Document &doc);

} // namespace folio::structured
