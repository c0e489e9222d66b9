#include "document/structured/sitetexts.h"

#include <algorithm>
#include <unordered_set>

namespace folio::structured {

namespace {
constexpr int kMaxTextChars = 300; // textnodecandidates.cpp's candidate cap
}

void SiteTexts::addPage(const Document &doc)
{
    std::unordered_set<QString> seen;
    for (const Node &n : doc.nodes) {
        if (n.kind != NodeKind::Text)
            continue;
        const QString text = n.text.simplified();
        if (!text.isEmpty() && text.size() <= kMaxTextChars && seen.insert(text).second)
            ++pagesWithText_[text];
    }
    ++pages_;
}

double SiteTexts::shareOfOtherPages(const QString &simplifiedText) const
{
    if (pages_ < 2)
        return 0;
    const auto it = pagesWithText_.find(simplifiedText);
    const int others = it == pagesWithText_.end() ? 0 : std::max(0, it->second - 1);
    return std::min(1.0, double(others) / double(pages_ - 1));
}

} // namespace folio::structured
