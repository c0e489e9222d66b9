#include "document/html/domsnapshot.h"
#include "document/html/htmlxpath.h"

#include "document/html/htmlloader.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace folio {

static constexpr qint64 kMaxSnapshotJson = qint64(64) << 20;

static bool readRect(const QJsonValue &v, QRectF *rect)
{
    const QJsonArray a = v.toArray();
    if (a.size() != 4)
        return false;
    for (const QJsonValue &x : a)
        if (!x.isDouble())
            return false;
    *rect = QRectF(a[0].toDouble(), a[1].toDouble(), qMax(0.0, a[2].toDouble()), qMax(0.0, a[3].toDouble()));
    return true;
}

bool parseDomSnapshotJson(const QByteArray &json, DomSnapshot *snapshot, QString *error)
{
    if (json.size() > kMaxSnapshotJson) {
        *error = QStringLiteral("snapshot JSON is %1 MB, the limit is 64 MB").arg(json.size() >> 20);
        return false;
    }
    QJsonParseError perr;
    const QJsonDocument jdoc = QJsonDocument::fromJson(json, &perr);
    if (perr.error != QJsonParseError::NoError || !jdoc.isObject()) {
        *error = QStringLiteral("snapshot is not a JSON object (%1 at offset %2)").arg(perr.errorString()).arg(perr.offset);
        return false;
    }
    const QJsonObject o = jdoc.object();
    if (o.value(QStringLiteral("format")).toString() != QLatin1String("folio.domsnapshot")) {
        *error = QStringLiteral("snapshot: \"format\" is not \"folio.domsnapshot\"");
        return false;
    }
    DomSnapshot s;
    s.url = o.value(QStringLiteral("url")).toString();
    s.pageSize = QSizeF(o.value(QStringLiteral("width")).toDouble(), o.value(QStringLiteral("height")).toDouble());
    const QJsonArray vp = o.value(QStringLiteral("viewport")).toArray();
    if (vp.size() == 2)
        s.viewport = QSizeF(vp[0].toDouble(), vp[1].toDouble());
    s.blockedRequests = o.value(QStringLiteral("blocked_requests")).toInt(-1);
    const QJsonArray nodes = o.value(QStringLiteral("nodes")).toArray();
    s.nodes.reserve(size_t(nodes.size()));
    for (qsizetype i = 0; i < nodes.size(); ++i) {
        const QJsonObject n = nodes[i].toObject();
        DomSnapshotNode node;
        node.xpath = n.value(QStringLiteral("xpath")).toString();
        if (node.xpath.isEmpty() || !readRect(n.value(QStringLiteral("box")), &node.box)) {
            *error = QStringLiteral("snapshot: node %1 has no xpath or no [x, y, w, h] box").arg(i);
            return false;
        }
        node.isText = n.contains(QStringLiteral("text"));
        node.text = n.value(QStringLiteral("text")).toString();
        node.visible = n.value(QStringLiteral("visible")).toBool(true);
        const QJsonArray words = n.value(QStringLiteral("words")).toArray();
        node.words.reserve(size_t(words.size()));
        for (const QJsonValue &w : words) {
            QRectF r;
            if (!readRect(w, &r)) {
                *error = QStringLiteral("snapshot: node %1 has a malformed word box").arg(i);
                return false;
            }
            node.words.push_back(r);
        }
        s.nodes.push_back(std::move(node));
    }
    *snapshot = std::move(s);
    return true;
}

SnapshotMergeStats mergeDomSnapshot(Document *doc, const DomSnapshot &snapshot)
{
    SnapshotMergeStats stats;
    doc->pages.clear();
    Page page;
    page.size = snapshot.pageSize;
    doc->pages.push_back(page);

    const int n = int(doc->nodes.size());
    std::vector<int> match(size_t(n), -1);           // doc node -> snapshot node
    std::vector<bool> used(snapshot.nodes.size(), false);
    const XPathIndex byXPath(*doc);
    for (int j = 0; j < int(snapshot.nodes.size()); ++j) {
        const int i = byXPath.find(snapshot.nodes[size_t(j)].xpath);
        if (i < 0 || match[size_t(i)] >= 0)
            continue;
        const Node &node = doc->nodes[size_t(i)];
        if (node.kind != NodeKind::Element && node.kind != NodeKind::Text)
            continue;
        const DomSnapshotNode &s = snapshot.nodes[size_t(j)];
        if ((node.kind == NodeKind::Text) != s.isText)
            continue;
        if (s.isText && s.text != node.text)
            continue; // same path, different text: the DOMs diverged here
        match[size_t(i)] = j;
        used[size_t(j)] = true;
        ++stats.nodesMatchedByXPath;
    }
    // Ordered fallback for text nodes: walk both sequences, look ahead a little for equal text.
    {
        std::vector<int> snapText;
        for (int j = 0; j < int(snapshot.nodes.size()); ++j)
            if (snapshot.nodes[size_t(j)].isText)
                snapText.push_back(j);
        size_t cursor = 0;
        constexpr size_t kLookahead = 64;
        for (int i = 0; i < n; ++i) {
            const Node &node = doc->nodes[size_t(i)];
            if (node.kind != NodeKind::Text)
                continue;
            if (match[size_t(i)] >= 0) {
                // keep the cursor just past the matched snapshot node
                const int j = match[size_t(i)];
                while (cursor < snapText.size() && snapText[cursor] <= j)
                    ++cursor;
                continue;
            }
            for (size_t k = cursor; k < snapText.size() && k < cursor + kLookahead; ++k) {
                const int j = snapText[k];
                if (!used[size_t(j)] && snapshot.nodes[size_t(j)].text == node.text) {
                    match[size_t(i)] = j;
                    used[size_t(j)] = true;
                    cursor = k + 1;
                    ++stats.textNodesMatchedByText;
                    break;
                }
            }
        }
    }
    for (int i = 0; i < n; ++i) {
        Node &node = doc->nodes[size_t(i)];
        if (node.kind != NodeKind::Element && node.kind != NodeKind::Text)
            continue;
        const int j = match[size_t(i)];
        if (j < 0) {
            ++stats.nodesUnmatched;
            node.page = -1;
            node.box = QRectF();
            continue;
        }
        node.page = 0;
        node.box = snapshot.nodes[size_t(j)].box;
        node.visible = snapshot.nodes[size_t(j)].visible;
    }
    // Words: grouped by node, in order.
    size_t w = 0;
    while (w < doc->words.size()) {
        const int nodeIndex = doc->words[w].node;
        size_t end = w;
        while (end < doc->words.size() && doc->words[end].node == nodeIndex)
            ++end;
        const int j = nodeIndex >= 0 && nodeIndex < n ? match[size_t(nodeIndex)] : -1;
        if (j >= 0) {
            const DomSnapshotNode &s = snapshot.nodes[size_t(j)];
            const bool perToken = s.words.size() == end - w;
            for (size_t k = w; k < end; ++k) {
                Word &word = doc->words[k];
                word.page = 0;
                word.box = perToken ? s.words[k - w] : s.box;
                ++stats.wordsBoxed;
                if (!perToken)
                    ++stats.wordsFromNodeBox;
            }
        }
        w = end;
    }
    doc->normaliseWordBoxes();
    return stats;
}

} // namespace folio
