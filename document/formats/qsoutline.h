#pragma once
// Question-summary hierarchies as outlines for people (export only): `<base>.md` (Markdown) and
// `<base>.html` (one standalone page), every document in turn: its name, the root summary, then
// the items numbered 1, 1.1, 1.2 ... with question (bold) and summary, suggestions marked with
// their confidence, rejected items left out, and each item's evidence (section titles and the
// quoted text of its spans). Markdown escapes the characters that would format; HTML escapes
// everything it writes.
#include "document/formats/datasetformat.h"

namespace folio {

class QsMarkdownFormat : public DatasetFormat
{
public:
    QString name() const override { return QStringLiteral("qs-markdown"); }
    QString description() const override { return QStringLiteral("question-summary hierarchies as a Markdown outline (export only)"); }
    bool canImport() const override { return false; }
    bool exportItems(const std::vector<DatasetItem> &items, const QString &outDir, const DatasetExportOptions &options,
                     QStringList *written, QString *error) const override;
    bool importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const override;
};

class QsHtmlFormat : public DatasetFormat
{
public:
    QString name() const override { return QStringLiteral("qs-html"); }
    QString description() const override { return QStringLiteral("question-summary hierarchies as an HTML outline (export only)"); }
    bool canImport() const override { return false; }
    bool exportItems(const std::vector<DatasetItem> &items, const QString &outDir, const DatasetExportOptions &options,
                     QStringList *written, QString *error) const override;
    bool importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const override;
};

} // namespace folio
