#include "documentchecks.h"

#include "fuzzsupport.h"

#include "document/documentjson.h"

namespace folio::fuzz {

void checkDocument(const Document &doc, const QString &where)
{
    const int nodeCount = static_cast<int>(doc.nodes.size());
    const int wordCount = static_cast<int>(doc.words.size());
    for (int i = 0; i < nodeCount; ++i) {
        const Node &n = doc.nodes[static_cast<size_t>(i)];
        if (i == 0 ? n.parent != -1 : (n.parent < 0 || n.parent >= i))
            invariantFailed(where + QStringLiteral(": node %1 has parent %2").arg(i).arg(n.parent));
        for (int c : n.children)
            if (c <= i || c >= nodeCount || doc.nodes[static_cast<size_t>(c)].parent != i)
                invariantFailed(where + QStringLiteral(": node %1 lists child %2 that is not its child").arg(i).arg(c));
    }
    for (int w = 0; w < wordCount; ++w) {
        const Word &word = doc.words[static_cast<size_t>(w)];
        if (word.node < -1 || word.node >= nodeCount)
            invariantFailed(where + QStringLiteral(": word %1 points at node %2 of %3").arg(w).arg(word.node).arg(nodeCount));
    }
    const int sectionCount = static_cast<int>(doc.sections.size());
    for (int s = 0; s < sectionCount; ++s) {
        const Section &sec = doc.sections[static_cast<size_t>(s)];
        if (sec.parent < -1 || sec.parent >= s)
            invariantFailed(where + QStringLiteral(": section %1 has parent %2").arg(s).arg(sec.parent));
        if (sec.node < -1 || sec.node >= nodeCount)
            invariantFailed(where + QStringLiteral(": section %1 points at node %2").arg(s).arg(sec.node));
        if (sec.firstWord < 0 || sec.firstWord > sec.endWord || sec.endWord > wordCount)
            invariantFailed(where + QStringLiteral(": section %1 owns words [%2, %3) of %4")
                                        .arg(s).arg(sec.firstWord).arg(sec.endWord).arg(wordCount));
    }
}

void checkJsonRoundTrip(const Document &doc, const Annotations *annotations, const QString &where)
{
    const QByteArray json = documentToJson(doc, annotations, false);
    Document back;
    Annotations backAnnotations;
    QString error;
    if (!documentFromJson(json, &back, &backAnnotations, &error))
        invariantFailed(where + QStringLiteral(": its own JSON does not read back: ") + error);
    const QByteArray again = documentToJson(back, annotations ? &backAnnotations : nullptr, false);
    if (again != json) {
        qsizetype at = 0;
        while (at < json.size() && at < again.size() && json[at] == again[at])
            ++at;
        invariantFailed(where + QStringLiteral(": JSON changes after a round trip (%1 -> %2 bytes), from byte %3: %4 -> %5")
                                    .arg(json.size()).arg(again.size()).arg(at)
                                    .arg(QString::fromUtf8(json.mid(at, 40).toPercentEncoding()),
                                         QString::fromUtf8(again.mid(at, 40).toPercentEncoding())));
    }
}

} // namespace folio::fuzz
