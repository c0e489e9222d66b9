#include "document/formats/hfjsonl.h"

#include "document/formats/datasetlimits.h"
#include "document/formats/fieldanswers.h"
#include "document/formats/jsonvalidate.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace folio {

using namespace formats;

QStringList HfJsonlFormat::tagNames(const QStringList &labels)
{
    QStringList tags{QStringLiteral("O")};
    for (const QString &l : labels)
        tags << QStringLiteral("B-") + l << QStringLiteral("I-") + l;
    return tags;
}

bool HfJsonlFormat::exportItems(const std::vector<DatasetItem> &items, const QString &outDir,
                                const DatasetExportOptions &options, QStringList *written, QString *error) const
{
    if (!checkDatasetItems(items, QStringLiteral("export"), error) || !ensureDir(outDir, error))
        return false;
    const QStringList labels = collectLabels(items, options.labels, options.includeSuggestions);
    const QStringList tags = tagNames(labels);
    QHash<QString, int> tagIndex;
    for (int i = 0; i < tags.size(); ++i)
        tagIndex.insert(tags[i], i);
    QByteArray out;
    for (const DatasetItem &item : items) {
        const Document &doc = item.document;
        const QStringList wordTags = wordBioTags(doc, item.annotations, options.includeSuggestions);
        const int pages = std::max<int>(1, int(doc.pages.size()));
        for (int p = 0; p < pages; ++p) {
            QJsonArray tokens, bboxes, nerTags;
            for (int i = 0; i < int(doc.words.size()); ++i) {
                const Word &w = doc.words[i];
                if (w.page != p)
                    continue;
                const int tag = tagIndex.value(wordTags[i], -1);
                if (tag < 0) {
                    *error = QStringLiteral("%1: label \"%2\" of word %3 is not in the label set (%4)")
                                 .arg(item.name, wordTags[i].mid(2), w.id, labels.join(QStringLiteral(", ")));
                    return false;
                }
                tokens.append(w.text);
                bboxes.append(QJsonArray{w.norm.x0, w.norm.y0, w.norm.x1, w.norm.y1});
                nerTags.append(tag);
            }
            QJsonObject row;
            row.insert(QStringLiteral("id"), pages == 1 ? item.name : QStringLiteral("%1-p%2").arg(item.name).arg(p + 1));
            row.insert(QStringLiteral("tokens"), tokens);
            row.insert(QStringLiteral("bboxes"), bboxes);
            row.insert(QStringLiteral("ner_tags"), nerTags);
            row.insert(QStringLiteral("image"), p < int(doc.pages.size()) ? doc.pages[p].imagePath : QString());
            // Field answers (issue 15) on the document's first row: {field: [values]}, [] = "no value".
            if (const FieldAnswers answers = fieldAnswers(doc, item.annotations, options.includeSuggestions); p == 0 && !answers.empty())
                row.insert(QStringLiteral("fields"), fieldAnswersJson(answers, /*keepNoValue=*/true));
            out += QJsonDocument(row).toJson(QJsonDocument::Compact);
            out += '\n';
        }
    }
    return writeExportFile(exportFilePath(outDir, options, QStringLiteral(".jsonl")), out, written, error) &&
           writeExportFile(exportFilePath(outDir, options, QStringLiteral(".labels.json")),
                           QJsonDocument(QJsonArray::fromStringList(tags)).toJson(), written, error);
}

bool HfJsonlFormat::importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const
{
    // The ClassLabel names: <stem>.labels.json next to the file (only needed for integer tags).
    QStringList tagNamesList;
    const QFileInfo info(path);
    const QString labelPath = info.dir().filePath(info.completeBaseName() + QStringLiteral(".labels.json"));
    if (QFileInfo::exists(labelPath)) {
        QByteArray lb;
        if (!readWholeFile(labelPath, &lb, error, DatasetLimits::maxJsonFileBytes))
            return false;
        JsonValidator lv(labelPath);
        QJsonValue v;
        QJsonArray arr;
        if (!lv.parse(lb, &v) || !lv.array(v, QStringLiteral("$"), &arr)) {
            *error = lv.error();
            return false;
        }
        for (int i = 0; i < arr.size(); ++i) {
            QString s;
            if (!lv.string(arr[i], jsonIndex(QStringLiteral("$"), i), &s)) {
                *error = lv.error();
                return false;
            }
            tagNamesList << s;
        }
    }
    JsonValidator jv(path);
    return importJsonLines(path, jv, [&](int line, const QJsonObject &row, DatasetItem &item) {
        QJsonArray tokens, bboxes, tags;
        const QString root = QStringLiteral("$");
        if (!jv.arrayField(row, QStringLiteral("tokens"), root, &tokens) ||
            !jv.arrayField(row, QStringLiteral("bboxes"), root, &bboxes) ||
            !jv.arrayField(row, QStringLiteral("ner_tags"), root, &tags)) {
            *error = jv.error();
            return false;
        }
        if (tokens.size() > DatasetLimits::maxWords) {
            jv.fail(QStringLiteral("$.tokens"), QStringLiteral("%1 tokens, more than the limit of %2 words per document")
                                                     .arg(tokens.size()).arg(DatasetLimits::maxWords));
            *error = jv.error();
            return false;
        }
        if (bboxes.size() != tokens.size() || tags.size() != tokens.size()) {
            jv.fail(root, QStringLiteral("tokens (%1), bboxes (%2) and ner_tags (%3) differ in length")
                              .arg(tokens.size()).arg(bboxes.size()).arg(tags.size()));
            *error = jv.error();
            return false;
        }
        QJsonValue id = row.value(QStringLiteral("id"));
        item.name = id.isDouble() ? QString::number(id.toInteger()) : id.toString();
        if (item.name.isEmpty())
            item.name = QStringLiteral("%1:%2").arg(info.fileName()).arg(line);
        QString image;
        if (!jv.stringField(row, QStringLiteral("image"), root, &image, /*required=*/false)) {
            *error = jv.error();
            return false;
        }
        QStringList texts, wordTags;
        std::vector<NormBox> boxes;
        for (int i = 0; i < tokens.size(); ++i) {
            QString t;
            if (!jv.string(tokens[i], jsonIndex(QStringLiteral("$.tokens"), i), &t)) {
                *error = jv.error();
                return false;
            }
            texts << t;
            const QString bp = jsonIndex(QStringLiteral("$.bboxes"), i);
            const QJsonArray b = bboxes[i].toArray();
            int c[4];
            if (!bboxes[i].isArray() || b.size() != 4) {
                jv.fail(bp, QStringLiteral("expected an array of 4 integers in 0..1000"));
                *error = jv.error();
                return false;
            }
            for (int k = 0; k < 4; ++k) {
                if (!jv.integer(b[k], jsonIndex(bp, k), &c[k])) {
                    *error = jv.error();
                    return false;
                }
                if (c[k] < 0 || c[k] > 1000) {
                    jv.fail(jsonIndex(bp, k), QStringLiteral("%1 is outside 0..1000").arg(c[k]));
                    *error = jv.error();
                    return false;
                }
            }
            boxes.push_back(NormBox{c[0], c[1], c[2], c[3]});
            const QString tp = jsonIndex(QStringLiteral("$.ner_tags"), i);
            if (tags[i].isString()) {
                wordTags << tags[i].toString();
            } else {
                int tag;
                if (!jv.integer(tags[i], tp, &tag)) {
                    *error = jv.error();
                    return false;
                }
                if (tagNamesList.isEmpty()) {
                    jv.fail(tp, QStringLiteral("integer tags need the label names in %1").arg(labelPath));
                    *error = jv.error();
                    return false;
                }
                if (tag < 0 || tag >= tagNamesList.size()) {
                    jv.fail(tp, QStringLiteral("tag %1 is outside the %2 names of %3").arg(tag).arg(tagNamesList.size()).arg(labelPath));
                    *error = jv.error();
                    return false;
                }
                wordTags << tagNamesList[tag];
            }
        }
        item.document = documentFromWords(item.name, texts, boxes, QSizeF(1000, 1000), image);
        QStringList ids;
        for (const Word &w : item.document.words)
            ids << w.id;
        item.annotations.entities = entitiesFromBio(ids, wordTags);
        QJsonObject fields;
        FieldAnswers answers;
        if (!jv.objectField(row, QStringLiteral("fields"), root, &fields, /*required=*/false)
            || !readFieldAnswers(jv, fields, QStringLiteral("$.fields"), &answers)) {
            *error = jv.error();
            return false;
        }
        item.annotations.fields = fieldValuesFromAnswers(answers);
        return true;
    }, items, error);
}

} // namespace folio
