#include "pipeline/qs/draft/topicsegments.h"

#include <QSet>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace folio::pipeline {

QStringList draftTokens(const QString &text)
{
    QStringList out;
    QString cur;
    for (const QChar c : text) {
        if (c.isLetterOrNumber()) {
            cur += c.toLower();
        } else if (!cur.isEmpty()) {
            out << cur;
            cur.clear();
        }
    }
    if (!cur.isEmpty())
        out << cur;
    return out;
}

bool isDraftStopword(const QString &token)
{
    static const QSet<QString> stop = [] {
        QSet<QString> s;
        for (const char *w :
             {"the", "a", "an", "and", "or", "but", "so", "of", "to", "in", "on", "at", "for", "with", "is", "are", "was",
              "were", "be", "been", "being", "it", "its", "this", "that", "these", "those", "i", "you", "we", "they", "he",
              "she", "him", "her", "them", "us", "me", "my", "our", "your", "their", "um", "uh", "yeah", "okay", "ok", "mm",
              "hmm", "like", "just", "mean", "know", "oh", "well", "right", "as", "by", "from", "if", "then", "than", "not",
              "no", "yes", "do", "does", "did", "have", "has", "had", "will", "would", "can", "could", "should", "may",
              "might", "must", "there", "here", "what", "which", "who", "whom", "when", "where", "why", "how", "all", "any",
              "some", "one", "also", "into", "about", "out", "up", "down", "more", "most", "such", "only", "other", "very",
              "s", "t", "don", "get", "got", "think", "gonna", "sort", "kind", "thing", "things", "actually", "really"})
            s.insert(QString::fromLatin1(w));
        return s;
    }();
    return token.size() < 2 || stop.contains(token);
}

QSet<QString> draftContentWords(const QString &text)
{
    QSet<QString> s;
    for (const QString &w : draftTokens(text))
        if (!isDraftStopword(w))
            s.insert(w);
    return s;
}

namespace {

using Bag = QHash<QString, int>;

void addTokens(Bag &bag, const QStringList &tokens, int sign)
{
    for (const QString &t : tokens) {
        if (isDraftStopword(t))
            continue;
        int &n = bag[t];
        n += sign;
        if (n == 0)
            bag.remove(t);
    }
}

double cosine(const Bag &a, const Bag &b)
{
    double dot = 0, na = 0, nb = 0;
    for (auto it = a.cbegin(); it != a.cend(); ++it) {
        na += double(it.value()) * it.value();
        if (auto jt = b.constFind(it.key()); jt != b.cend())
            dot += double(it.value()) * jt.value();
    }
    for (auto it = b.cbegin(); it != b.cend(); ++it)
        nb += double(it.value()) * it.value();
    return na > 0 && nb > 0 ? dot / std::sqrt(na * nb) : 0.0;
}

} // namespace

std::vector<int> topicSegmentStarts(const std::vector<QStringList> &sentenceTokens, int targetWords, int minWords)
{
    const int n = int(sentenceTokens.size());
    std::vector<long> wordsBefore(std::size_t(n) + 1, 0); // prefix sums of sentence lengths
    for (int i = 0; i < n; ++i)
        wordsBefore[std::size_t(i) + 1] = wordsBefore[std::size_t(i)] + sentenceTokens[std::size_t(i)].size();
    const long total = wordsBefore.back();
    if (n < 4 || total < 2L * minWords)
        return {0};
    // Similarity at each gap g (between sentence g-1 and g), windows of about `window` words.
    const long window = 120;
    std::vector<double> sim(std::size_t(n), 1.0);
    Bag left, right;
    int leftBegin = 0, rightEnd = 0; // left window: sentences [leftBegin, g); right: [g, rightEnd)
    for (int g = 1; g < n; ++g) {
        addTokens(left, sentenceTokens[std::size_t(g - 1)], +1);
        while (leftBegin < g - 1 && wordsBefore[std::size_t(g)] - wordsBefore[std::size_t(leftBegin) + 1] >= window)
            addTokens(left, sentenceTokens[std::size_t(leftBegin++)], -1);
        if (rightEnd > g - 1) // sentence g-1 was the first of the previous right window
            addTokens(right, sentenceTokens[std::size_t(g - 1)], -1);
        rightEnd = std::max(rightEnd, g);
        while (rightEnd < n && wordsBefore[std::size_t(rightEnd)] - wordsBefore[std::size_t(g)] < window)
            addTokens(right, sentenceTokens[std::size_t(rightEnd++)], +1);
        sim[std::size_t(g)] = cosine(left, right);
    }
    // Depth of each gap: (peak on the left - sim) + (peak on the right - sim).
    std::vector<double> leftPeak(std::size_t(n), 0.0), rightPeak(std::size_t(n), 0.0);
    for (int g = 1; g < n; ++g)
        leftPeak[std::size_t(g)] = g == 1 ? sim[1] : std::max(leftPeak[std::size_t(g - 1)], sim[std::size_t(g)]);
    for (int g = n - 1; g >= 1; --g)
        rightPeak[std::size_t(g)] = g == n - 1 ? sim[std::size_t(g)] : std::max(rightPeak[std::size_t(g) + 1], sim[std::size_t(g)]);
    std::vector<std::pair<double, int>> gaps;
    for (int g = 1; g < n; ++g)
        gaps.push_back({(leftPeak[std::size_t(g)] - sim[std::size_t(g)]) + (rightPeak[std::size_t(g)] - sim[std::size_t(g)]), g});
    std::stable_sort(gaps.begin(), gaps.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    const long wanted = std::max<long>(1, total / std::max(1, targetWords));
    std::vector<int> starts{0};
    for (const auto &[depth, g] : gaps) {
        if (long(starts.size()) >= wanted)
            break;
        if (depth <= 0.0)
            break;
        auto it = std::upper_bound(starts.begin(), starts.end(), g);
        const int prev = *(it - 1);
        const int next = it == starts.end() ? n : *it;
        if (wordsBefore[std::size_t(g)] - wordsBefore[std::size_t(prev)] < minWords ||
            wordsBefore[std::size_t(next)] - wordsBefore[std::size_t(g)] < minWords)
            continue;
        starts.insert(it, g);
    }
    return starts;
}

QString keyTermTitle(const std::vector<QStringList> &partTokens, const QHash<QString, int> &sentenceFrequency, int sentences)
{
    QHash<QString, int> tf, firstSeen;
    int position = 0;
    for (const QStringList &s : partTokens)
        for (const QString &t : s) {
            ++position;
            if (isDraftStopword(t) || (t.size() < 3 && !t.front().isDigit()))
                continue;
            if (t.front().isDigit())
                continue; // numbers make poor titles
            ++tf[t];
            if (!firstSeen.contains(t))
                firstSeen.insert(t, position);
        }
    std::vector<std::pair<double, QString>> scored;
    for (auto it = tf.cbegin(); it != tf.cend(); ++it) {
        if (it.value() < 2)
            continue;
        const double idf = std::log((sentences + 1.0) / (1.0 + sentenceFrequency.value(it.key(), 0))) + 1.0;
        scored.push_back({it.value() * idf, it.key()});
    }
    std::sort(scored.begin(), scored.end(), [](const auto &a, const auto &b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    if (scored.size() > 3)
        scored.resize(3);
    std::sort(scored.begin(), scored.end(), [&](const auto &a, const auto &b) { return firstSeen[a.second] < firstSeen[b.second]; });
    QStringList terms;
    for (const auto &s : scored)
        terms << s.second;
    return terms.join(QStringLiteral(", "));
}

} // namespace folio::pipeline
