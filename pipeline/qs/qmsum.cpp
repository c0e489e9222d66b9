#include "pipeline/qs/qmsum.h"

#include "common/regularfile.h"
#include "document/formats/datasetlimits.h"
#include "document/formats/qsdocument.h"

#include <algorithm>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace folio::pipeline {

namespace {

constexpr qint64 kMaxFileBytes = qint64(64) << 20;

bool readJsonObject(const QString &path, QJsonObject *out, QString *error)
{
    // A regular file only, its size from stat (issue 51: a FIFO blocked here, /dev/zero filled memory).
    std::string notAFile;
    if (regularFileSize(QFile::encodeName(path).toStdString(), kMaxFileBytes, "this QMSum file", &notAFile) < 0) {
        *error = QFile::decodeName(QByteArray::fromStdString(notAFile));
        return false;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = path + QStringLiteral(": cannot read: ") + f.errorString();
        return false;
    }
    if (f.size() > kMaxFileBytes) {
        *error = path + QStringLiteral(": larger than 64 MiB");
        return false;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (!doc.isObject()) {
        *error = path + QStringLiteral(": not a JSON object (") + pe.errorString() + QLatin1Char(')');
        return false;
    }
    *out = doc.object();
    return true;
}

int turnIndex(const QJsonValue &v, bool *ok)
{
    if (v.isDouble()) {
        *ok = true;
        return v.toInt();
    }
    return v.toString().trimmed().toInt(ok);
}

// [[start, end], ...] as strings or numbers, inclusive, within [0, turns).
bool readSpans(const QJsonValue &value, int turns, const QString &where, std::vector<std::pair<int, int>> *spans,
               QString *error)
{
    if (!value.isArray()) {
        *error = where + QStringLiteral(": relevant_text_span is not an array");
        return false;
    }
    for (const QJsonValue &span : value.toArray()) {
        const QJsonArray pair = span.toArray();
        bool ok1 = false, ok2 = false;
        const int a = pair.size() == 2 ? turnIndex(pair.at(0), &ok1) : 0;
        const int b = pair.size() == 2 ? turnIndex(pair.at(1), &ok2) : 0;
        if (!ok1 || !ok2 || a < 0 || b < a || b >= turns) {
            *error = where + QStringLiteral(": span %1 is not [start, end] within the %2 turns")
                                 .arg(QString::fromUtf8(QJsonDocument(QJsonArray{span}).toJson(QJsonDocument::Compact)))
                                 .arg(turns);
            return false;
        }
        spans->push_back({a, b});
    }
    return true;
}

} // namespace

bool looksLikeQmsum(const QString &path)
{
    QJsonObject o;
    QString error;
    return readJsonObject(path, &o, &error) && o.value(QStringLiteral("meeting_transcripts")).isArray();
}

bool readQmsumMeeting(const QString &path, QmsumMeeting *meeting, QString *error)
{
    QJsonObject o;
    if (!readJsonObject(path, &o, error))
        return false;
    QmsumMeeting m;
    m.id = QFileInfo(path).completeBaseName();
    m.input.id = m.id;
    const QJsonValue transcript = o.value(QStringLiteral("meeting_transcripts"));
    if (!transcript.isArray()) {
        *error = path + QStringLiteral(": no meeting_transcripts array (not a QMSum meeting)");
        return false;
    }
    qint64 words = 0; // counted before the turns become paragraphs and words (a 52 MB turn took 3.7 GB)
    for (const QJsonValue &t : transcript.toArray()) {
        const QJsonObject turn = t.toObject();
        formats::QsParagraph counted{turn.value(QStringLiteral("content")).toString(), turn.value(QStringLiteral("speaker")).toString()};
        if (!formats::countParagraphWords(counted, &words)) {
            *error = path + QStringLiteral(": turn %1: the transcript has more than %2 words up to here, the limit of one document")
                                .arg(m.turns.size()).arg(DatasetLimits::maxWords);
            return false;
        }
        const QString content = turn.value(QStringLiteral("content")).toString().simplified();
        const QString speaker = turn.value(QStringLiteral("speaker")).toString().simplified();
        m.turns << (speaker.isEmpty() ? content : speaker + QStringLiteral(": ") + content);
    }
    const int n = int(m.turns.size());
    const QJsonArray topics = o.value(QStringLiteral("topic_list")).toArray();
    for (int i = 0; i < topics.size(); ++i) {
        const QJsonObject topic = topics.at(i).toObject();
        std::vector<std::pair<int, int>> spans;
        if (!readSpans(topic.value(QStringLiteral("relevant_text_span")), n,
                       path + QStringLiteral(": topic %1").arg(i), &spans, error))
            return false;
        QsSectionText s;
        s.title = topic.value(QStringLiteral("topic")).toString().simplified();
        for (const auto &span : spans)
            for (int t = span.first; t <= span.second; ++t)
                s.paragraphs << m.turns.at(t);
        m.input.sections.push_back(s);
        m.sectionSpans.push_back(spans);
    }
    if (m.input.sections.empty()) {
        QsSectionText s;
        s.title = m.id;
        s.paragraphs = m.turns;
        m.input.sections.push_back(s);
        m.sectionSpans.push_back({{0, std::max(0, n - 1)}});
    }
    const QJsonArray general = o.value(QStringLiteral("general_query_list")).toArray();
    for (int i = 0; i < general.size(); ++i) {
        const QString answer = general.at(i).toObject().value(QStringLiteral("answer")).toString().simplified();
        if (i == 0)
            m.reference.rootSummary = answer.toStdString();
        else
            m.extraGeneral << answer;
    }
    const QJsonArray specific = o.value(QStringLiteral("specific_query_list")).toArray();
    for (int i = 0; i < specific.size(); ++i) {
        const QJsonObject q = specific.at(i).toObject();
        inference::QsItem item;
        item.question = q.value(QStringLiteral("query")).toString().simplified().toStdString();
        item.summary = q.value(QStringLiteral("answer")).toString().simplified().toStdString();
        item.depth = 1;
        std::vector<std::pair<int, int>> spans;
        if (q.contains(QStringLiteral("relevant_text_span"))
            && !readSpans(q.value(QStringLiteral("relevant_text_span")), n,
                          path + QStringLiteral(": specific query %1").arg(i), &spans, error))
            return false;
        m.reference.items.push_back(item);
        m.evidence.push_back(spans);
    }
    *meeting = std::move(m);
    return true;
}

bool readQmsumSplit(const QString &dir, const QString &split, std::vector<QmsumMeeting> *meetings, QString *error,
                    int limit)
{
    QDir d(QDir(dir).filePath(split));
    if (!d.exists())
        d = QDir(QDir(dir).filePath(QStringLiteral("data/ALL/") + split));
    if (!d.exists()) {
        *error = dir + QStringLiteral(": no '%1' split (looked for %1/ and data/ALL/%1/)").arg(split);
        return false;
    }
    const QStringList files = d.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    if (files.isEmpty()) {
        *error = d.path() + QStringLiteral(": no meeting JSON files");
        return false;
    }
    meetings->clear();
    for (const QString &f : files) {
        if (limit >= 0 && int(meetings->size()) >= limit)
            break;
        QmsumMeeting m;
        if (!readQmsumMeeting(d.filePath(f), &m, error))
            return false;
        meetings->push_back(std::move(m));
    }
    return true;
}

int evidenceSection(const QmsumMeeting &m, std::size_t item)
{
    if (item >= m.evidence.size())
        return -1;
    int best = -1;
    long bestOverlap = 0;
    for (std::size_t s = 0; s < m.sectionSpans.size(); ++s) {
        long overlap = 0;
        for (const auto &a : m.evidence[item])
            for (const auto &b : m.sectionSpans[s])
                overlap += std::max(0, std::min(a.second, b.second) - std::max(a.first, b.first) + 1);
        if (overlap > bestOverlap) {
            bestOverlap = overlap;
            best = int(s);
        }
    }
    return best;
}

} // namespace folio::pipeline
