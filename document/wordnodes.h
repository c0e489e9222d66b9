#pragma once
// Building a Document by hand (dataset loaders, test data, benchmarks): the root node and words
// with their matching Word nodes.
#include "document/document.h"

namespace folio {

// Add the "root" node to an empty document; returns its index (0).
int addRootNode(Document &doc);

// Append `word` to doc.words with a Word node under node `parent` carrying the same id, text,
// page, box and confidence; sets the word's node index and returns it.
int appendWordWithNode(Document &doc, Word word, int parent);

} // namespace folio
