#pragma once
// QS-hierarchy linearisation both ways (MODELS.md §5.2, §5.7). Torch-free.
//
// Source side (token ids): each section becomes one chunk
//   [depth marker] + title + Σ_paragraphs([separator] + paragraph)
// and the document is [bos] + prefix... + chunks + [eos] (QS first-question task: the prefix is
// [bos] + question, then [bos] again). The leading chunk(s) and the EOS chunk are extra top-level
// sections; parents shift accordingly; the result carries the token -> section map HIBRIDS needs.
// Truncation follows the reference's preprocess: a section (or paragraph) that would pass
// maxSourcePositions - 2 stops the document there; what was cut is reported.
//
// Target side (text): the root summary, then for every item "question? summary" preceded by
// action marks in their normalised form ("{" down, "|" same level, "}" up; the reference's
// action tokens decode to "{{", "||||", "}}}", normaliseQsActions() maps them back).
// Depth convention: items carry depth >= 1 (1 = child of the root).
//  - Intended (Folio's default): "{" when one level deeper, "|" at the same level, "}" x k when k
//    levels up — read back by parseQsTarget() into the same tree.
//  - Released: the reference's hf_translation.py as released, whose current_depth stays 0: every
//    item of depth d > 0 gets d x "{" and UP never appears. Its own evaluation parser reads that as
//    "each item is a child of the previous one" (a run of "{" is one push); kept to read and
//    write the released format, not for training new models.
// parseQsTarget() never fails: malformed text still gives a tree, and `repairs` says what was done.

#include <cstdint>
#include <string>
#include <vector>

namespace folio::inference {

struct HibridsSectionText
{
    int depth = 0;           // 0 = top level
    std::int64_t parent = -1; // index into the section list, -1 = top level
    std::vector<std::int64_t> title;
    std::vector<std::vector<std::int64_t>> paragraphs;
};

struct HibridsMarkers
{
    // Depth markers for depth -1, 0, 1, 2, 3, 4 and >= 5 (the BART ids HIBRIDS reuses).
    std::vector<std::int64_t> depth = {48900, 48613, 48983, 48936, 48712, 49130, 49216};
    std::int64_t paragraphSeparator = 48900;
    std::int64_t bos = 0, eos = 2;
    std::int64_t marker(int depth) const;
};

struct HibridsSource
{
    std::vector<std::int64_t> ids;
    std::vector<std::int64_t> chunkSizes;     // per section incl. the special ones
    std::vector<std::int64_t> sectionParent;  // -1 = top level (HibridsLayout::sectionParent)
    std::vector<std::int64_t> tokenToSection; // one per id (HibridsLayout::tokenToSection)
    int sectionsKept = 0;                     // document sections that made it into ids
    bool truncated = false;
};

// prefix: tokens placed between [bos] and the sections (QS first-question task: the question; the
// sequence then reads [bos] + prefix + [bos] + chunks + [eos]). Sections must be in document order
// with parents before children; throws InferenceError naming the section otherwise.
HibridsSource linearizeHibridsSource(const std::vector<HibridsSectionText> &sections,
                                     const std::vector<std::int64_t> &prefix, int maxSourcePositions,
                                     const HibridsMarkers &markers = {});

struct QsItem
{
    std::string question, summary;
    int depth = 1; // 1 = child of the root
};

struct QsHierarchy
{
    std::string rootSummary;
    std::vector<QsItem> items; // pre-order
    std::vector<int> parents() const; // per item: index of its parent item, -1 = the root
};

enum class QsDepthConvention { Intended, Released };

std::string linearizeQsTarget(const QsHierarchy &tree, QsDepthConvention convention = QsDepthConvention::Intended);

std::string normaliseQsActions(const std::string &decoded); // "{{"->"{", "||||"->"|", "}}}"->"}"

struct QsParse
{
    QsHierarchy tree;
    std::vector<std::string> repairs;
};
QsParse parseQsTarget(const std::string &text);

} // namespace folio::inference
