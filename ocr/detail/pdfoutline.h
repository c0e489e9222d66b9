#pragma once
// Private to ocr/: a PDF's outline (bookmarks) read with Poppler in the worker process, and its
// JSON form on the worker protocol's probe line. Bounded: at most kMaxOutlineEntries entries and
// kMaxOutlineDepth levels (deeper bookmarks are left out); titles cut at 1,000 characters.

#include "document/layoutsections.h"

#include <QJsonArray>
#include <QString>

#include <vector>

namespace folio::ocr::detail {

constexpr int kMaxOutlineEntries = 10000;
constexpr int kMaxOutlineDepth = 64;

// Empty when the file has no outline or cannot be opened (the probe reports open errors).
std::vector<OutlineEntry> readPdfOutline(const QString &path);

QJsonArray outlineToJson(const std::vector<OutlineEntry> &outline);
// Ignores malformed entries; applies the same bounds.
std::vector<OutlineEntry> outlineFromJson(const QJsonArray &array);

} // namespace folio::ocr::detail
