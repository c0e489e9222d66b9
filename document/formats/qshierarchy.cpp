#include "document/formats/qshierarchy.h"

#include "document/documentjson.h"
#include "document/formats/datasetlimits.h"
#include "document/formats/jsonvalidate.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace folio {

using namespace formats;

static const QString kDown = QStringLiteral("[L\u2193]");
static const QString kHold = QStringLiteral("[L-]");
static const QString kUp = QStringLiteral("[L\u2191]");

static void linearizeNodes(const std::vector<QsNode> &nodes, int depth, int *current, QStringList *parts)
{
    for (const QsNode &n : nodes) {
        QStringList actions;
        if (*current < 0 || depth == *current)
            actions << kHold;
        else if (depth > *current)
            for (int i = *current; i < depth; ++i)
                actions << kDown;
        else
            for (int i = depth; i < *current; ++i)
                actions << kUp;
        *current = depth;
        QString item = n.question.trimmed();
        if (!n.summary.trimmed().isEmpty())
            item += (item.isEmpty() ? QString() : QStringLiteral(" ")) + n.summary.trimmed();
        *parts << actions.join(QLatin1Char(' ')) + QLatin1Char(' ') + item;
        linearizeNodes(n.children, depth + 1, current, parts);
    }
}

QString linearizeQsHierarchy(const QString &rootSummary, const std::vector<QsNode> &roots)
{
    QStringList parts{rootSummary.trimmed()};
    int current = -1;
    linearizeNodes(roots, 0, &current, &parts);
    return parts.join(QLatin1Char(' '));
}

bool parseLinearizedQsHierarchy(const QString &text, QString *rootSummary, std::vector<QsNode> *roots, QString *error)
{
    static const QRegularExpression token(QStringLiteral("\\[L(\u2193|-|\u2191)\\]"));
    roots->clear();
    // path[d] = index chain to the last node at depth d.
    std::vector<QsNode *> last; // last node at each depth
    int pos = 0;
    auto it = token.globalMatch(text);
    QRegularExpressionMatch m = it.hasNext() ? it.next() : QRegularExpressionMatch();
    *rootSummary = (m.hasMatch() ? text.left(m.capturedStart()) : text).trimmed();
    int current = -1;
    while (m.hasMatch()) {
        int downs = 0, ups = 0, holds = 0;
        // A run of action tokens separated by blanks.
        for (;;) {
            const QString a = m.captured(1);
            downs += a == QStringLiteral("\u2193");
            ups += a == QStringLiteral("\u2191");
            holds += a == QLatin1String("-");
            pos = int(m.capturedEnd());
            QRegularExpressionMatch next = it.hasNext() ? it.next() : QRegularExpressionMatch();
            if (next.hasMatch() && text.mid(pos, next.capturedStart() - pos).trimmed().isEmpty()) {
                m = next;
                continue;
            }
            m = next;
            break;
        }
        const QString item = (m.hasMatch() ? text.mid(pos, m.capturedStart() - pos) : text.mid(pos)).trimmed();
        int depth = current < 0 ? 0 : current;
        if (downs > 0)
            depth = current + 1;        // a run of pushes is one push
        else if (ups > 0)
            depth = std::max(0, current - ups);
        if (current < 0)
            depth = 0;
        QsNode node;
        const int q = item.indexOf(QLatin1Char('?'));
        if (q >= 0) {
            node.question = item.left(q + 1).trimmed();
            node.summary = item.mid(q + 1).trimmed();
        } else {
            node.summary = item;
        }
        if (depth >= DatasetLimits::maxQsDepth) {
            *error = QStringLiteral("item \"%1\" is at level %2: hierarchy deeper than %3 levels")
                         .arg(item.left(80)).arg(depth + 1).arg(DatasetLimits::maxQsDepth);
            return false;
        }
        if (depth == 0) {
            roots->push_back(node);
            last.assign(1, &roots->back());
        } else {
            if (int(last.size()) < depth) {
                *error = QStringLiteral("item \"%1\" goes deeper than its parent").arg(item);
                return false;
            }
            QsNode *parent = last[size_t(depth - 1)];
            parent->children.push_back(node);
            last.resize(size_t(depth));
            last.push_back(&parent->children.back());
        }
        // Pointers into vectors are refreshed: a push_back may move siblings of an ancestor,
        // but never an ancestor itself (ancestors only gain children).
        current = depth;
    }
    return true;
}

// The nodes as the Document JSON writes them (documentjson.h): question, summary, evidence,
// children, and id / spans / source / confidence / state / evidenceMissing when not at their default.
static QJsonArray nodesToJson(const std::vector<QsNode> &nodes)
{
    Annotations a;
    a.qsRoots = nodes;
    return annotationsToJsonObject(a).value(QStringLiteral("qs")).toObject().value(QStringLiteral("nodes")).toArray();
}

// The keys beyond question / summary / evidence / children, read by the Document JSON reader;
// its messages name "annotations.qs.nodes[i]...", rewritten to the file's path.
static bool readNodeDetails(const QString &path, int line, const QJsonArray &hierarchy, std::vector<QsNode> *out,
                            QString *error)
{
    Annotations a;
    QString problem;
    const QJsonObject qs{{QStringLiteral("summary"), QString()}, {QStringLiteral("nodes"), hierarchy}};
    if (!annotationsFromJsonObject(QJsonObject{{QStringLiteral("qs"), qs}}, &a, &problem)) {
        problem.replace(QStringLiteral("annotations.qs.nodes"), QStringLiteral("$.hierarchy"));
        *error = QStringLiteral("%1:%2: %3").arg(path).arg(line).arg(problem);
        return false;
    }
    *out = std::move(a.qsRoots);
    return true;
}

static bool nodesFromJson(JsonValidator &jv, const QJsonArray &arr, const QString &path, int depth,
                          std::vector<QsNode> *out)
{
    if (depth >= DatasetLimits::maxQsDepth)
        return jv.fail(path, QStringLiteral("hierarchy deeper than %1 levels").arg(DatasetLimits::maxQsDepth));
    for (int i = 0; i < arr.size(); ++i) {
        const QString np = jsonIndex(path, i);
        QJsonObject o;
        QsNode n;
        QJsonArray evidence, children;
        if (!jv.object(arr[i], np, &o) || !jv.stringField(o, QStringLiteral("question"), np, &n.question) ||
            !jv.stringField(o, QStringLiteral("summary"), np, &n.summary) ||
            !jv.arrayField(o, QStringLiteral("evidence"), np, &evidence, false) ||
            !jv.arrayField(o, QStringLiteral("children"), np, &children, false))
            return false;
        for (int k = 0; k < evidence.size(); ++k) {
            QString e;
            if (!jv.string(evidence[k], jsonIndex(jsonKey(np, QStringLiteral("evidence")), k), &e))
                return false;
            n.evidenceSections << e;
        }
        if (!nodesFromJson(jv, children, jsonKey(np, QStringLiteral("children")), depth + 1, &n.children))
            return false;
        out->push_back(std::move(n));
    }
    return true;
}

bool QsHierarchyFormat::exportItems(const std::vector<DatasetItem> &items, const QString &outDir,
                                    const DatasetExportOptions &options, QStringList *written, QString *error) const
{
    if (!checkDatasetItems(items, QStringLiteral("export"), error) || !ensureDir(outDir, error))
        return false;
    QByteArray out;
    for (const DatasetItem &item : items) {
        const Annotations &a = item.annotations;
        QJsonObject row{{QStringLiteral("id"), item.name},
                        {QStringLiteral("summary"), a.qsSummary},
                        {QStringLiteral("hierarchy"), nodesToJson(a.qsRoots)},
                        {QStringLiteral("linearised"), linearizeQsHierarchy(a.qsSummary, a.qsRoots)}};
        out += QJsonDocument(row).toJson(QJsonDocument::Compact) + '\n';
    }
    return writeExportFile(exportFilePath(outDir, options, QStringLiteral(".qs.jsonl")), out, written, error);
}

bool QsHierarchyFormat::importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const
{
    JsonValidator jv(path);
    const QString root = QStringLiteral("$");
    return importJsonLines(path, jv, [&](int line, const QJsonObject &row, DatasetItem &item) {
        if (!jv.stringField(row, QStringLiteral("id"), root, &item.name)) {
            *error = jv.error();
            return false;
        }
        if (row.contains(QStringLiteral("hierarchy"))) {
            QJsonArray h;
            if (!jv.stringField(row, QStringLiteral("summary"), root, &item.annotations.qsSummary) ||
                !jv.arrayField(row, QStringLiteral("hierarchy"), root, &h) ||
                !nodesFromJson(jv, h, QStringLiteral("$.hierarchy"), 0, &item.annotations.qsRoots)) {
                *error = jv.error();
                return false;
            }
            if (!readNodeDetails(path, line, h, &item.annotations.qsRoots, error))
                return false;
        } else {
            QString lin, e;
            if (!jv.stringField(row, QStringLiteral("linearised"), root, &lin)) {
                jv = JsonValidator(path);
                jv.setContext(QString::number(line));
                jv.fail(root, QStringLiteral("needs \"hierarchy\" or \"linearised\""));
                *error = jv.error();
                return false;
            }
            if (!parseLinearizedQsHierarchy(lin, &item.annotations.qsSummary, &item.annotations.qsRoots, &e)) {
                *error = QStringLiteral("%1:%2: $.linearised: %3").arg(path).arg(line).arg(e);
                return false;
            }
        }
        item.document.sourcePath = item.name;
        return true;
    }, items, error);
}

} // namespace folio
