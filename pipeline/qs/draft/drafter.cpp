#include "pipeline/qs/draft/drafter.h"

#include "document/formats/datasetformat.h"
#include "document/layoutsections.h"
#include "pipeline/qs/qstrees.h"
#include "pipeline/qs/draft/questiondata.h"
#include "pipeline/qs/draft/topicsegments.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace folio::pipeline {

inference::QsHierarchy QsDraft::hierarchy() const { return qsHierarchyFromDraft(*this); }

// ---- drafter.json ----

namespace {

constexpr qint64 kMaxFileBytes = 4 << 20;
constexpr int kMaxTemplates = 1000;

QJsonArray templatesJson(const std::vector<QuestionTemplate> &list)
{
    QJsonArray a;
    for (const QuestionTemplate &t : list)
        a.append(QJsonObject{{QStringLiteral("text"), t.text}, {QStringLiteral("count"), t.count}});
    return a;
}

bool readTemplates(const QJsonValue &v, const QString &where, std::vector<QuestionTemplate> *out, QString *error)
{
    if (!v.isArray() || v.toArray().size() > kMaxTemplates) {
        *error = where + QStringLiteral(": not a list of at most %1 templates").arg(kMaxTemplates);
        return false;
    }
    out->clear();
    for (const QJsonValue &e : v.toArray()) {
        const QString text = e.toObject().value(QStringLiteral("text")).toString().simplified();
        if (text.isEmpty() || text.size() > 500 || !text.contains(QStringLiteral("{topic}"))) {
            *error = where + QStringLiteral(": every template needs a non-empty \"text\" with {topic} (500 characters at most)");
            return false;
        }
        out->push_back({text, e.toObject().value(QStringLiteral("count")).toInt()});
    }
    return true;
}

int readInt(const QJsonObject &o, const char *key, int fallback, int lo, int hi)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? std::clamp(v.toInt(fallback), lo, hi) : fallback;
}

} // namespace

bool QsDrafter::isDrafterFolder(const QString &dir)
{
    return QFileInfo::exists(QDir(dir).filePath(fileName()));
}

bool QsDrafter::load(const QString &dir, QString *error)
{
    const QString path = QDir(dir).filePath(fileName());
    QByteArray bytes;
    if (!formats::readWholeFile(path, &bytes, error, kMaxFileBytes))
        return false;
    QJsonParseError pe;
    const QJsonDocument json = QJsonDocument::fromJson(bytes, &pe);
    const QJsonObject o = json.object();
    if (!json.isObject() || o.value(QStringLiteral("kind")).toString() != QLatin1String("folio-qs-drafter")) {
        *error = path + QStringLiteral(": not a Folio drafter file (\"kind\": \"folio-qs-drafter\") ") + pe.errorString();
        return false;
    }
    QsDrafter d;
    const QJsonObject sal = o.value(QStringLiteral("salience")).toObject();
    const QJsonArray names = sal.value(QStringLiteral("features")).toArray();
    const QJsonArray weights = sal.value(QStringLiteral("weights")).toArray();
    const QStringList expected = salienceFeatureNames();
    if (names.size() != expected.size() || weights.size() != expected.size()) {
        *error = path + QStringLiteral(": salience needs the %1 features %2 and as many weights").arg(expected.size()).arg(expected.join(QStringLiteral(", ")));
        return false;
    }
    for (int i = 0; i < expected.size(); ++i) {
        if (names.at(i).toString() != expected.at(i) || !weights.at(i).isDouble() || !std::isfinite(weights.at(i).toDouble())) {
            *error = path + QStringLiteral(": salience feature %1 must be \"%2\" with a finite weight").arg(i).arg(expected.at(i));
            return false;
        }
        d.salience.weights.push_back(weights.at(i).toDouble());
    }
    const QJsonObject q = o.value(QStringLiteral("questions")).toObject();
    if (!readTemplates(q.value(QStringLiteral("section")), path + QStringLiteral(": questions.section"), &d.questions.section, error) ||
        !readTemplates(q.value(QStringLiteral("written")), path + QStringLiteral(": questions.written"), &d.questions.written, error))
        return false;
    if (q.contains(QStringLiteral("speaker")) &&
        !readTemplates(q.value(QStringLiteral("speaker")), path + QStringLiteral(": questions.speaker"), &d.questions.speaker, error))
        return false;
    if (d.questions.written.empty())
        d.questions.written = defaultWrittenTemplates();
    const QJsonObject opt = o.value(QStringLiteral("options")).toObject();
    d.defaults.maxItems = readInt(opt, "max_items", d.defaults.maxItems, 1, 100000);
    d.defaults.maxDepth = readInt(opt, "max_depth", d.defaults.maxDepth, 1, 64);
    d.defaults.summaryWords = readInt(opt, "summary_words", d.defaults.summaryWords, 5, 2000);
    d.defaults.rootWords = readInt(opt, "root_words", d.defaults.rootWords, 5, 5000);
    d.defaults.minSectionWords = readInt(opt, "min_section_words", d.defaults.minSectionWords, 1, 100000);
    d.defaults.speakerQuestions = readInt(opt, "speaker_questions", d.defaults.speakerQuestions, 0, 10);
    d.trainedOn = o.value(QStringLiteral("trained_on")).toString();
    *this = std::move(d);
    return true;
}

bool QsDrafter::save(const QString &dir, QString *error) const
{
    if (!QDir().mkpath(dir)) {
        *error = dir + QStringLiteral(": cannot create the folder");
        return false;
    }
    QJsonArray names, weights;
    for (const QString &n : salienceFeatureNames())
        names.append(n);
    for (double w : salience.weights)
        weights.append(w);
    const QJsonObject o{
        {QStringLiteral("kind"), QStringLiteral("folio-qs-drafter")},
        {QStringLiteral("version"), 1},
        {QStringLiteral("trained_on"), trainedOn},
        {QStringLiteral("salience"), QJsonObject{{QStringLiteral("features"), names}, {QStringLiteral("weights"), weights}}},
        {QStringLiteral("questions"), QJsonObject{{QStringLiteral("section"), templatesJson(questions.section)},
                                                  {QStringLiteral("speaker"), templatesJson(questions.speaker)},
                                                  {QStringLiteral("written"), templatesJson(questions.written)},
                                                  {QStringLiteral("questions_seen"), double(questions.questionsSeen)},
                                                  {QStringLiteral("questions_matched"), double(questions.questionsMatched)}}},
        {QStringLiteral("options"), QJsonObject{{QStringLiteral("max_items"), defaults.maxItems},
                                                {QStringLiteral("max_depth"), defaults.maxDepth},
                                                {QStringLiteral("summary_words"), defaults.summaryWords},
                                                {QStringLiteral("root_words"), defaults.rootWords},
                                                {QStringLiteral("min_section_words"), defaults.minSectionWords},
                                                {QStringLiteral("speaker_questions"), defaults.speakerQuestions}}}};
    const QString path = QDir(dir).filePath(fileName());
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(o).toJson()) < 0 || !f.commit()) {
        *error = path + QStringLiteral(": cannot write: ") + f.errorString();
        return false;
    }
    return true;
}

// ---- drafting ----

namespace {

using Ref = std::pair<int, int>; // (section, sentence)

struct Scored
{
    const DraftSource &src;
    std::vector<std::vector<double>> score;
    std::vector<std::vector<QSet<QString>>> content;

    const DraftSentence &sentence(Ref r) const { return src.sections[std::size_t(r.first)].sentences[std::size_t(r.second)]; }
    bool eligible(Ref r) const
    {
        const DraftSentence &s = sentence(r);
        return !s.heading && s.wordCount >= 4 && !content[std::size_t(r.first)][std::size_t(r.second)].isEmpty();
    }
};

// Best sentences of `pool` (any order) up to `words`, redundancy-checked against each other, in document order.
// Sentences that are mostly words come before table rows, codes and number runs
// ("2 CARD16 2 CARD16 4 CARD32"), whatever their salience: those are picked only when nothing else is left.
bool mostlyWords(const DraftSentence &s)
{
    int words = 0, tokens = 0;
    for (const QString &t : draftTokens(s.text)) {
        ++tokens;
        bool letters = true;
        for (const QChar c : t)
            letters = letters && c.isLetter();
        words += letters ? 1 : 0;
    }
    return tokens > 0 && words * 10 >= tokens * 6;
}

std::vector<Ref> pick(const Scored &sc, std::vector<Ref> pool, int words, const std::vector<Ref> &firstChoices = {})
{
    auto key = [&](Ref r) {
        return sc.score[std::size_t(r.first)][std::size_t(r.second)] - (mostlyWords(sc.sentence(r)) ? 0.0 : 10.0);
    };
    std::vector<std::pair<double, Ref>> keyed;
    keyed.reserve(pool.size());
    for (Ref r : pool)
        keyed.push_back({key(r), r});
    std::stable_sort(keyed.begin(), keyed.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    for (std::size_t i = 0; i < keyed.size(); ++i)
        pool[i] = keyed[i].second;
    std::vector<Ref> order = firstChoices;
    order.insert(order.end(), pool.begin(), pool.end());
    std::vector<Ref> chosen;
    QSet<Ref> taken;
    int total = 0;
    for (Ref r : order) {
        if (total >= words)
            break;
        if (taken.contains(r) || !sc.eligible(r))
            continue;
        const QSet<QString> &c = sc.content[std::size_t(r.first)][std::size_t(r.second)];
        bool redundant = false;
        for (Ref o : chosen) {
            const QSet<QString> &d = sc.content[std::size_t(o.first)][std::size_t(o.second)];
            int shared = 0;
            for (const QString &w : c)
                shared += d.contains(w) ? 1 : 0;
            if (shared * 2 > c.size()) {
                redundant = true;
                break;
            }
        }
        if (redundant)
            continue;
        chosen.push_back(r);
        taken.insert(r);
        total += sc.sentence(r).wordCount;
    }
    std::sort(chosen.begin(), chosen.end());
    return chosen;
}

QString joinSentences(const Scored &sc, const std::vector<Ref> &refs, bool speakers)
{
    QStringList parts;
    for (Ref r : refs) {
        const DraftSentence &s = sc.sentence(r);
        parts << (speakers && !s.speaker.isEmpty() ? s.speaker + QStringLiteral(": ") + s.text : s.text);
    }
    return parts.join(QLatin1Char(' '));
}

double meanScore(const Scored &sc, const std::vector<Ref> &refs)
{
    if (refs.empty())
        return 0.0;
    double s = 0;
    for (Ref r : refs)
        s += sc.score[std::size_t(r.first)][std::size_t(r.second)];
    return std::clamp(s / double(refs.size()), 0.0, 1.0);
}

QString normalisedQuestion(const QString &q)
{
    return draftTokens(q).join(QLatin1Char(' '));
}

} // namespace

QsDraft QsDrafter::draft(const DraftSource &src, const DraftOptions &options, const DraftProgress &progress,
                         const DraftItemSink &itemDrafted) const
{
    QsDraft out;
    out.notes = src.notes;
    const long totalWords = src.wordCount();
    if (totalWords < 5) {
        long characters = 0;
        for (const DraftSection &sec : src.sections)
            for (const DraftSentence &t : sec.sentences)
                characters += t.text.size();
        out.error = QStringLiteral("too little text to draft a hierarchy (%1 words)").arg(totalWords);
        if (characters > 40 && characters > 15 * std::max(1L, totalWords)) // long runs without spaces
            out.error += QStringLiteral(": its %1 characters are not separated by spaces (Chinese, Japanese or Thai text?), "
                                        "and the drafter finds words and sentences by spaces")
                             .arg(characters);
        return out;
    }
    const int n = int(src.sections.size());
    const auto features = salienceFeatures(src);
    Scored sc{src, {}, {}};
    sc.score.resize(std::size_t(n));
    sc.content.resize(std::size_t(n));
    QHash<QString, int> df;
    int sentenceCount = 0;
    auto tokens = std::vector<std::vector<QStringList>>(static_cast<std::size_t>(n));
    for (int s = 0; s < n; ++s)
        for (std::size_t i = 0; i < src.sections[std::size_t(s)].sentences.size(); ++i) {
            sc.score[std::size_t(s)].push_back(salience.score(features[std::size_t(s)][i]));
            tokens[std::size_t(s)].push_back(draftTokens(src.sections[std::size_t(s)].sentences[i].text));
            QSet<QString> c;
            for (const QString &w : tokens[std::size_t(s)].back())
                if (!isDraftStopword(w))
                    c.insert(w);
            for (const QString &w : QSet<QString>(tokens[std::size_t(s)].back().cbegin(), tokens[std::size_t(s)].back().cend()))
                ++df[w];
            ++sentenceCount;
            sc.content[std::size_t(s)].push_back(std::move(c));
        }

    // Tree facts: depth, subtree word counts, the last section of each subtree (pre-order).
    const std::size_t count = static_cast<std::size_t>(n);
    std::vector<int> depth(count), subtreeEnd(count);
    std::vector<long> subtreeWords(count, 0);
    for (int s = 0; s < n; ++s) {
        const int p = src.sections[std::size_t(s)].parent;
        depth[std::size_t(s)] = p >= 0 && p < s ? depth[std::size_t(p)] + 1 : 1;
        for (const DraftSentence &t : src.sections[std::size_t(s)].sentences)
            subtreeWords[std::size_t(s)] += t.heading ? 0 : t.wordCount;
        subtreeEnd[std::size_t(s)] = s + 1;
    }
    for (int s = n - 1; s >= 0; --s) {
        const int p = src.sections[std::size_t(s)].parent;
        if (p >= 0 && p < s) {
            subtreeWords[std::size_t(p)] += subtreeWords[std::size_t(s)];
            subtreeEnd[std::size_t(p)] = std::max(subtreeEnd[std::size_t(p)], subtreeEnd[std::size_t(s)]);
        }
    }

    // Which sections get an item: upper levels first, up to the item limit.
    const bool speakers = src.conversation && options.speakerQuestions > 0 && !questions.speaker.empty();
    const int perSection = 1 + (speakers ? options.speakerQuestions : 0);
    std::vector<bool> selected(count, false);
    int budget = std::max(1, options.maxItems);
    bool limited = false;
    for (int level = 1; level <= std::min(options.maxDepth, 64); ++level)
        for (int s = 0; s < n; ++s)
            if (depth[std::size_t(s)] == level && subtreeWords[std::size_t(s)] >= options.minSectionWords) {
                if (budget <= 0) {
                    limited = true;
                    continue;
                }
                selected[std::size_t(s)] = true;
                budget -= perSection;
            }
    if (std::none_of(selected.begin(), selected.end(), [](bool b) { return b; })) {
        const auto best = std::max_element(subtreeWords.begin(), subtreeWords.end()) - subtreeWords.begin();
        selected[std::size_t(best)] = true; // a short document still gets one item
    }
    if (limited)
        out.notes << QStringLiteral("item limit (%1) reached: deeper sections were left out").arg(options.maxItems);

    auto subtreePool = [&](int s, const QString &speaker = {}) {
        std::vector<Ref> pool;
        for (int t = s; t < subtreeEnd[std::size_t(s)]; ++t)
            for (int i = 0; i < int(src.sections[std::size_t(t)].sentences.size()); ++i)
                if (speaker.isEmpty() || src.sections[std::size_t(t)].sentences[std::size_t(i)].speaker == speaker)
                    pool.push_back({t, i});
        return pool;
    };
    auto topicOf = [&](int s) {
        const DraftSection &sec = src.sections[std::size_t(s)];
        QString unnumbered; // "2.3. Subclassing" asks about "subclassing"
        if (sectionNumberingDepth(sec.title, &unnumbered) > 0 && !unnumbered.trimmed().isEmpty())
            return unnumbered.trimmed();
        if (!sec.title.trimmed().isEmpty())
            return sec.title;
        std::vector<QStringList> part;
        for (int t = s; t < subtreeEnd[std::size_t(s)]; ++t)
            part.insert(part.end(), tokens[std::size_t(t)].begin(), tokens[std::size_t(t)].end());
        const QString terms = keyTermTitle(part, df, sentenceCount);
        return terms.isEmpty() ? (src.title.isEmpty() ? QStringLiteral("this part") : src.title) : terms;
    };

    QSet<QString> asked;
    // A fresh question for section s from a template list, or empty when it would repeat one.
    auto ask = [&](const std::vector<QuestionTemplate> &list, int s, const QString &speaker) {
        if (list.empty())
            return QString();
        const QString topic = topicOf(s);
        QList<QPair<QString, QString>> values{{QStringLiteral("topic"), topic}};
        if (!speaker.isEmpty())
            values.append({QStringLiteral("speaker"), speaker});
        QString q = fillTemplate(list.front().text, values);
        if (asked.contains(normalisedQuestion(q))) {
            const int p = src.sections[std::size_t(s)].parent;
            if (p >= 0)
                values[0].second = topic + QStringLiteral(" in ") + topicPhrase(topicOf(p));
            else
                values[0].second = topic + QStringLiteral(" (part %1)").arg(s + 1);
            q = fillTemplate(list.front().text, values);
        }
        if (asked.contains(normalisedQuestion(q)))
            return QString();
        asked.insert(normalisedQuestion(q));
        return q;
    };

    // Root summary: the best sentence of each top-level section first, then the best of the rest.
    {
        std::vector<Ref> firsts, all;
        for (int s = 0; s < n; ++s) {
            if (depth[std::size_t(s)] != 1)
                continue;
            std::vector<Ref> pool = subtreePool(s);
            const std::vector<Ref> best = pick(sc, pool, 1);
            if (!best.empty())
                firsts.push_back(best.front());
            all.insert(all.end(), pool.begin(), pool.end());
        }
        out.rootEvidence = pick(sc, all, options.rootWords, firsts);
        out.rootSummary = joinSentences(sc, out.rootEvidence, src.conversation);
    }

    // Items, depth-first so that the pre-order matches the document.
    std::vector<int> itemDepth(count, 0);
    std::vector<std::pair<int, DraftItem>> pendingSpeaker; // (subtree end, item) emitted after the subtree
    auto flushSpeakers = [&](int before) {
        while (!pendingSpeaker.empty() && pendingSpeaker.back().first <= before) {
            out.items.push_back(std::move(pendingSpeaker.back().second));
            pendingSpeaker.pop_back();
            if (itemDrafted)
                itemDrafted(out.items.back());
        }
    };
    for (int s = 0; s < n; ++s) {
        flushSpeakers(s);
        if (progress && !progress(s, n)) {
            out.cancelled = true;
            out.error = QStringLiteral("cancelled");
            return out;
        }
        const int p = src.sections[std::size_t(s)].parent;
        int parentItemDepth = 0;
        for (int a = p; a >= 0 && a < s; a = src.sections[std::size_t(a)].parent)
            if (selected[std::size_t(a)]) {
                parentItemDepth = itemDepth[std::size_t(a)];
                break;
            }
        if (!selected[std::size_t(s)])
            continue;
        itemDepth[std::size_t(s)] = parentItemDepth + 1;
        DraftItem item;
        item.section = s;
        item.depth = itemDepth[std::size_t(s)];
        item.evidence = pick(sc, subtreePool(s), options.summaryWords);
        if (item.evidence.empty())
            continue;
        item.summary = joinSentences(sc, item.evidence, src.conversation);
        item.confidence = meanScore(sc, item.evidence);
        if (questionWriter) {
            QStringList sentences;
            for (Ref r : subtreePool(s))
                if (!sc.sentence(r).heading)
                    sentences << sc.sentence(r).text;
            const QString title = topicOf(s);
            const QString q = questionWriter(item.summary, QStringList{title} + evidenceForAnswer(item.summary, sentences));
            if (!q.isEmpty() && !asked.contains(normalisedQuestion(q))) {
                asked.insert(normalisedQuestion(q));
                item.question = q;
                item.questionFromWriter = true;
            }
        }
        if (item.question.isEmpty())
            item.question = ask(src.conversation ? questions.section : questions.written, s, {});
        if (item.question.isEmpty() && src.conversation)
            item.question = ask(questions.written, s, {});
        if (item.question.isEmpty())
            continue;
        out.items.push_back(item);
        if (itemDrafted)
            itemDrafted(out.items.back());
        if (speakers) {
            QHash<QString, long> words;
            for (Ref r : subtreePool(s))
                if (!sc.sentence(r).speaker.isEmpty())
                    words[sc.sentence(r).speaker] += sc.sentence(r).wordCount;
            std::vector<std::pair<long, QString>> ranked;
            for (auto it = words.cbegin(); it != words.cend(); ++it)
                ranked.push_back({it.value(), it.key()});
            std::sort(ranked.begin(), ranked.end(), [](const auto &a, const auto &b) {
                return a.first != b.first ? a.first > b.first : a.second < b.second;
            });
            for (int k = 0; k < options.speakerQuestions && k < int(ranked.size()); ++k) {
                DraftItem sp;
                sp.section = s;
                sp.depth = item.depth;
                sp.evidence = pick(sc, subtreePool(s, ranked[std::size_t(k)].second), options.summaryWords);
                if (sp.evidence.empty())
                    continue;
                sp.question = ask(questions.speaker, s, ranked[std::size_t(k)].second);
                if (sp.question.isEmpty())
                    continue;
                sp.summary = joinSentences(sc, sp.evidence, true);
                sp.confidence = meanScore(sc, sp.evidence);
                pendingSpeaker.push_back({subtreeEnd[std::size_t(s)], std::move(sp)});
            }
        }
    }
    flushSpeakers(n);
    if (progress)
        progress(n, n);
    out.ok = true;
    return out;
}

} // namespace folio::pipeline
