#include "document/formats/qmsumformat.h"

#include "document/formats/datasetlimits.h"
#include "document/formats/jsonvalidate.h"
#include "document/formats/qsdocument.h"
#include "document/qstree.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <numeric>

namespace folio {

using namespace formats;

namespace {

using TurnSpans = std::vector<std::pair<int, int>>;

// [[start, end], ...], numbers or strings of digits, 0 <= start <= end < turns.
bool readSpans(JsonValidator &jv, const QJsonValue &value, const QString &path, int turns, TurnSpans *out)
{
    QJsonArray list;
    if (!jv.array(value, path, &list))
        return false;
    for (int i = 0; i < list.size(); ++i) {
        const QString at = jsonIndex(path, i);
        QJsonArray pair;
        if (!jv.array(list[i], at, &pair))
            return false;
        int ends[2] = {0, 0};
        if (pair.size() != 2)
            return jv.fail(at, QStringLiteral("expected [start, end], found %1 values").arg(pair.size()));
        for (int k = 0; k < 2; ++k) {
            bool ok = pair[k].isDouble();
            if (ok && !jv.integer(pair[k], jsonIndex(at, k), &ends[k]))
                return false;
            if (!ok && pair[k].isString()) {
                static const QRegularExpression digits(QStringLiteral("^\\s*[0-9]{1,9}\\s*$"));
                ok = digits.match(pair[k].toString()).hasMatch();
                ends[k] = pair[k].toString().trimmed().toInt();
            }
            if (!ok)
                return jv.fail(jsonIndex(at, k), QStringLiteral("expected a turn number"));
        }
        if (ends[0] < 0 || ends[1] < ends[0] || ends[1] >= turns)
            return jv.fail(at, QStringLiteral("span [%1, %2] is not within the %3 turns in order").arg(ends[0]).arg(ends[1]).arg(turns));
        out->push_back({ends[0], ends[1]});
    }
    return true;
}

QJsonArray spansJson(const std::vector<int> &turns)
{
    QJsonArray out;
    for (size_t i = 0; i < turns.size();) {
        size_t j = i + 1;
        while (j < turns.size() && turns[j] == turns[j - 1] + 1)
            ++j;
        out.append(QJsonArray{QString::number(turns[i]), QString::number(turns[j - 1])});
        i = j;
    }
    return out;
}

bool queryFields(JsonValidator &jv, const QJsonValue &value, const QString &at, QJsonObject *o, QsNode *n)
{
    return jv.object(value, at, o) && jv.stringField(*o, QStringLiteral("query"), at, &n->question)
           && jv.stringField(*o, QStringLiteral("answer"), at, &n->summary);
}

QString fileStem(const QString &name, QSet<QString> *used)
{
    QString stem = name;
    stem.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    if (stem.isEmpty() || stem.startsWith(QLatin1Char('.')))
        stem.prepend(QStringLiteral("meeting"));
    stem = stem.left(200);
    QString unique = stem;
    for (int k = 2; used->contains(unique); ++k)
        unique = stem + QStringLiteral("-%1").arg(k);
    used->insert(unique);
    return unique;
}

QJsonObject meetingJson(const DatasetItem &item, bool includeSuggestions)
{
    const Document &doc = item.document;
    const std::vector<QsParagraph> paragraphs = documentParagraphs(doc);
    QJsonArray turns;
    std::vector<std::pair<int, int>> sectionTurns(doc.sections.size(), {-1, -1});
    for (int i = 0; i < int(paragraphs.size()); ++i) {
        const QsParagraph &p = paragraphs[size_t(i)];
        turns.append(QJsonObject{{"speaker", p.speaker}, {"content", p.text}});
        if (p.section >= 0) {
            auto &range = sectionTurns[size_t(p.section)];
            range.first = range.first < 0 ? i : range.first;
            range.second = i;
        }
    }
    QJsonArray topics;
    for (size_t s = 0; s < doc.sections.size(); ++s)
        if (sectionTurns[s].first >= 0)
            topics.append(QJsonObject{{"topic", doc.sections[s].title},
                                      {"relevant_text_span", QJsonArray{QJsonArray{QString::number(sectionTurns[s].first),
                                                                                   QString::number(sectionTurns[s].second)}}}});
    QJsonArray general, specific;
    if (!item.annotations.qsSummary.isEmpty())
        general.append(QJsonObject{{"query", QString()}, {"answer", item.annotations.qsSummary}});
    const QHash<QString, int> wordIndex = qsWordIndex(doc);
    const std::vector<QsNode> roots = exportedQsRoots(item.annotations.qsRoots, includeSuggestions);
    for (const QsFlatItem &f : flattenQs(roots)) {
        if (f.depth == 1)
            general.append(QJsonObject{{"query", f.node->question}, {"answer", f.node->summary}});
        else
            specific.append(QJsonObject{{"query", f.node->question},
                                        {"answer", f.node->summary},
                                        {"relevant_text_span", spansJson(evidenceParagraphs(doc, paragraphs, wordIndex, *f.node))}});
    }
    return QJsonObject{{"meeting_transcripts", turns},
                       {"topic_list", topics},
                       {"general_query_list", general},
                       {"specific_query_list", specific}};
}

bool readMeeting(JsonValidator &jv, const QJsonObject &o, const QString &name, DatasetItem *item)
{
    const QString root = QStringLiteral("$");
    QJsonArray transcript, topics, general, specific;
    if (!jv.arrayField(o, QStringLiteral("meeting_transcripts"), root, &transcript)
        || !jv.arrayField(o, QStringLiteral("topic_list"), root, &topics, false)
        || !jv.arrayField(o, QStringLiteral("general_query_list"), root, &general, false)
        || !jv.arrayField(o, QStringLiteral("specific_query_list"), root, &specific, false))
        return false;
    std::vector<QsParagraph> turns;
    std::vector<int> kept;
    int keptCount = 0;
    qint64 words = 0;
    for (int i = 0; i < transcript.size(); ++i) {
        const QString at = jsonIndex(QStringLiteral("$.meeting_transcripts"), i);
        QJsonObject t;
        QsParagraph p;
        if (!jv.object(transcript[i], at, &t) || !jv.stringField(t, QStringLiteral("speaker"), at, &p.speaker)
            || !jv.stringField(t, QStringLiteral("content"), at, &p.text))
            return false;
        if (!countParagraphWords(p, &words))
            return jv.fail(at, QStringLiteral("the transcript has more than %1 words up to here, the limit of one document")
                                   .arg(DatasetLimits::maxWords));
        countKeptParagraph(p, &kept, &keptCount);
        turns.push_back(std::move(p));
    }
    const int n = int(turns.size());
    std::vector<int> starts;
    QStringList titles;
    for (int i = 0; i < topics.size(); ++i) {
        const QString at = jsonIndex(QStringLiteral("$.topic_list"), i);
        QJsonObject t;
        QString title;
        QJsonValue spansValue;
        TurnSpans spans;
        if (!jv.object(topics[i], at, &t) || !jv.stringField(t, QStringLiteral("topic"), at, &title)
            || !jv.field(t, QStringLiteral("relevant_text_span"), at, &spansValue)
            || !readSpans(jv, spansValue, jsonKey(at, QStringLiteral("relevant_text_span")), n, &spans))
            return false;
        int start = n;
        for (const auto &s : spans)
            start = std::min(start, s.first);
        starts.push_back(start);
        titles << title;
    }
    std::vector<int> order(starts.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return starts[size_t(a)] < starts[size_t(b)]; });
    const int firstTopic = order.empty() ? n : starts[size_t(order.front())];
    std::vector<QsParagraph> preamble(turns.begin(), turns.begin() + firstTopic);
    std::vector<QsTextSection> sections;
    for (size_t k = 0; k < order.size(); ++k) {
        const int from = starts[size_t(order[k])];
        const int to = k + 1 < order.size() ? starts[size_t(order[k + 1])] : n;
        sections.push_back({titles.at(order[k]), 1, std::vector<QsParagraph>(turns.begin() + from, turns.begin() + to)});
    }
    item->name = name;
    item->document = documentFromParagraphs(name, name, preamble, sections);
    const std::vector<QsParagraph> paragraphs = documentParagraphs(item->document);
    std::vector<QsNode> &roots = item->annotations.qsRoots;
    for (int i = 0; i < general.size(); ++i) {
        QJsonObject q;
        QsNode node;
        if (!queryFields(jv, general[i], jsonIndex(QStringLiteral("$.general_query_list"), i), &q, &node))
            return false;
        roots.push_back(std::move(node));
    }
    for (int i = 0; i < specific.size(); ++i) {
        const QString at = jsonIndex(QStringLiteral("$.specific_query_list"), i);
        QJsonObject q;
        QsNode node;
        TurnSpans spans;
        if (!queryFields(jv, specific[i], at, &q, &node))
            return false;
        if (q.contains(QStringLiteral("relevant_text_span"))
            && !readSpans(jv, q.value(QStringLiteral("relevant_text_span")), jsonKey(at, QStringLiteral("relevant_text_span")), n, &spans))
            return false;
        std::vector<int> indices;
        for (const auto &s : spans)
            for (int t = s.first; t <= s.second; ++t)
                if (kept[size_t(t)] >= 0)
                    indices.push_back(kept[size_t(t)]);
        std::sort(indices.begin(), indices.end());
        indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
        node.evidenceSpans = paragraphSpans(item->document, paragraphs, indices);
        if (roots.empty())
            roots.emplace_back();
        roots.front().children.push_back(std::move(node));
    }
    return true;
}

} // namespace

bool QmsumFormat::exportItems(const std::vector<DatasetItem> &items, const QString &outDir,
                              const DatasetExportOptions &options, QStringList *written, QString *error) const
{
    if (!checkDatasetItems(items, QStringLiteral("export"), error) || !ensureDir(outDir, error))
        return false;
    QSet<QString> used;
    for (const DatasetItem &item : items) {
        const QString path = QDir(outDir).filePath(fileStem(item.name, &used) + QStringLiteral(".json"));
        if (!writeExportFile(path, QJsonDocument(meetingJson(item, options.includeSuggestions)).toJson(QJsonDocument::Compact),
                             written, error))
            return false;
    }
    return true;
}

bool QmsumFormat::importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const
{
    QByteArray bytes;
    if (!readWholeFile(path, &bytes, error, DatasetLimits::maxJsonFileBytes))
        return false;
    JsonValidator jv(path);
    QJsonValue value;
    QJsonObject o;
    DatasetItem item;
    if (!jv.parse(bytes, &value) || !jv.object(value, QStringLiteral("$"), &o)
        || !readMeeting(jv, o, QFileInfo(path).completeBaseName(), &item)) {
        *error = jv.error();
        return false;
    }
    if (!checkDatasetItem(item, path, error))
        return false;
    items->clear();
    items->push_back(std::move(item));
    return true;
}

} // namespace folio
