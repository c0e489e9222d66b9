#include "pipeline/qs/draft/saliencedata.h"

#include "document/formats/datasetformat.h"
#include "pipeline/qs/draft/questiondata.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QXmlStreamReader>

namespace folio::pipeline {

namespace {

void addSection(DraftSource *src, const QString &title, const QStringList &sentences)
{
    DraftSection sec;
    sec.title = title;
    for (const QString &text : sentences)
        for (const QString &piece : splitDraftSentences(text)) {
            DraftSentence d;
            d.text = piece;
            d.wordCount = int(piece.count(QLatin1Char(' '))) + 1;
            sec.sentences.push_back(d);
        }
    src->sections.push_back(std::move(sec));
}

} // namespace

bool looksLikeFairytaleQa(const QString &dir)
{
    const QDir d(dir);
    return d.exists(QStringLiteral("data-by-train-split/section-stories")) || d.exists(QStringLiteral("section-stories"));
}

bool looksLikeClSciSumm(const QString &dir)
{
    QDirIterator it(dir, {QStringLiteral("Reference_XML")}, QDir::Dirs, QDirIterator::Subdirectories);
    return QFileInfo(dir).isDir() && !looksLikeFairytaleQa(dir) && it.hasNext();
}

bool readFairytaleQaDocuments(const QString &dir, const QString &split, std::vector<ReferencedDocument> *out,
                              QString *error, int limit)
{
    std::vector<FairytaleQaStory> stories;
    if (!readFairytaleQaStories(dir, split, &stories, error, limit))
        return false;
    for (const FairytaleQaStory &story : stories) {
        ReferencedDocument doc;
        doc.source.title = story.name;
        for (const QStringList &sentences : story.sections)
            addSection(&doc.source, QString(), sentences); // untitled: the drafter names it by key terms
        const std::size_t n = doc.source.sections.size();
        doc.references.assign(n, QString());
        doc.answers.assign(n, QStringList());
        doc.questions.assign(n, QStringList());
        for (const FairytaleQaStory::Question &q : story.questions)
            for (int s : q.sections) {
                doc.references[std::size_t(s)] += q.question + QLatin1Char(' ') + q.answer1 + QLatin1Char(' ');
                doc.answers[std::size_t(s)] << q.answer1;
                doc.questions[std::size_t(s)] << q.question;
            }
        out->push_back(std::move(doc));
    }
    return true;
}

namespace {

// <PAPER> with <S> sentences, optionally inside <ABSTRACT> and <SECTION title=..>.
bool readPaperXml(const QString &path, DraftSource *src, QString *error)
{
    QByteArray bytes;
    if (!formats::readWholeFile(path, &bytes, error, 8 << 20))
        return false;
    QXmlStreamReader xml(bytes);
    QString title;
    QStringList sentences;
    bool any = false;
    auto flush = [&]() {
        if (!sentences.isEmpty())
            addSection(src, title, sentences);
        sentences.clear();
    };
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto name = xml.name();
            if (name == QLatin1String("ABSTRACT") || name == QLatin1String("SECTION")) {
                flush();
                title = name == QLatin1String("ABSTRACT") ? QStringLiteral("Abstract")
                                                          : xml.attributes().value(QLatin1String("title")).toString().trimmed();
                if (title.endsWith(QLatin1Char('.')))
                    title.chop(1);
            } else if (name == QLatin1String("S")) {
                const QString s = xml.readElementText(QXmlStreamReader::IncludeChildElements).simplified();
                if (!s.isEmpty()) {
                    sentences << s;
                    any = true;
                }
            }
        }
    }
    if (xml.hasError()) {
        *error = path + QStringLiteral(": XML error at line %1: %2").arg(xml.lineNumber()).arg(xml.errorString());
        return false;
    }
    flush();
    if (!any) {
        *error = path + QStringLiteral(": no <S> sentences");
        return false;
    }
    return true;
}

QString humanSummary(const QDir &summaryDir, QString *error)
{
    for (const QString &f : summaryDir.entryList(QDir::Files, QDir::Name)) {
        if (!f.contains(QLatin1String("human")))
            continue;
        QByteArray bytes;
        if (!formats::readWholeFile(summaryDir.filePath(f), &bytes, error, 1 << 20))
            return {};
        return QString::fromUtf8(bytes).simplified();
    }
    return {};
}

} // namespace

bool readClSciSummDocuments(const QString &dir, std::vector<ReferencedDocument> *out, QString *error, int limit,
                            int *skipped)
{
    if (!QFileInfo(dir).isDir()) {
        *error = dir + QStringLiteral(": not a folder (CL-SciSumm: <ID>/Reference_XML/<ID>.xml and <ID>/summary/)");
        return false;
    }
    QStringList papers;
    const QDir root(QFileInfo(dir).absoluteFilePath());
    QDirIterator it(root.path(), {QStringLiteral("*.xml")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (QFileInfo(path).dir().dirName() == QLatin1String("Reference_XML") && root.relativeFilePath(path).count(QLatin1Char('/')) <= 6)
            papers << path;
    }
    papers.sort();
    if (papers.isEmpty()) {
        *error = dir + QStringLiteral(": no <ID>/Reference_XML/<ID>.xml (a CL-SciSumm folder?)");
        return false;
    }
    int read = 0;
    for (const QString &path : papers) {
        if (limit >= 0 && read >= limit)
            break;
        QDir paperDir = QFileInfo(path).dir();
        paperDir.cdUp();
        QString readError;
        const QString summary = humanSummary(QDir(paperDir.filePath(QStringLiteral("summary"))), &readError);
        if (!readError.isEmpty()) {
            *error = readError;
            return false;
        }
        if (summary.isEmpty()) {
            if (skipped)
                ++*skipped;
            continue;
        }
        ReferencedDocument doc;
        doc.source.title = QFileInfo(path).completeBaseName();
        QString problem; // a paper that does not parse is skipped (counted), not the end of the data
        if (!readPaperXml(path, &doc.source, &problem)) {
            if (skipped)
                ++*skipped;
            continue;
        }
        doc.references.assign(doc.source.sections.size(), summary);
        out->push_back(std::move(doc));
        ++read;
    }
    return true;
}

} // namespace folio::pipeline
