#include "document/formats/qsoutline.h"

#include "document/formats/datasetlimits.h"
#include "document/formats/qsdocument.h"
#include "document/qstree.h"

namespace folio {

using namespace formats;

namespace {

// What an outline shows of one item, whatever the markup.
struct OutlineLine
{
    QString number;
    int depth = 1;
    QString question;
    QString summary;
    QString note;            // "suggested, 62 %" / "edited"; empty when accepted
    QStringList sections;    // evidence section titles
    QStringList quotes;      // evidence span texts
};

QString spanText(const Document &doc, const QHash<QString, int> &wordIndex, const QsEvidenceSpan &span)
{
    if (!span.text.isEmpty())
        return span.text.left(300);
    int first = -1, last = -1;
    if (!qsResolveSpan(wordIndex, span, &first, &last))
        return QStringLiteral("%1 .. %2").arg(span.firstWord, span.lastWord);
    QStringList words;
    for (int w = first; w <= last && words.size() < 40; ++w)
        words << doc.words[size_t(w)].text;
    return words.join(QLatin1Char(' ')) + (last - first >= 40 ? QStringLiteral(" ...") : QString());
}

std::vector<OutlineLine> outlineLines(const DatasetItem &item)
{
    const Document &doc = item.document;
    const QHash<QString, int> wordIndex = qsWordIndex(doc);
    std::vector<OutlineLine> out;
    const std::vector<QsNode> shown = exportedQsRoots(item.annotations.qsRoots, true); // qsItems points into it
    for (const QsItem &it : qsItems(shown)) {
        const QsNode &n = *it.node;
        OutlineLine line{it.number, it.depth, n.question, n.summary, QString(), {}, {}};
        if (n.state == ReviewState::Suggested)
            line.note = QStringLiteral("suggested, %1 %").arg(qRound(n.confidence * 100));
        else if (n.state == ReviewState::Edited)
            line.note = QStringLiteral("edited");
        for (const QString &key : n.evidenceSections) {
            const int s = qsResolveSection(doc, key);
            line.sections << (s >= 0 ? doc.sections[size_t(s)].title : key);
        }
        for (const QsEvidenceSpan &span : n.evidenceSpans)
            line.quotes << spanText(doc, wordIndex, span);
        out.push_back(std::move(line));
    }
    return out;
}

QString markdownEscaped(QString s)
{
    s = s.simplified();
    QString out;
    for (const QChar c : s) {
        if (QStringLiteral("\\`*_[]<>#|").contains(c))
            out += QLatin1Char('\\');
        out += c;
    }
    return out;
}

QByteArray markdown(const std::vector<DatasetItem> &items)
{
    QString md;
    for (const DatasetItem &item : items) {
        md += QStringLiteral("# %1\n\n").arg(markdownEscaped(item.name.isEmpty() ? item.document.title : item.name));
        if (!item.annotations.qsSummary.trimmed().isEmpty())
            md += markdownEscaped(item.annotations.qsSummary) + QStringLiteral("\n\n");
        for (const OutlineLine &l : outlineLines(item)) {
            const QString indent(2 * (l.depth - 1), QLatin1Char(' '));
            md += QStringLiteral("%1- **%2 %3** %4").arg(indent, l.number, markdownEscaped(l.question), markdownEscaped(l.summary));
            if (!l.note.isEmpty())
                md += QStringLiteral(" *(%1)*").arg(l.note);
            md += QLatin1Char('\n');
            for (const QString &s : l.sections)
                md += QStringLiteral("%1  - Section: %2\n").arg(indent, markdownEscaped(s));
            for (const QString &q : l.quotes)
                md += QStringLiteral("%1  - > %2\n").arg(indent, markdownEscaped(q));
        }
        md += QLatin1Char('\n');
    }
    return md.toUtf8();
}

QByteArray html(const std::vector<DatasetItem> &items)
{
    QString h = QStringLiteral("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Question-summary hierarchies</title>\n"
                               "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
                               "li{margin:.3em 0}.q{font-weight:bold}.note{color:#a60}.ev{color:#555;font-size:90%}"
                               "blockquote{margin:.2em 1em;color:#555}</style></head><body>\n");
    for (const DatasetItem &item : items) {
        h += QStringLiteral("<h1>%1</h1>\n").arg((item.name.isEmpty() ? item.document.title : item.name).toHtmlEscaped());
        if (!item.annotations.qsSummary.trimmed().isEmpty())
            h += QStringLiteral("<p>%1</p>\n").arg(item.annotations.qsSummary.toHtmlEscaped());
        int depth = 0;
        for (const OutlineLine &l : outlineLines(item)) {
            for (; depth < l.depth; ++depth)
                h += QStringLiteral("<ul>\n");
            for (; depth > l.depth; --depth)
                h += QStringLiteral("</ul>\n");
            h += QStringLiteral("<li><span class=\"q\">%1 %2</span> %3").arg(l.number, l.question.toHtmlEscaped(), l.summary.toHtmlEscaped());
            if (!l.note.isEmpty())
                h += QStringLiteral(" <span class=\"note\">(%1)</span>").arg(l.note.toHtmlEscaped());
            if (!l.sections.isEmpty())
                h += QStringLiteral("<div class=\"ev\">Sections: %1</div>").arg(l.sections.join(QStringLiteral("; ")).toHtmlEscaped());
            for (const QString &q : l.quotes)
                h += QStringLiteral("<blockquote>%1</blockquote>").arg(q.toHtmlEscaped());
            h += QStringLiteral("</li>\n");
        }
        for (; depth > 0; --depth)
            h += QStringLiteral("</ul>\n");
    }
    h += QStringLiteral("</body></html>\n");
    return h.toUtf8();
}

bool refuseImport(const QString &format, const QString &path, QString *error)
{
    *error = QStringLiteral("%1: %2 is an export-only format (an outline for people)").arg(path, format);
    return false;
}

} // namespace

bool QsMarkdownFormat::exportItems(const std::vector<DatasetItem> &items, const QString &outDir,
                                   const DatasetExportOptions &options, QStringList *written, QString *error) const
{
    return checkDatasetItems(items, QStringLiteral("export"), error) && ensureDir(outDir, error)
           && writeExportFile(exportFilePath(outDir, options, QStringLiteral(".md")), markdown(items), written, error);
}

bool QsMarkdownFormat::importFile(const QString &path, std::vector<DatasetItem> *, QString *error) const
{
    return refuseImport(name(), path, error);
}

bool QsHtmlFormat::exportItems(const std::vector<DatasetItem> &items, const QString &outDir,
                               const DatasetExportOptions &options, QStringList *written, QString *error) const
{
    return checkDatasetItems(items, QStringLiteral("export"), error) && ensureDir(outDir, error)
           && writeExportFile(exportFilePath(outDir, options, QStringLiteral(".html")), html(items), written, error);
}

bool QsHtmlFormat::importFile(const QString &path, std::vector<DatasetItem> *, QString *error) const
{
    return refuseImport(name(), path, error);
}

} // namespace folio
