#pragma once
// The text nodes of several pages of one site, each distinct text counted once a page. A text that
// (nearly) every page of the site repeats is its template ("Add to Cart", "Product Description",
// menu items); a field's value usually changes from page to page (a title, an ISBN) or holds for a
// part of them (a publisher). textnodecandidates.h turns the count into a feature: the share of
// the site's other pages that hold the same text.
//
// Memory: one entry per distinct text (at most kMaxSiteTextChars characters kept per text), linear
// in the pages' text.

#include "document/document.h"

#include <QString>

#include <unordered_map>

namespace folio::structured {

class SiteTexts
{
public:
    // Counts each distinct non-blank text node of `doc` (white space simplified, up to 300
    // characters: longer nodes are never candidates) once.
    void addPage(const Document &doc);
    int pages() const { return pages_; }
    // For a page that was added: the share of the OTHER added pages holding `text` (simplified),
    // 0..1; 0 when fewer than two pages were added.
    double shareOfOtherPages(const QString &simplifiedText) const;

private:
    std::unordered_map<QString, int> pagesWithText_;
    int pages_ = 0;
};

} // namespace folio::structured
