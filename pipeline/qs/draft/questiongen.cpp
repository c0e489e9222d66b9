#include "pipeline/qs/draft/questiongen.h"

#include "document/formats/datasetformat.h"
#include "pipeline/qs/draft/topicsegments.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace folio::pipeline {

std::vector<std::int64_t> questionSource(const QsVocabulary &vocab, const QString &answer, const QStringList &evidence,
                                         int maxSourcePositions)
{
    const std::size_t budget = std::size_t(std::max(4, maxSourcePositions) - 2); // bos, eos
    std::vector<std::int64_t> a = encodeQsText(vocab, answer.simplified());
    a.resize(std::min(a.size(), std::max<std::size_t>(1, budget / 3)));
    std::vector<std::int64_t> ids{vocab.markers.bos};
    ids.insert(ids.end(), a.begin(), a.end());
    for (const QString &sentence : evidence) {
        if (ids.size() + 2 > budget + 1)
            break;
        std::vector<std::int64_t> s = encodeQsText(vocab, sentence.simplified());
        if (s.empty())
            continue;
        ids.push_back(vocab.markers.paragraphSeparator);
        const std::size_t room = budget + 1 - ids.size();
        ids.insert(ids.end(), s.begin(), s.begin() + std::ptrdiff_t(std::min(room, s.size())));
    }
    if (ids.size() == 1)
        return {};
    ids.push_back(vocab.markers.eos);
    return ids;
}

QSet<QString> questionKeyTerms(const QString &question)
{
    static const QSet<QString> form = draftContentWords(QStringLiteral(
        "what why how who whom whose which when where whether does did do done is are was were will would could should "
        "can may might must summarize summarise summary discussion discuss discussed discussing talk talked "
        "group team document say said says think thought opinion opinions decision decide decided part meeting "
        "mention mentioned happen happened feel felt tell told describe described according"));
    QSet<QString> terms;
    for (const QString &w : draftContentWords(question))
        if (!form.contains(w))
            terms.insert(w);
    return terms;
}

bool questionGrounded(const QString &question, const QString &text)
{
    const QStringList tokens = draftTokens(text);
    const QSet<QString> words(tokens.cbegin(), tokens.cend());
    for (const QString &t : questionKeyTerms(question))
        if (!words.contains(t))
            return false;
    return true;
}

QuestionGenerator::QuestionGenerator() = default;
QuestionGenerator::~QuestionGenerator() = default;
QuestionGenerator::QuestionGenerator(QuestionGenerator &&) noexcept = default;
QuestionGenerator &QuestionGenerator::operator=(QuestionGenerator &&) noexcept = default;

bool QuestionGenerator::load(const QString &dir, QString *error)
{
    QString err;
    QByteArray bytes;
    const QString configPath = QDir(dir).filePath(QStringLiteral("config.json"));
    if (!formats::readWholeFile(configPath, &bytes, &err, 16 << 20)) {
        *error = err;
        return false;
    }
    const QJsonObject config = QJsonDocument::fromJson(bytes).object();
    const QJsonObject q = config.value(QStringLiteral("folio_questions")).toObject();
    if (q.isEmpty()) {
        *error = configPath + QStringLiteral(": not a question generator (no \"folio_questions\"; train one with "
                                             "folio-cli qs train-questions)");
        return false;
    }
    auto gen = std::make_unique<inference::Seq2seqGenerator>();
    std::string e;
    if (!gen->load(dir.toStdString(), &e)) {
        *error = QString::fromStdString(e);
        return false;
    }
    QsVocabulary vocab;
    if (!loadQsVocabulary(dir, &vocab, &err)) {
        *error = err;
        return false;
    }
    m_generator = std::move(gen);
    m_vocab = std::move(vocab);
    m_maxSource = std::clamp(q.value(QStringLiteral("max_source")).toInt(256), 8, m_generator->maxSourceLength());
    m_copy = config.value(QStringLiteral("folio_copy_head")).toBool(false);
    settings = m_generator->defaultSettings();
    return true;
}

bool QuestionGenerator::isLoaded() const
{
    return m_generator && m_generator->isLoaded();
}

bool QuestionGenerator::hasCopyHead() const
{
    return isLoaded() && m_copy;
}

QString QuestionGenerator::generate(const QString &answer, const QStringList &evidence, QString *error) const
{
    auto fail = [&](const QString &why) {
        if (error)
            *error = why;
        return QString();
    };
    if (!isLoaded())
        return fail(QStringLiteral("no question generator loaded"));
    inference::Seq2seqSource src;
    src.ids = questionSource(m_vocab, answer, evidence, m_maxSource);
    if (src.ids.empty())
        return fail(QStringLiteral("no answer and no evidence to ask about"));
    const inference::GenerationResult r = m_generator->generate({src}, settings);
    if (!r.ok)
        return fail(QString::fromStdString(r.error));
    if (r.rows.empty())
        return fail(QStringLiteral("the generator returned nothing"));
    QString text = decodeQsText(m_vocab, r.rows.front().tokens).simplified();
    if (draftContentWords(text).isEmpty())
        return fail(QStringLiteral("the generated question has no content words"));
    if (!text.endsWith(QLatin1Char('?')) && !text.endsWith(QLatin1Char('.')))
        text += QLatin1Char('?');
    return text;
}

} // namespace folio::pipeline
