#pragma once
// Document + Annotations -> the layout tagger's pages (inference::TaggerPage). Blank words are
// dropped, as the FUNSD protocol does; "other"/unlabelled words are O.

#include "document/annotations.h"
#include "document/document.h"
#include "inference/formtagger/taggerpage.h"

#include <QStringList>

#include <string>
#include <vector>

namespace folio::pipeline {

// One model page: the TaggerPage and, for each of its words, the Document word it came from.
struct DocumentTaggerPage
{
    int page = 0;                // Document page number
    inference::TaggerPage taggerPage;
    QStringList wordIds;         // Document word id of each page word
    std::vector<int> wordIndex;  // Document::words index of each page word
};

// A page's words in the layout-aware order (document/layoutorder.h) instead of the Document's.
void serialiseByLayout(DocumentTaggerPage &p);

// One DocumentTaggerPage per Document page that has non-blank words (multi-page scans are labelled
// page by page), ids "<source>#<page>"; tags from `annotations` when given. `layoutOrder`: each
// page's words in the layout-aware order instead of the Document's (OCR) order. `keepBlankWords`:
// every word of the page, white-space-only and empty ones too, and a page as soon as one word has
// text (what a Hugging Face tokenizer is fed: a tab is a token there, pipeline/hfpagelabeller.h).
std::vector<DocumentTaggerPage> taggerPagesOfDocument(const Document &doc, const Annotations *annotations,
                                                    bool layoutOrder = false, bool keepBlankWords = false);

// The whole document as one page (single-page data sets such as FUNSD).
// `wordIds` (out, optional) receives the ids of the kept words, in order.
inference::TaggerPage taggerPageFromDocument(const Document &doc, const Annotations *annotations, const std::string &id,
                                           QStringList *wordIds = nullptr);

} // namespace folio::pipeline
