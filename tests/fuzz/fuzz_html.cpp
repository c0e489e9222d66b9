// libFuzzer target: the HTML loader (document/html: charset detection, libxml2 parse, iterative
// tree walk, text nodes, words, sections) and the bounded gzip reader. Any byte string must load
// or fail with a message; a loaded Document must hold the tree invariants and read back from its
// JSON form.
#include "documentchecks.h"
#include "fuzzsupport.h"

#include "document/html/htmlinput.h"
#include "document/html/htmlloader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace folio;
    const QByteArray bytes = fuzz::inputBytes(data, size);

    // A gzip page is inflated first, bounded (a small cap: bombs must stop there).
    if (bytes.startsWith("\x1f\x8b")) {
        QByteArray inflated;
        QString error;
        if (!gunzipBounded(bytes, 1 << 20, &inflated, &error) && error.isEmpty())
            fuzz::invariantFailed(QStringLiteral("gunzipBounded failed without a message"));
        if (inflated.size() > (1 << 20))
            fuzz::invariantFailed(QStringLiteral("gunzipBounded returned more than its cap"));
    }

    HtmlLoadOptions options;
    options.maxNodes = 200'000;
    options.maxTextChars = 4096;
    const HtmlLoadResult r = loadHtmlBytes(bytes, QStringLiteral("fuzz.html"), options);
    if (!r.ok) {
        fuzz::note(QStringLiteral("refused: ") + r.error);
        if (r.error.isEmpty())
            fuzz::invariantFailed(QStringLiteral("load failed without a message"));
        return 0;
    }
    const Document &doc = r.document;
    if (doc.nodes.empty() || doc.nodes.front().kind != NodeKind::Root)
        fuzz::invariantFailed(QStringLiteral("loaded page has no root node"));
    if (static_cast<int>(doc.nodes.size()) > options.maxNodes)
        fuzz::invariantFailed(QStringLiteral("more nodes than maxNodes"));
    fuzz::checkDocument(doc, QStringLiteral("fuzz.html"));
    for (int t : textNodeSequence(doc))
        if (doc.nodes[static_cast<size_t>(t)].text.size() > options.maxTextChars)
            fuzz::invariantFailed(QStringLiteral("text node %1 is longer than maxTextChars").arg(t));
    for (const Word &w : doc.words)
        if (w.text.isEmpty() || w.node < 0 || doc.nodes[static_cast<size_t>(w.node)].kind != NodeKind::Text)
            fuzz::invariantFailed(QStringLiteral("word %1 is empty or not on a text node").arg(w.id));
    (void)nodeIndexById(doc);
    fuzz::checkJsonRoundTrip(doc, nullptr, QStringLiteral("fuzz.html"));
    return 0;
}
