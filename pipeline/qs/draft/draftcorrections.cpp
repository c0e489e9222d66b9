#include "pipeline/qs/draft/draftcorrections.h"

#include "document/layoutsections.h"
#include "document/project/project.h"
#include "document/qstree.h"
#include "pipeline/qs/draft/topicsegments.h"

#include <QSet>

#include <algorithm>

namespace folio::pipeline {

namespace {

// Draft sections an item rests on: those its section keys name, and those holding its evidence words.
QSet<int> evidenceSections(const Document &doc, const DraftSource &src, const QsNode &node, const QHash<QString, int> &wordIndex)
{
    QSet<int> out;
    QSet<int> docSections;
    for (const QString &key : node.evidenceSections) {
        const int s = qsResolveSection(doc, key);
        if (s >= 0)
            docSections.insert(s);
    }
    std::vector<std::pair<int, int>> spans;
    for (const QsEvidenceSpan &span : node.evidenceSpans) {
        int a = -1, b = -1;
        if (qsResolveSpan(wordIndex, span, &a, &b))
            spans.push_back({a, b});
    }
    for (int s = 0; s < int(src.sections.size()); ++s) {
        const DraftSection &sec = src.sections[std::size_t(s)];
        if (sec.documentSection >= 0 && docSections.contains(sec.documentSection)) {
            out.insert(s);
            continue;
        }
        for (const DraftSentence &t : sec.sentences)
            for (const auto &[a, b] : spans)
                if (t.firstWord >= 0 && t.firstWord <= b && a <= t.lastWord)
                    out.insert(s);
    }
    return out;
}

QString templateOf(const QString &question, const QString &title)
{
    QString topic;
    if (sectionNumberingDepth(title, &topic) == 0)
        topic = title;
    topic = topic.simplified();
    while (!topic.isEmpty() && (topic.back() == QLatin1Char('?') || topic.back() == QLatin1Char('.') || topic.back() == QLatin1Char(':')))
        topic.chop(1);
    if (topic.size() < 2)
        return {};
    QString q = question.simplified();
    const int at = q.toLower().indexOf(topic.toLower());
    if (at < 0)
        return {};
    q.replace(at, topic.size(), QStringLiteral("{topic}"));
    return q.startsWith(QLatin1String("{topic}")) ? QString() : q;
}

} // namespace

void mergeTemplates(std::vector<QuestionTemplate> *list, const QHash<QString, int> &counts, int minCount)
{
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        if (it.value() < minCount)
            continue;
        auto found = std::find_if(list->begin(), list->end(), [&](const QuestionTemplate &t) { return t.text == it.key(); });
        if (found != list->end())
            found->count += it.value();
        else
            list->push_back({it.key(), it.value()});
    }
    std::stable_sort(list->begin(), list->end(), [](const QuestionTemplate &a, const QuestionTemplate &b) { return a.count > b.count; });
}

bool addProjectCorrections(const QString &projectPath, SalienceFitter *fitter, QHash<QString, int> *writtenTemplates,
                           CorrectionStats *stats, QString *error)
{
    QString e;
    const std::unique_ptr<Project> project = Project::open(projectPath, &e, Project::Mode::ReadOnly);
    if (!project) {
        *error = e.startsWith(projectPath) ? e : projectPath + QStringLiteral(": ") + e;
        return false;
    }
    for (const ProjectDocument &d : project->documents()) {
        Document doc;
        Annotations ann;
        if (!project->loadDocument(d.id, &doc, &ann, &e)) {
            *error = projectPath + QStringLiteral(": document '") + d.name + QStringLiteral("': ") + e;
            return false;
        }
        if (ann.qsRoots.empty())
            continue;
        ++stats->documents;
        const DraftSource src = draftSourceFromDocument(doc);
        const auto features = salienceFeatures(src);
        const QHash<QString, int> wordIndex = qsWordIndex(doc);
        for (const QsItem &item : qsItems(ann.qsRoots)) {
            const QsNode &n = *item.node;
            const bool reviewedGood = n.state == ReviewState::Accepted || n.state == ReviewState::Edited;
            const bool rejected = n.state == ReviewState::Rejected;
            if (!reviewedGood && !rejected)
                continue;
            const QSet<int> sections = evidenceSections(doc, src, n, wordIndex);
            if (sections.isEmpty()) {
                ++stats->withoutEvidence;
                continue;
            }
            (rejected ? stats->rejected : stats->accepted) += 1;
            const QSet<QString> reference = draftContentWords(n.summary + QLatin1Char(' ') + ann.qsSummary);
            for (int s : sections) {
                for (std::size_t i = 0; i < src.sections[std::size_t(s)].sentences.size(); ++i) {
                    const DraftSentence &t = src.sections[std::size_t(s)].sentences[i];
                    if (t.heading)
                        continue;
                    fitter->add(features[std::size_t(s)][i], rejected ? 0.0 : salienceTarget(t.text, reference));
                    ++stats->sentences;
                }
                if (!rejected) {
                    const QString templ = templateOf(n.question, src.sections[std::size_t(s)].title);
                    if (!templ.isEmpty()) {
                        ++(*writtenTemplates)[templ];
                        ++stats->templatesFound;
                    }
                }
            }
        }
    }
    return true;
}

} // namespace folio::pipeline
