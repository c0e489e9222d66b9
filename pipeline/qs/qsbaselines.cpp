#include "pipeline/qs/qsbaselines.h"

#include <QRegularExpression>

#include <algorithm>

namespace folio::pipeline {

QString leadSentences(const QString &text, int sentences, int maxWords)
{
    static const QRegularExpression end(QStringLiteral("(?<=[.!?])\\s+"));
    const QStringList parts = text.simplified().split(end, Qt::SkipEmptyParts);
    QStringList words;
    for (int i = 0; i < std::min<int>(sentences, int(parts.size())); ++i)
        words += parts.at(i).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words.size() > maxWords)
        words = words.mid(0, maxWords);
    return words.join(QLatin1Char(' '));
}

QString questionFromTitle(const QString &title)
{
    const QString t = title.simplified();
    return t.isEmpty() ? QStringLiteral("What was discussed?") : QStringLiteral("What was said about %1?").arg(t);
}

namespace {

// Paragraph text without the "speaker: " prefix QMSum turns carry (harmless elsewhere).
QString sectionText(const QsSectionText &s)
{
    return s.paragraphs.join(QLatin1Char(' '));
}

} // namespace

inference::QsHierarchy leadBaseline(const QsInput &input, int sentences)
{
    inference::QsHierarchy h;
    h.rootSummary = leadSentences(input.text(), sentences).toStdString();
    std::vector<int> depth;
    for (const QsSectionText &s : input.sections) {
        const int d = (s.parent >= 0 && s.parent < int(depth.size())) ? depth[std::size_t(s.parent)] + 1 : 1;
        depth.push_back(d);
        inference::QsItem item;
        item.question = questionFromTitle(s.title).toStdString();
        item.summary = leadSentences(sectionText(s), sentences).toStdString();
        item.depth = d;
        h.items.push_back(item);
    }
    return h;
}

inference::QsHierarchy oracleShapeBaseline(const QmsumMeeting &m, int sentences)
{
    inference::QsHierarchy h;
    h.rootSummary = leadSentences(m.input.text(), sentences).toStdString();
    for (std::size_t k = 0; k < m.reference.items.size(); ++k) {
        const std::vector<std::pair<int, int>> ev = k < m.evidence.size() ? m.evidence[k] : std::vector<std::pair<int, int>>{};
        const int best = std::max(0, evidenceSection(m, k)); // no overlap: the first section
        QStringList evidenceText;
        for (const auto &a : ev)
            for (int t = a.first; t <= a.second && t < int(m.turns.size()); ++t)
                evidenceText << m.turns.at(t);
        const QsSectionText &sec = m.input.sections.at(std::size_t(best));
        inference::QsItem item;
        item.depth = m.reference.items[k].depth;
        item.question = questionFromTitle(sec.title).toStdString();
        item.summary = leadSentences(evidenceText.isEmpty() ? sectionText(sec) : evidenceText.join(QLatin1Char(' ')),
                                     sentences)
                           .toStdString();
        h.items.push_back(item);
    }
    return h;
}

void QsScoreMean::add(const inference::QsScores &s)
{
    auto addRouge = [](inference::RougeScore &a, const inference::RougeScore &b) {
        a.precision += b.precision;
        a.recall += b.recall;
        a.fmeasure += b.fmeasure;
    };
    addRouge(m_sum.rouge1, s.rouge1);
    addRouge(m_sum.rouge2, s.rouge2);
    addRouge(m_sum.rougeLsum, s.rougeLsum);
    m_sum.questionBleu4 += s.questionBleu4;
    m_sum.hierarchy.precision += s.hierarchy.precision;
    m_sum.hierarchy.recall += s.hierarchy.recall;
    m_sum.hierarchy.f1 += s.hierarchy.f1;
    ++m_n;
}

inference::QsScores QsScoreMean::mean() const
{
    inference::QsScores m = m_sum;
    if (m_n == 0)
        return m;
    const double n = m_n;
    for (inference::RougeScore *r : {&m.rouge1, &m.rouge2, &m.rougeLsum}) {
        r->precision /= n;
        r->recall /= n;
        r->fmeasure /= n;
    }
    m.questionBleu4 /= n;
    m.hierarchy.precision /= n;
    m.hierarchy.recall /= n;
    m.hierarchy.f1 /= n;
    return m;
}

} // namespace folio::pipeline
