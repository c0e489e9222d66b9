#include "pipeline/qs/draft/salience.h"

#include "pipeline/qs/draft/topicsegments.h"

#include <QHash>
#include <QSet>

#include <cmath>

namespace folio::pipeline {

QStringList salienceFeatureNames()
{
    return {QStringLiteral("bias"),           QStringLiteral("log_words"),      QStringLiteral("content_share"),
            QStringLiteral("cos_section"),    QStringLiteral("cos_document"),   QStringLiteral("title_overlap"),
            QStringLiteral("position"),       QStringLiteral("speaker_share"),  QStringLiteral("is_question"),
            QStringLiteral("short"),          QStringLiteral("length_capped"),  QStringLiteral("mean_idf")};
}

namespace {

using Vec = QHash<QString, double>;

Vec tfidf(const QStringList &tokens, const QHash<QString, double> &idf)
{
    Vec v;
    for (const QString &t : tokens)
        if (!isDraftStopword(t))
            v[t] += idf.value(t, 1.0);
    return v;
}

void addInto(Vec &a, const Vec &b)
{
    for (auto it = b.cbegin(); it != b.cend(); ++it)
        a[it.key()] += it.value();
}

double norm(const Vec &v)
{
    double s = 0;
    for (double x : v)
        s += x * x;
    return std::sqrt(s);
}

double cosine(const Vec &a, double na, const Vec &b, double nb)
{
    if (na <= 0 || nb <= 0)
        return 0.0;
    double dot = 0;
    const Vec &small = a.size() < b.size() ? a : b, &large = a.size() < b.size() ? b : a;
    for (auto it = small.cbegin(); it != small.cend(); ++it)
        if (auto jt = large.constFind(it.key()); jt != large.cend())
            dot += it.value() * jt.value();
    return dot / (na * nb);
}

} // namespace

std::vector<std::vector<SentenceFeatures>> salienceFeatures(const DraftSource &source)
{
    // Tokens and the document's sentence frequencies.
    std::vector<std::vector<QStringList>> tokens(source.sections.size());
    QHash<QString, int> df;
    int sentences = 0;
    for (std::size_t s = 0; s < source.sections.size(); ++s)
        for (const DraftSentence &t : source.sections[s].sentences) {
            tokens[s].push_back(draftTokens(t.text));
            const QSet<QString> seen(tokens[s].back().cbegin(), tokens[s].back().cend());
            for (const QString &w : seen)
                ++df[w];
            ++sentences;
        }
    QHash<QString, double> idf;
    for (auto it = df.cbegin(); it != df.cend(); ++it)
        idf.insert(it.key(), std::log(double(sentences) / (1.0 + it.value())) + 1.0);
    const double unknownIdf = std::log(double(std::max(1, sentences))) + 1.0;

    std::vector<std::vector<Vec>> vecs(source.sections.size());
    std::vector<Vec> sectionVec(source.sections.size());
    Vec docVec;
    for (std::size_t s = 0; s < source.sections.size(); ++s) {
        for (const QStringList &t : tokens[s]) {
            vecs[s].push_back(tfidf(t, idf));
            addInto(sectionVec[s], vecs[s].back());
        }
        addInto(docVec, sectionVec[s]);
    }
    const double docNorm = norm(docVec);

    std::vector<std::vector<SentenceFeatures>> out(source.sections.size());
    for (std::size_t s = 0; s < source.sections.size(); ++s) {
        const DraftSection &sec = source.sections[s];
        const double secNorm = norm(sectionVec[s]);
        QSet<QString> titleWords;
        for (const QString &w : draftTokens(sec.title))
            if (!isDraftStopword(w))
                titleWords.insert(w);
        QHash<QString, long> speakerWords;
        long sectionWords = 0;
        for (const DraftSentence &t : sec.sentences) {
            speakerWords[t.speaker] += t.wordCount;
            sectionWords += t.wordCount;
        }
        const std::size_t n = sec.sentences.size();
        for (std::size_t i = 0; i < n; ++i) {
            const DraftSentence &t = sec.sentences[i];
            const QStringList &tok = tokens[s][i];
            int content = 0, titleHits = 0;
            double idfSum = 0;
            QSet<QString> seenTitle;
            for (const QString &w : tok) {
                if (isDraftStopword(w))
                    continue;
                ++content;
                idfSum += idf.value(w, unknownIdf);
                if (titleWords.contains(w) && !seenTitle.contains(w)) {
                    seenTitle.insert(w);
                    ++titleHits;
                }
            }
            const double words = double(tok.size());
            const double vn = norm(vecs[s][i]);
            SentenceFeatures f{1.0,
                               std::log1p(words),
                               content / std::max(1.0, words),
                               cosine(vecs[s][i], vn, sectionVec[s], secNorm),
                               cosine(vecs[s][i], vn, docVec, docNorm),
                               titleWords.isEmpty() ? 0.0 : double(titleHits) / titleWords.size(),
                               n > 1 ? double(i) / double(n - 1) : 0.0,
                               t.speaker.isEmpty() ? 0.0 : double(speakerWords.value(t.speaker)) / std::max(1L, sectionWords),
                               t.text.endsWith(QLatin1Char('?')) ? 1.0 : 0.0,
                               words < 5 ? 1.0 : 0.0,
                               std::min(words, 40.0) / 40.0,
                               idfSum / std::max(1.0, words)};
            out[s].push_back(std::move(f));
        }
    }
    return out;
}

double SalienceModel::score(const SentenceFeatures &f) const
{
    double s = 0;
    for (std::size_t i = 0; i < f.size() && i < weights.size(); ++i)
        s += weights[i] * f[i];
    return s;
}

double salienceTarget(const QString &sentence, const QSet<QString> &referenceContent)
{
    const QSet<QString> words = draftContentWords(sentence);
    if (words.isEmpty())
        return 0.0;
    int hits = 0;
    for (const QString &w : words)
        hits += referenceContent.contains(w) ? 1 : 0;
    return double(hits) / words.size();
}

namespace {

// Solves A x = b (A symmetric positive definite, small) by Gaussian elimination with pivoting.
std::vector<double> solveLinear(std::vector<std::vector<double>> a, std::vector<double> b)
{
    const std::size_t n = b.size();
    for (std::size_t c = 0; c < n; ++c) {
        std::size_t p = c;
        for (std::size_t r = c + 1; r < n; ++r)
            if (std::abs(a[r][c]) > std::abs(a[p][c]))
                p = r;
        std::swap(a[c], a[p]);
        std::swap(b[c], b[p]);
        if (std::abs(a[c][c]) < 1e-12)
            continue;
        for (std::size_t r = c + 1; r < n; ++r) {
            const double f = a[r][c] / a[c][c];
            for (std::size_t k = c; k < n; ++k)
                a[r][k] -= f * a[c][k];
            b[r] -= f * b[c];
        }
    }
    std::vector<double> x(n, 0.0);
    for (std::size_t c = n; c-- > 0;) {
        double s = b[c];
        for (std::size_t k = c + 1; k < n; ++k)
            s -= a[c][k] * x[k];
        x[c] = std::abs(a[c][c]) < 1e-12 ? 0.0 : s / a[c][c];
    }
    return x;
}

} // namespace

SalienceFitter::SalienceFitter(bool withinSection)
    : m_xtx(std::size_t(salienceFeatureNames().size()), std::vector<double>(std::size_t(salienceFeatureNames().size()), 0.0)),
      m_xty(std::size_t(salienceFeatureNames().size()), 0.0),
      m_xsum(std::size_t(salienceFeatureNames().size()), 0.0),
      m_centred(withinSection)
{
}

void SalienceFitter::accumulate(const SentenceFeatures &x, double target, const SentenceFeatures &raw, double rawTarget,
                                double weight)
{
    const std::size_t k = m_xty.size();
    for (std::size_t a = 0; a < k && a < x.size(); ++a) {
        m_xty[a] += weight * x[a] * target;
        for (std::size_t b = 0; b < k && b < x.size(); ++b)
            m_xtx[a][b] += weight * x[a] * x[b];
    }
    for (std::size_t a = 0; a < k && a < raw.size(); ++a)
        m_xsum[a] += weight * raw[a];
    m_targetSum += weight * rawTarget;
    m_weight += weight;
    ++m_n;
}

void SalienceFitter::add(const SentenceFeatures &x, double target, double weight)
{
    accumulate(x, target, x, target, weight);
}

void SalienceFitter::merge(const SalienceFitter &other, double weight)
{
    for (std::size_t a = 0; a < m_xty.size() && a < other.m_xty.size(); ++a) {
        m_xty[a] += weight * other.m_xty[a];
        m_xsum[a] += weight * other.m_xsum[a];
        for (std::size_t b = 0; b < m_xty.size() && b < other.m_xty.size(); ++b)
            m_xtx[a][b] += weight * other.m_xtx[a][b];
    }
    m_targetSum += weight * other.m_targetSum;
    m_weight += weight * other.m_weight;
    m_n += other.m_n;
}

void SalienceFitter::addDocument(const DraftSource &src, const std::vector<QString> &sectionReferences, double weight)
{
    const auto features = salienceFeatures(src);
    for (std::size_t s = 0; s < src.sections.size() && s < sectionReferences.size(); ++s) {
        if (sectionReferences[s].trimmed().isEmpty())
            continue;
        const QSet<QString> ref = draftContentWords(sectionReferences[s]);
        const std::size_t n = src.sections[s].sentences.size();
        std::vector<double> targets(n);
        for (std::size_t i = 0; i < n; ++i)
            targets[i] = salienceTarget(src.sections[s].sentences[i].text, ref);
        if (!m_centred) {
            for (std::size_t i = 0; i < n; ++i)
                add(features[s][i], targets[i], weight);
            continue;
        }
        SentenceFeatures meanX(m_xty.size(), 0.0);
        double meanY = 0;
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t a = 0; a < meanX.size() && a < features[s][i].size(); ++a)
                meanX[a] += features[s][i][a] / double(n);
            meanY += targets[i] / double(n);
        }
        for (std::size_t i = 0; i < n; ++i) {
            SentenceFeatures x = features[s][i];
            for (std::size_t a = 0; a < x.size() && a < meanX.size(); ++a)
                x[a] -= meanX[a];
            accumulate(x, targets[i] - meanY, features[s][i], targets[i], weight);
        }
    }
}

void SalienceFitter::addMeeting(const QmsumMeeting &m)
{
    const DraftSource src = draftSourceFromMeeting(m);
    std::vector<QString> references;
    for (std::size_t s = 0; s < src.sections.size(); ++s) {
        QString reference = QString::fromStdString(m.reference.rootSummary);
        const auto &spans = s < m.sectionSpans.size() ? m.sectionSpans[s] : std::vector<std::pair<int, int>>{};
        for (std::size_t q = 0; q < m.reference.items.size() && q < m.evidence.size(); ++q) {
            bool overlaps = false;
            for (const auto &a : m.evidence[q])
                for (const auto &b : spans)
                    overlaps = overlaps || (a.first <= b.second && b.first <= a.second);
            if (overlaps)
                reference += QLatin1Char(' ') + QString::fromStdString(m.reference.items[q].summary);
        }
        references.push_back(reference);
    }
    addDocument(src, references);
}

SalienceFit SalienceFitter::solve(double l2, const std::vector<double> &prior) const
{
    std::vector<std::vector<double>> a = m_xtx;
    std::vector<double> b = m_xty;
    for (std::size_t i = 0; i < b.size(); ++i) {
        a[i][i] += l2;
        if (i < prior.size())
            b[i] += l2 * prior[i];
    }
    SalienceFit fit;
    fit.model.weights = solveLinear(a, b);
    if (m_centred && m_weight > 0 && !fit.model.weights.empty()) {
        double rest = 0; // bias: mean prediction = mean target (feature 0 is the constant 1)
        for (std::size_t i = 1; i < fit.model.weights.size() && i < m_xsum.size(); ++i)
            rest += fit.model.weights[i] * m_xsum[i];
        fit.model.weights[0] = (m_targetSum - rest) / m_weight;
    }
    fit.sentences = m_n;
    fit.meanTarget = m_weight > 0 ? m_targetSum / m_weight : 0.0;
    return fit;
}

SalienceFit fitSalience(const std::vector<QmsumMeeting> &meetings, double l2)
{
    SalienceFitter fitter;
    for (const QmsumMeeting &m : meetings)
        fitter.addMeeting(m);
    return fitter.solve(l2);
}

} // namespace folio::pipeline
