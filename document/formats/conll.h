#pragma once
// CoNLL BIO: one token per line, documents introduced by "-DOCSTART-<TAB><name>", a blank line
// after each document.
//
//   per word:       <word><TAB><tag>                 tag = O | B-<LABEL> | I-<LABEL>
//   per sub-token:  <piece><TAB><tag><TAB><word index>  (when a SubTokenizer is given)
// With sub-tokens the first piece of a word carries the word's tag and the following pieces
// carry I-<LABEL> (O stays O), the convention of "label all sub-tokens" token classification.
// Words with blank text are skipped (their index is still counted). Import accepts both forms
// (pieces with the same word index are joined back into one word, "##" prefixes dropped);
// boxes are not part of the format.
#include "document/formats/datasetformat.h"

namespace folio {

class ConllFormat : public DatasetFormat
{
public:
    QString name() const override { return QStringLiteral("conll"); }
    QString description() const override { return QStringLiteral("CoNLL BIO, per word or per sub-token"); }
    bool exportItems(const std::vector<DatasetItem> &items, const QString &outDir, const DatasetExportOptions &options,
                     QStringList *written, QString *error) const override;
    bool importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const override;

    // The CoNLL text of one document (used by exportItems; handy for tests and previews).
    static QByteArray documentText(const DatasetItem &item, const DatasetExportOptions &options);
};

} // namespace folio
