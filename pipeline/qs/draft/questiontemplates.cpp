#include "pipeline/qs/draft/questiontemplates.h"

#include <QHash>
#include <QSet>

#include <algorithm>

namespace folio::pipeline {

namespace {

const QString kTopic = QStringLiteral("{topic}");
const QString kSpeaker = QStringLiteral("{speaker}");

bool isAcronymOrName(const QString &word)
{
    int upper = 0;
    for (const QChar c : word)
        upper += c.isUpper() ? 1 : 0;
    return upper >= 2;
}

QString stripEnd(QString s)
{
    s = s.simplified();
    while (!s.isEmpty() && (s.back() == QLatin1Char('.') || s.back() == QLatin1Char('?') || s.back() == QLatin1Char('!') ||
                            s.back() == QLatin1Char(':') || s.back() == QLatin1Char(';') || s.back() == QLatin1Char(',')))
        s.chop(1);
    return s.trimmed();
}

std::vector<QuestionTemplate> ranked(const QHash<QString, int> &counts, int minCount)
{
    std::vector<QuestionTemplate> out;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        if (it.value() >= minCount)
            out.push_back({it.key(), it.value()});
    std::sort(out.begin(), out.end(), [](const QuestionTemplate &a, const QuestionTemplate &b) {
        return a.count != b.count ? a.count > b.count : a.text < b.text;
    });
    return out;
}

} // namespace

QString topicPhrase(const QString &title)
{
    QString t = stripEnd(title);
    if (t.isEmpty())
        return t;
    const QString first = t.section(QLatin1Char(' '), 0, 0);
    if (!isAcronymOrName(first) && t.front().isUpper())
        t[0] = t.front().toLower();
    return t;
}

QString fillTemplate(const QString &templ, const QList<QPair<QString, QString>> &values)
{
    QString q = templ;
    for (const auto &[name, value] : values)
        q.replace(QLatin1Char('{') + name + QLatin1Char('}'), name == QLatin1String("topic") ? topicPhrase(value) : value.simplified());
    q = q.simplified();
    static const QStringList questionWords{QStringLiteral("what"), QStringLiteral("why"), QStringLiteral("how"),
                                           QStringLiteral("who"), QStringLiteral("when"), QStringLiteral("where"),
                                           QStringLiteral("which"), QStringLiteral("is"), QStringLiteral("are"),
                                           QStringLiteral("does"), QStringLiteral("do"), QStringLiteral("did")};
    const QString first = q.section(QLatin1Char(' '), 0, 0).toLower();
    if (questionWords.contains(first) && !q.endsWith(QLatin1Char('?')))
        q = stripEnd(q) + QLatin1Char('?');
    if (!q.isEmpty())
        q[0] = q.front().toUpper();
    return q;
}

std::vector<QuestionTemplate> defaultWrittenTemplates()
{
    return {{QStringLiteral("What does the document say about {topic}?"), 0},
            {QStringLiteral("What is said about {topic}?"), 0}};
}

QuestionTemplates mineQuestionTemplates(const std::vector<QmsumMeeting> &meetings, int minCount)
{
    QHash<QString, int> sectionCounts, speakerCounts;
    QuestionTemplates t;
    for (const QmsumMeeting &m : meetings) {
        QSet<QString> speakerSet;
        for (const QString &turn : m.turns) {
            const int colon = turn.indexOf(QStringLiteral(": "));
            if (colon > 0 && colon < 40)
                speakerSet.insert(turn.left(colon));
        }
        QStringList speakers(speakerSet.cbegin(), speakerSet.cend());
        std::sort(speakers.begin(), speakers.end(), [](const QString &a, const QString &b) {
            return a.size() != b.size() ? a.size() > b.size() : a < b;
        });
        for (std::size_t i = 0; i < m.reference.items.size(); ++i) {
            ++t.questionsSeen;
            const int s = evidenceSection(m, i);
            if (s < 0 || s >= int(m.input.sections.size()))
                continue;
            QString q = stripEnd(QString::fromStdString(m.reference.items[i].question));
            const QString title = stripEnd(m.input.sections[std::size_t(s)].title);
            if (title.isEmpty())
                continue;
            const int at = q.toLower().indexOf(title.toLower());
            if (at < 0)
                continue;
            q.replace(at, title.size(), kTopic);
            bool named = false;
            for (const QString &sp : speakers) {
                const int p = q.indexOf(sp);
                if (p >= 0 && !named) {
                    q.replace(p, sp.size(), kSpeaker);
                    named = true;
                }
            }
            if (q.startsWith(kTopic))
                continue; // a bare title: no template
            ++t.questionsMatched;
            ++(named ? speakerCounts : sectionCounts)[q];
        }
    }
    t.section = ranked(sectionCounts, minCount);
    t.speaker = ranked(speakerCounts, minCount);
    t.written = defaultWrittenTemplates();
    return t;
}

} // namespace folio::pipeline
