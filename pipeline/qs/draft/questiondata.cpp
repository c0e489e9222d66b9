#include "pipeline/qs/draft/questiondata.h"

#include "document/formats/datasetformat.h"
#include "inference/qs/qsmetrics.h"
#include "pipeline/qs/draft/topicsegments.h"

#include <QDir>
#include <QHash>
#include <QRegularExpression>

namespace folio::pipeline {

bool parseCsv(const QString &path, std::vector<QStringList> *rows, QString *error)
{
    QByteArray bytes;
    if (!formats::readWholeFile(path, &bytes, error, 16 << 20))
        return false;
    const QString text = QString::fromUtf8(bytes);
    rows->clear();
    QStringList row;
    QString field;
    bool quoted = false, fieldStarted = false;
    auto endField = [&]() -> bool {
        if (field.size() > (1 << 20) || row.size() >= 64) {
            *error = path + QStringLiteral(": a field over 1 MiB or a row over 64 fields (line %1)").arg(rows->size() + 1);
            return false;
        }
        row << field;
        field.clear();
        fieldStarted = false;
        return true;
    };
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < text.size() && text.at(i + 1) == QLatin1Char('"')) {
                    field += c;
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"') && !fieldStarted) {
            quoted = fieldStarted = true;
        } else if (c == QLatin1Char(',')) {
            if (!endField())
                return false;
        } else if (c == QLatin1Char('\n') || c == QLatin1Char('\r')) {
            if (c == QLatin1Char('\r') && i + 1 < text.size() && text.at(i + 1) == QLatin1Char('\n'))
                ++i;
            if (!endField())
                return false;
            rows->push_back(row);
            row.clear();
        } else {
            field += c;
            fieldStarted = true;
        }
    }
    if (quoted) {
        *error = path + QStringLiteral(": unterminated quoted field");
        return false;
    }
    if (fieldStarted || !row.isEmpty()) {
        if (!endField())
            return false;
        rows->push_back(row);
    }
    return true;
}

QStringList evidenceForAnswer(const QString &answer, const QStringList &sentences)
{
    const QSet<QString> a = draftContentWords(answer);
    QStringList first, rest;
    for (const QString &s : sentences)
        (draftContentWords(s).intersects(a) ? first : rest) << s;
    return first + rest;
}

namespace {

QStringList sentencesOf(const QString &text)
{
    QStringList out;
    for (const QString &s : QString::fromStdString(inference::splitSentences(text.simplified().toStdString())).split(QLatin1Char('\n')))
        if (!s.trimmed().isEmpty())
            out << s.trimmed();
    return out;
}

int column(const QStringList &header, const char *name, const QString &path, QString *error)
{
    const int c = int(header.indexOf(QLatin1String(name)));
    if (c < 0)
        *error = path + QStringLiteral(": no column \"%1\"").arg(QLatin1String(name));
    return c;
}

} // namespace

bool readFairytaleQaStories(const QString &dirIn, const QString &split, std::vector<FairytaleQaStory> *out, QString *error,
                            int limit)
{
    QString dir = dirIn;
    if (QDir(dir).exists(QStringLiteral("data-by-train-split")))
        dir = QDir(dir).filePath(QStringLiteral("data-by-train-split"));
    const QDir questions(QDir(dir).filePath(QStringLiteral("questions/") + split));
    const QDir stories(QDir(dir).filePath(QStringLiteral("section-stories/") + split));
    const QStringList files = questions.entryList({QStringLiteral("*-questions.csv")}, QDir::Files, QDir::Name);
    if (files.isEmpty()) {
        *error = questions.path() + QStringLiteral(": no *-questions.csv (a FairytaleQA folder with data-by-train-split?)");
        return false;
    }
    for (const QString &file : files) {
        if (limit >= 0 && int(out->size()) >= limit)
            break;
        FairytaleQaStory story;
        story.name = file.left(file.size() - int(QStringLiteral("-questions.csv").size()));
        const QString storyPath = stories.filePath(story.name + QStringLiteral("-story.csv"));
        const QString qpath = questions.filePath(file);
        std::vector<QStringList> srows, qrows;
        if (!parseCsv(storyPath, &srows, error) || !parseCsv(qpath, &qrows, error))
            return false;
        if (srows.empty() || qrows.empty()) {
            *error = (srows.empty() ? storyPath : qpath) + QStringLiteral(": no header row");
            return false;
        }
        const int sec = column(srows.front(), "section", storyPath, error), txt = column(srows.front(), "text", storyPath, error);
        const int qc = column(qrows.front(), "question", qpath, error), ac = column(qrows.front(), "answer1", qpath, error),
                  cc = column(qrows.front(), "cor_section", qpath, error);
        if (sec < 0 || txt < 0 || qc < 0 || ac < 0 || cc < 0)
            return false;
        const int a4 = int(qrows.front().indexOf(QStringLiteral("answer4")));
        QHash<QString, int> index; // section id -> position
        for (std::size_t r = 1; r < srows.size(); ++r)
            if (srows[r].size() > std::max(sec, txt)) {
                index.insert(srows[r].at(sec).trimmed(), int(story.sections.size()));
                story.sections.push_back(sentencesOf(srows[r].at(txt)));
            }
        for (std::size_t r = 1; r < qrows.size(); ++r) {
            const QStringList &row = qrows[r];
            if (row.size() <= std::max({qc, ac, cc}))
                continue;
            FairytaleQaStory::Question q;
            q.question = row.at(qc).simplified();
            q.answer1 = row.at(ac).simplified();
            if (a4 >= 0 && a4 < row.size())
                q.answer4 = row.at(a4).simplified();
            for (const QString &s : row.at(cc).split(QLatin1Char(','), Qt::SkipEmptyParts))
                if (const auto it = index.constFind(s.trimmed()); it != index.cend())
                    q.sections.push_back(it.value());
            if (!q.question.isEmpty() && !q.answer1.isEmpty() && !q.sections.empty())
                story.questions.push_back(std::move(q));
        }
        out->push_back(std::move(story));
    }
    return true;
}

bool readFairytaleQaExamples(const QString &dir, const QString &split, std::vector<QuestionExample> *out, QString *error,
                             int limit)
{
    std::vector<FairytaleQaStory> stories;
    if (!readFairytaleQaStories(dir, split, &stories, error, limit))
        return false;
    for (const FairytaleQaStory &story : stories)
        for (const FairytaleQaStory::Question &q : story.questions) {
            QStringList sentences;
            for (int s : q.sections)
                sentences += story.sections[std::size_t(s)];
            if (sentences.isEmpty())
                continue;
            QuestionExample e;
            e.question = q.question;
            e.answer = q.answer1;
            e.evidence = evidenceForAnswer(e.answer, sentences);
            out->push_back(std::move(e));
        }
    return true;
}

std::vector<QuestionExample> qmsumQuestionExamples(const std::vector<QmsumMeeting> &meetings)
{
    std::vector<QuestionExample> out;
    for (const QmsumMeeting &m : meetings)
        for (std::size_t k = 0; k < m.reference.items.size() && k < m.evidence.size(); ++k) {
            if (m.evidence[k].empty())
                continue;
            QuestionExample e;
            e.question = QString::fromStdString(m.reference.items[k].question).simplified();
            e.answer = QString::fromStdString(m.reference.items[k].summary).simplified();
            for (const auto &span : m.evidence[k])
                for (int t = span.first; t <= span.second && t < int(m.turns.size()); ++t) {
                    // Transcript marks ({disfmarker}, {vocalsound}) are not words to ask about.
                    static const QRegularExpression mark(QStringLiteral("\\{[a-z_]+\\}"));
                    const QString turn = QString(m.turns.at(t)).remove(mark).simplified();
                    if (turn.contains(QLatin1Char(' ')))
                        e.evidence << turn;
                }
            e.evidence = evidenceForAnswer(e.answer, e.evidence);
            if (!e.question.isEmpty() && !e.answer.isEmpty())
                out.push_back(std::move(e));
        }
    return out;
}

} // namespace folio::pipeline
