#include "document/formats/hibridsformat.h"

#include "document/formats/datasetlimits.h"
#include "document/formats/jsonvalidate.h"
#include "document/formats/qsdocument.h"
#include "document/qstree.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace folio {

using namespace formats;

namespace {

QJsonArray paragraphTexts(const std::vector<QsParagraph> &paragraphs)
{
    QJsonArray out;
    for (const QsParagraph &p : paragraphs)
        out.append(paragraphPlainText(p));
    return out;
}

// The flat section list (levels = depth) as nested subsections.
QJsonArray nestedSections(const std::vector<QsTextSection> &sections)
{
    struct Open { QJsonObject object; QJsonArray subsections; int level; };
    std::vector<Open> stack;
    QJsonArray top;
    auto close = [&]() {
        Open done = std::move(stack.back());
        stack.pop_back();
        done.object.insert(QStringLiteral("subsections"), done.subsections);
        (stack.empty() ? top : stack.back().subsections).append(done.object);
    };
    for (const QsTextSection &s : sections) {
        while (!stack.empty() && stack.back().level >= s.level)
            close();
        stack.push_back({QJsonObject{{"section_title", s.title}, {"paragraphs", paragraphTexts(s.paragraphs)}}, {}, s.level});
    }
    while (!stack.empty())
        close();
    return top;
}

QJsonArray questionsJson(const std::vector<QsNode> &nodes, const Document &doc, const std::vector<QsParagraph> &paragraphs,
                         const QHash<QString, int> &wordIndex)
{
    QJsonArray out;
    for (const QsNode &n : nodes) { // depth <= maxQsDepth: checked before export
        QJsonArray alignment;
        for (int p : evidenceParagraphs(doc, paragraphs, wordIndex, n))
            alignment.append(p);
        out.append(QJsonObject{{"question", n.question},
                               {"answer", n.summary},
                               {"paragraph_alignment", alignment},
                               {"child_questions", questionsJson(n.children, doc, paragraphs, wordIndex)}});
    }
    return out;
}

struct Reader
{
    JsonValidator &jv;
    std::vector<int> kept;
    int keptCount = 0;

    bool paragraphs(const QJsonObject &o, const QString &at, std::vector<QsParagraph> *out)
    {
        QJsonArray list;
        if (!jv.arrayField(o, QStringLiteral("paragraphs"), at, &list))
            return false;
        for (int k = 0; k < list.size(); ++k) {
            QsParagraph p;
            if (!jv.string(list[k], jsonIndex(jsonKey(at, QStringLiteral("paragraphs")), k), &p.text))
                return false;
            countKeptParagraph(p, &kept, &keptCount);
            out->push_back(std::move(p));
        }
        return true;
    }

    // Pre-order walk of the subsections with an explicit stack.
    bool sections(const QJsonArray &top, std::vector<QsTextSection> *out)
    {
        struct Frame { QJsonArray list; int next; QString path; int level; };
        std::vector<Frame> stack{{top, 0, QStringLiteral("$.section.subsections"), 1}};
        while (!stack.empty()) {
            Frame &f = stack.back();
            if (f.next >= f.list.size()) {
                stack.pop_back();
                continue;
            }
            const QString at = jsonIndex(f.path, f.next);
            const QJsonValue value = f.list[f.next++];
            const int level = f.level;
            if (level > DatasetLimits::maxQsDepth)
                return jv.fail(at, QStringLiteral("sections nested deeper than %1 levels").arg(DatasetLimits::maxQsDepth));
            QJsonObject o;
            QJsonArray subsections;
            QsTextSection s;
            s.level = level;
            if (!jv.object(value, at, &o) || !jv.stringField(o, QStringLiteral("section_title"), at, &s.title)
                || !paragraphs(o, at, &s.paragraphs) || !jv.arrayField(o, QStringLiteral("subsections"), at, &subsections))
                return false;
            out->push_back(std::move(s));
            if (!subsections.isEmpty())
                stack.push_back({subsections, 0, jsonKey(at, QStringLiteral("subsections")), level + 1}); // f is stale now
        }
        return true;
    }

    bool questions(const QJsonArray &list, const QString &path, int depth, const Document &doc,
                   const std::vector<QsParagraph> &docParagraphs, std::vector<QsNode> *out)
    {
        if (depth > DatasetLimits::maxQsDepth && !list.isEmpty())
            return jv.fail(path, QStringLiteral("questions nested deeper than %1 levels").arg(DatasetLimits::maxQsDepth));
        for (int i = 0; i < list.size(); ++i) {
            const QString at = jsonIndex(path, i);
            QJsonObject o;
            QJsonArray alignment, children;
            QsNode n;
            if (!jv.object(list[i], at, &o) || !jv.stringField(o, QStringLiteral("question"), at, &n.question)
                || !jv.stringField(o, QStringLiteral("answer"), at, &n.summary)
                || !jv.arrayField(o, QStringLiteral("paragraph_alignment"), at, &alignment, false)
                || !jv.arrayField(o, QStringLiteral("child_questions"), at, &children, false)
                || !readAlignment(jv, alignment, jsonKey(at, QStringLiteral("paragraph_alignment")), kept, doc, docParagraphs,
                                  &n.evidenceSpans)
                || !questions(children, jsonKey(at, QStringLiteral("child_questions")), depth + 1, doc, docParagraphs, &n.children))
                return false;
            out->push_back(std::move(n));
        }
        return true;
    }
};

} // namespace

bool HibridsFormat::exportItems(const std::vector<DatasetItem> &items, const QString &outDir,
                                const DatasetExportOptions &options, QStringList *written, QString *error) const
{
    if (!checkDatasetItems(items, QStringLiteral("export"), error) || !ensureDir(outDir, error))
        return false;
    QByteArray out;
    for (const DatasetItem &item : items) {
        const Document &doc = item.document;
        std::vector<QsParagraph> preamble;
        std::vector<QsTextSection> sections;
        documentTextSections(doc, &preamble, &sections);
        const QJsonObject root{{"section_title", doc.title},
                               {"paragraphs", paragraphTexts(preamble)},
                               {"subsections", nestedSections(sections)}};
        const std::vector<QsNode> roots = exportedQsRoots(item.annotations.qsRoots, options.includeSuggestions);
        const QJsonObject row{{"doc_id", item.name},
                              {"summary", item.annotations.qsSummary},
                              {"section", root},
                              {"questions", questionsJson(roots, doc, documentParagraphs(doc), qsWordIndex(doc))}};
        out += QJsonDocument(row).toJson(QJsonDocument::Compact) + '\n';
    }
    return writeExportFile(exportFilePath(outDir, options, QStringLiteral(".hibrids.jsonl")), out, written, error);
}

bool HibridsFormat::importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const
{
    JsonValidator jv(path);
    return importJsonLines(path, jv, [&](int, const QJsonObject &row, DatasetItem &item) {
        Reader r{jv, {}, 0};
        const QString root = QStringLiteral("$");
        QJsonObject section;
        QJsonArray subsections, questions;
        QString title;
        std::vector<QsParagraph> preamble;
        std::vector<QsTextSection> sections;
        const QString at = QStringLiteral("$.section");
        bool ok = jv.stringField(row, QStringLiteral("doc_id"), root, &item.name)
                  && jv.stringField(row, QStringLiteral("summary"), root, &item.annotations.qsSummary, false)
                  && jv.objectField(row, QStringLiteral("section"), root, &section)
                  && jv.arrayField(row, QStringLiteral("questions"), root, &questions)
                  && jv.stringField(section, QStringLiteral("section_title"), at, &title)
                  && r.paragraphs(section, at, &preamble)
                  && jv.arrayField(section, QStringLiteral("subsections"), at, &subsections) && r.sections(subsections, &sections);
        if (ok) {
            item.document = documentFromParagraphs(item.name, title, preamble, sections);
            ok = r.questions(questions, QStringLiteral("$.questions"), 1, item.document, documentParagraphs(item.document),
                             &item.annotations.qsRoots);
        }
        if (!ok)
            *error = jv.error();
        return ok;
    }, items, error);
}

} // namespace folio
