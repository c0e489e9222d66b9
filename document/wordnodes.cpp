#include "document/wordnodes.h"

namespace folio {

int addRootNode(Document &doc)
{
    Node root;
    root.id = QStringLiteral("root");
    root.kind = NodeKind::Root;
    return doc.addNode(root, -1);
}

int appendWordWithNode(Document &doc, Word word, int parent)
{
    Node n;
    n.id = word.id;
    n.kind = NodeKind::Word;
    n.text = word.text;
    n.page = word.page;
    n.box = word.box;
    n.confidence = word.confidence;
    word.node = doc.addNode(n, parent);
    doc.words.push_back(word);
    return word.node;
}

} // namespace folio
