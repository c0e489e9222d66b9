// libFuzzer target: Document JSON (document/documentjson: what folio-cli prints and reads, what a
// project stores). Any byte string must parse or fail with a message, never throw; a parsed
// Document must hold the tree invariants, and writing it then reading it back gives the same text.
#include "documentchecks.h"
#include "fuzzsupport.h"

#include "document/documentjson.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace folio;
    Document doc;
    Annotations annotations;
    QString error;
    if (!documentFromJson(fuzz::inputBytes(data, size), &doc, &annotations, &error)) {
        if (error.isEmpty())
            fuzz::invariantFailed(QStringLiteral("documentFromJson failed without a message"));
        return 0;
    }
    fuzz::checkDocument(doc, QStringLiteral("fuzz.json"));
    fuzz::checkJsonRoundTrip(doc, &annotations, QStringLiteral("fuzz.json"));
    return 0;
}
