#include "document/formats/govreportqs.h"

#include "document/formats/datasetlimits.h"
#include "document/formats/jsonvalidate.h"
#include "document/formats/qsdocument.h"
#include "document/qstree.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace folio {

using namespace formats;

namespace {

QJsonObject exportRow(const DatasetItem &item, bool includeSuggestions)
{
    const Document &doc = item.document;
    std::vector<QsParagraph> preamble;
    std::vector<QsTextSection> sections;
    documentTextSections(doc, &preamble, &sections);
    if (!preamble.empty())
        sections.insert(sections.begin(), QsTextSection{QString(), 1, preamble});
    QJsonArray sectionsJson;
    for (const QsTextSection &s : sections) {
        QJsonArray paragraphs;
        for (const QsParagraph &p : s.paragraphs)
            paragraphs.append(paragraphPlainText(p));
        sectionsJson.append(QJsonObject{{"title", s.title}, {"depth", s.level}, {"paragraphs", paragraphs}});
    }
    const std::vector<QsParagraph> paragraphs = documentParagraphs(doc);
    const QHash<QString, int> wordIndex = qsWordIndex(doc);
    const std::vector<QsNode> roots = exportedQsRoots(item.annotations.qsRoots, includeSuggestions);
    QJsonArray pairs;
    for (const QsFlatItem &f : flattenQs(roots)) {
        QJsonArray alignment;
        for (int p : evidenceParagraphs(doc, paragraphs, wordIndex, *f.node))
            alignment.append(p);
        pairs.append(QJsonObject{{"question", f.node->question},
                                 {"summary", f.node->summary},
                                 {"parent_pair_index", f.parent},
                                 {"paragraph_alignment", alignment}});
    }
    return QJsonObject{{"doc_id", item.name},
                       {"title", doc.title},
                       {"summary", item.annotations.qsSummary},
                       {"document_sections", sectionsJson},
                       {"question_summary_pairs", pairs}};
}

bool importRow(JsonValidator &jv, const QJsonObject &row, DatasetItem &item)
{
    const QString root = QStringLiteral("$");
    QString title;
    QJsonArray sectionsJson, pairsJson;
    if (!jv.stringField(row, QStringLiteral("doc_id"), root, &item.name)
        || !jv.stringField(row, QStringLiteral("title"), root, &title, false)
        || !jv.stringField(row, QStringLiteral("summary"), root, &item.annotations.qsSummary, false)
        || !jv.arrayField(row, QStringLiteral("document_sections"), root, &sectionsJson)
        || !jv.arrayField(row, QStringLiteral("question_summary_pairs"), root, &pairsJson))
        return false;
    std::vector<QsTextSection> sections;
    std::vector<int> kept;
    int keptCount = 0, previous = 0;
    for (int i = 0; i < sectionsJson.size(); ++i) {
        const QString at = jsonIndex(QStringLiteral("$.document_sections"), i);
        QJsonObject o;
        QJsonValue depth;
        QJsonArray paragraphs;
        QsTextSection s;
        if (!jv.object(sectionsJson[i], at, &o) || !jv.stringField(o, QStringLiteral("title"), at, &s.title)
            || !jv.field(o, QStringLiteral("depth"), at, &depth) || !jv.integer(depth, jsonKey(at, QStringLiteral("depth")), &s.level)
            || !jv.arrayField(o, QStringLiteral("paragraphs"), at, &paragraphs))
            return false;
        const QString problem = sectionLevelProblem(s.level, previous);
        if (!problem.isEmpty())
            return jv.fail(jsonKey(at, QStringLiteral("depth")), problem);
        previous = s.level;
        for (int k = 0; k < paragraphs.size(); ++k) {
            QsParagraph p;
            if (!jv.string(paragraphs[k], jsonIndex(jsonKey(at, QStringLiteral("paragraphs")), k), &p.text))
                return false;
            countKeptParagraph(p, &kept, &keptCount);
            s.paragraphs.push_back(std::move(p));
        }
        sections.push_back(std::move(s));
    }
    item.document = documentFromParagraphs(item.name, title, {}, sections);
    const std::vector<QsParagraph> paragraphs = documentParagraphs(item.document);
    std::vector<QsNode> nodes;
    std::vector<int> parents, depths;
    for (int i = 0; i < pairsJson.size(); ++i) {
        const QString at = jsonIndex(QStringLiteral("$.question_summary_pairs"), i);
        QJsonObject o;
        QJsonValue parentValue;
        QJsonArray alignment;
        QsNode n;
        int parent = -1;
        if (!jv.object(pairsJson[i], at, &o) || !jv.stringField(o, QStringLiteral("question"), at, &n.question)
            || !jv.stringField(o, QStringLiteral("summary"), at, &n.summary)
            || !jv.field(o, QStringLiteral("parent_pair_index"), at, &parentValue)
            || !jv.integer(parentValue, jsonKey(at, QStringLiteral("parent_pair_index")), &parent)
            || !jv.arrayField(o, QStringLiteral("paragraph_alignment"), at, &alignment, false))
            return false;
        if (parent < -1 || parent >= i)
            return jv.fail(jsonKey(at, QStringLiteral("parent_pair_index")),
                           QStringLiteral("%1 does not point at an earlier pair (0..%2, or -1 at the top)").arg(parent).arg(i - 1));
        const int depth = parent < 0 ? 1 : depths[size_t(parent)] + 1;
        if (depth > DatasetLimits::maxQsDepth)
            return jv.fail(at, QStringLiteral("pair at level %1: hierarchy deeper than %2 levels").arg(depth).arg(DatasetLimits::maxQsDepth));
        if (!readAlignment(jv, alignment, jsonKey(at, QStringLiteral("paragraph_alignment")), kept, item.document,
                           paragraphs, &n.evidenceSpans))
            return false;
        nodes.push_back(std::move(n));
        parents.push_back(parent);
        depths.push_back(depth);
    }
    item.annotations.qsRoots = treeFromParents(std::move(nodes), parents);
    return true;
}

} // namespace

bool GovReportQsFormat::exportItems(const std::vector<DatasetItem> &items, const QString &outDir,
                                    const DatasetExportOptions &options, QStringList *written, QString *error) const
{
    if (!checkDatasetItems(items, QStringLiteral("export"), error) || !ensureDir(outDir, error))
        return false;
    QByteArray out;
    for (const DatasetItem &item : items)
        out += QJsonDocument(exportRow(item, options.includeSuggestions)).toJson(QJsonDocument::Compact) + '\n';
    return writeExportFile(exportFilePath(outDir, options, QStringLiteral(".govreport-qs.jsonl")), out, written, error);
}

bool GovReportQsFormat::importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const
{
    JsonValidator jv(path);
    return importJsonLines(path, jv, [&](int, const QJsonObject &row, DatasetItem &item) {
        if (!importRow(jv, row, item)) {
            *error = jv.error();
            return false;
        }
        return true;
    }, items, error);
}

} // namespace folio
