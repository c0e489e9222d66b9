// The question-summary drafter (issue 31) without any data set: sentences tied to their words,
// sections from the section tree, topic segmentation of an unstructured text, the drafted tree
// (items per section with content, follow-ups for subsections, limits, no duplicate questions,
// evidence, extractive summaries), drafter.json round trip and refusals, cancel, and the bad
// inputs of the issue: no sections, a one-word section, 10,000 sections, non-English text, a
// document of table cells only, too little text (and checked with qs check's measures: supported
// summaries, no duplicates; Russian, Arabic; Chinese without spaces named in the message). With
// QMSum present: fitting and mining on a few training meetings gives weights and the two template kinds. Salience data beyond QMSum:
// FairytaleQA-shaped and CL-SciSumm-shaped fixtures read into sections with references (a paper
// without a human summary or with broken XML skipped and counted, a folder without papers refused),
// balanced merging of fitters; with the shared data, a few stories and papers of each.
#include "document/project/project.h"
#include "document/qstree.h"
#include "pipeline/qs/draft/draftchecks.h"
#include "pipeline/qs/draft/draftcorrections.h"
#include "pipeline/qs/draft/drafter.h"
#include "pipeline/qs/draft/saliencedata.h"
#include "pipeline/qs/draft/topicsegments.h"
#include "tests/common/sectioneddocument.h"
#include "tests/common/testdata.h"

#include <QElapsedTimer>
#include <cmath>
#include <algorithm>
#include <QDir>
#include <QFileInfo>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace folio;
using namespace folio::pipeline;

namespace {

QString paragraph(const QString &topic, int sentences)
{
    QStringList out;
    for (int i = 0; i < sentences; ++i)
        out << QStringLiteral("The %1 setting number %2 controls how the %1 engine stores its cache files on disk.").arg(topic).arg(i);
    return out.join(QLatin1Char(' '));
}

QsDrafter simpleDrafter()
{
    QsDrafter d;
    // Prefer sentences close to their section, as a fitted model does.
    d.salience.weights = std::vector<double>(std::size_t(salienceFeatureNames().size()), 0.0);
    d.salience.weights[3] = 1.0; // cos_section
    d.salience.weights[5] = 0.3; // title_overlap
    d.questions.section = {{QStringLiteral("Summarize the discussion about {topic}"), 5}};
    d.questions.speaker = {{QStringLiteral("What did {speaker} think about {topic}?"), 3}};
    d.questions.written = defaultWrittenTemplates();
    return d;
}

Document manual()
{
    Document d;
    d.title = QStringLiteral("Engine manual");
    testing::addSection(d, QStringLiteral("Installation"), -1, paragraph(QStringLiteral("installer"), 6));
    testing::addSection(d, QStringLiteral("Configuration"), -1, paragraph(QStringLiteral("config"), 3));
    testing::addSection(d, QStringLiteral("Cache options"), 1, paragraph(QStringLiteral("cache"), 5));
    testing::addSection(d, QStringLiteral("Network options"), 1, paragraph(QStringLiteral("network"), 5));
    testing::addSection(d, QStringLiteral("Notes"), -1, QStringLiteral("Tiny."));
    return d;
}

// writeTestFile in a folder that may not exist yet.
void writeNested(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    QDir(dir.path()).mkpath(QFileInfo(dir.filePath(name)).path());
    test::writeTestFile(dir, name, bytes);
}

} // namespace

class TestQsDrafter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sentencesKeepTheirWords()
    {
        Document d;
        testing::addWords(d, QStringLiteral("First sentence here. Second one, e.g. with an abbreviation, ends here! Third?"));
        const DraftSource src = draftSourceFromDocument(d);
        QCOMPARE(int(src.sections.size()), 1);
        const auto &s = src.sections[0].sentences;
        QCOMPARE(int(s.size()), 3);
        QCOMPARE(s[0].text, QStringLiteral("First sentence here."));
        QCOMPARE(s[0].firstWord, 0);
        QCOMPARE(s[0].lastWord, 2);
        QCOMPARE(s[1].text, QStringLiteral("Second one, e.g. with an abbreviation, ends here!"));
        QCOMPARE(s[2].firstWord, s[1].lastWord + 1);
        QCOMPARE(splitDraftSentences(QStringLiteral("a b c d e"), 2), QStringList({"a b", "c d", "e"}));
        Document anchors; // a documentation generator's heading anchors are not text
        testing::addWords(anchors, QStringLiteral("Install \u00B6 the tool first. Then run it."));
        QCOMPARE(draftSourceFromDocument(anchors).sections[0].sentences[0].text, QStringLiteral("Install the tool first."));
        QCOMPARE(cleanSpokenText(QStringLiteral("Um , we we {disfmarker} need the uh remote .")), QStringLiteral("we need the remote."));
    }

    void draftFollowsTheSectionTree()
    {
        const Document d = manual();
        const DraftSource src = draftSourceFromDocument(d);
        QCOMPARE(int(src.sections.size()), 5);
        const QsDrafter drafter = simpleDrafter();
        QList<int> progress;
        QStringList arrived; // items as they are drafted, with the section count reached at that moment
        const QsDraft draft = drafter.draft(src, drafter.defaults, [&](int done, int) { progress << done; return true; },
                                            [&](const DraftItem &i) { arrived << QStringLiteral("%1@%2").arg(i.question).arg(progress.size()); });
        QVERIFY2(draft.ok, qPrintable(draft.error));
        // Each item arrives once, in the final order, while the sections are still being read.
        QCOMPARE(arrived.size(), int(draft.items.size()));
        for (std::size_t k = 0; k < draft.items.size(); ++k)
            QVERIFY(arrived[int(k)].startsWith(draft.items[k].question + QLatin1Char('@')));
        QVERIFY(arrived.front().section(QLatin1Char('@'), -1).toInt() < int(src.sections.size()));
        QVERIFY(!draft.rootSummary.isEmpty());
        QCOMPARE(progress.size(), 6); // once per section, and the end
        // Installation, Configuration (with Cache and Network as follow-ups); "Notes" is too short.
        QCOMPARE(int(draft.items.size()), 4);
        QCOMPARE(draft.items[0].question, QStringLiteral("What does the document say about installation?"));
        QCOMPARE(draft.items[0].depth, 1);
        QCOMPARE(draft.items[1].question, QStringLiteral("What does the document say about configuration?"));
        QCOMPARE(draft.items[2].depth, 2);
        QCOMPARE(draft.items[2].question, QStringLiteral("What does the document say about cache options?"));
        QCOMPARE(draft.items[3].depth, 2);
        // Summaries are the section's own sentences (its subtree's for a parent), evidence attached.
        QVERIFY(draft.items[2].summary.contains(QLatin1String("cache engine")));
        QVERIFY(!draft.items[2].summary.contains(QLatin1String("network")));
        for (const DraftItem &i : draft.items) {
            QVERIFY(!i.evidence.empty());
            for (const auto &[s, k] : i.evidence)
                QVERIFY(i.summary.contains(src.sections[std::size_t(s)].sentences[std::size_t(k)].text));
            QVERIFY(!i.summary.contains(QLatin1String("Installation Installation")));
        }
        const DraftCheck c = checkDraft(src, draft);
        QCOMPARE(c.topLevelWithContent, 2);
        QCOMPARE(c.topLevelCovered, 2);
        QCOMPARE(c.supportedSentences, c.summarySentences);
        QCOMPARE(c.groundedQuestions, c.questions);
        QCOMPARE(c.duplicateQuestions, 0);
        // Limits: one level, then one item.
        DraftOptions o = drafter.defaults;
        o.maxDepth = 1;
        QCOMPARE(int(drafter.draft(src, o).items.size()), 2);
        o.maxItems = 1;
        const QsDraft one = drafter.draft(src, o);
        QCOMPARE(int(one.items.size()), 1);
        QVERIFY(one.notes.join(QLatin1Char(' ')).contains(QLatin1String("item limit")));
        // Cancel.
        const QsDraft cancelled = drafter.draft(src, drafter.defaults, [](int done, int) { return done < 2; });
        QVERIFY(cancelled.cancelled);
        QVERIFY(!cancelled.ok);
    }

    void duplicateTitlesAskDistinctQuestions()
    {
        Document d;
        testing::addSection(d, QStringLiteral("Alpha"), -1, paragraph(QStringLiteral("alpha"), 4));
        testing::addSection(d, QStringLiteral("Usage"), 0, paragraph(QStringLiteral("first"), 4));
        testing::addSection(d, QStringLiteral("Beta"), -1, paragraph(QStringLiteral("beta"), 4));
        testing::addSection(d, QStringLiteral("Usage"), 2, paragraph(QStringLiteral("second"), 4));
        const QsDrafter drafter = simpleDrafter();
        const QsDraft draft = drafter.draft(draftSourceFromDocument(d), drafter.defaults);
        QSet<QString> questions;
        for (const DraftItem &i : draft.items)
            questions.insert(i.question);
        QCOMPARE(questions.size(), int(draft.items.size()));
        QVERIFY(questions.contains(QStringLiteral("What does the document say about usage in beta?")));
    }

    void unstructuredTextIsSegmentedByTopic()
    {
        Document d; // no sections: three topics, 30 sentences each
        d.title = QStringLiteral("News");
        for (const char *topic : {"printer", "garden", "violin"})
            for (int i = 0; i < 30; ++i)
                testing::addWords(d, QStringLiteral("The %1 %2 needs %1 care and %1 parts every week %3.")
                               .arg(QLatin1String(topic), QStringLiteral("model%1").arg(i % 3), QString::number(i)));
        DraftSegmenting segmenting;
        segmenting.targetSegmentWords = 300; // about 1,100 words: three parts
        const DraftSource src = draftSourceFromDocument(d, segmenting);
        QCOMPARE(int(src.sections.size()), 4); // the (now empty) implicit section and three parts
        QVERIFY(src.sections[1].segmented);
        QCOMPARE(src.sections[1].parent, -1); // the whole document's parts are its top-level sections
        QVERIFY2(src.sections[1].title.contains(QLatin1String("printer")), qPrintable(src.sections[1].title));
        QVERIFY2(src.sections[2].title.contains(QLatin1String("garden")), qPrintable(src.sections[2].title));
        QVERIFY2(src.sections[3].title.contains(QLatin1String("violin")), qPrintable(src.sections[3].title));
        const QsDrafter drafter = simpleDrafter();
        const QsDraft draft = drafter.draft(src, drafter.defaults);
        QVERIFY(draft.ok);
        QVERIFY(draft.items.size() >= 3);

        // TextTiling alone on token lists: the boundaries fall between the topics.
        std::vector<QStringList> sentences;
        for (const char *topic : {"alpha", "beta"})
            for (int i = 0; i < 40; ++i)
                sentences.push_back(draftTokens(QStringLiteral("%1 %1 word%2 more %1").arg(QLatin1String(topic)).arg(i % 5)));
        const std::vector<int> starts = topicSegmentStarts(sentences, 150, 60);
        QVERIFY(std::find(starts.begin(), starts.end(), 40) != starts.end());
    }

    void headingLikeLinesSplitAPlainText()
    {
        Document d;
        Node root;
        d.nodes.push_back(root);
        auto line = [&](const QString &text) { // one "line" node per call
            Node n;
            n.kind = NodeKind::Line;
            n.parent = 0;
            d.nodes.push_back(n);
            const int lineNode = int(d.nodes.size()) - 1;
            for (const QString &t : text.split(QLatin1Char(' '))) {
                Node wn;
                wn.kind = NodeKind::Word;
                wn.parent = lineNode;
                d.nodes.push_back(wn);
                Word w;
                w.id = QStringLiteral("w%1").arg(d.words.size());
                w.text = t;
                w.node = int(d.nodes.size()) - 1;
                d.words.push_back(w);
            }
        };
        for (const char *h : {"1. Getting started", "2. Advanced use", "3. Troubleshooting"}) {
            line(QString::fromLatin1(h));
            for (int i = 0; i < 25; ++i)
                line(QStringLiteral("This line explains step %1 of the part in plain words for readers.").arg(i));
        }
        const DraftSource src = draftSourceFromDocument(d);
        QStringList titles;
        for (const DraftSection &s : src.sections)
            titles << s.title;
        QVERIFY2(titles.contains(QStringLiteral("2. Advanced use")), qPrintable(titles.join(QLatin1Char('|'))));
    }

    void badInputsGiveADraftOrAMessage()
    {
        const QsDrafter drafter = simpleDrafter();
        // Too little text.
        Document tiny;
        testing::addWords(tiny, QStringLiteral("Hello"));
        QsDraft t = drafter.draft(draftSourceFromDocument(tiny), drafter.defaults);
        QVERIFY(!t.ok);
        QVERIFY(t.error.contains(QLatin1String("too little text")));
        QVERIFY(!drafter.draft(draftSourceFromDocument(Document{}), drafter.defaults).ok);
        // A section of one word beside one with content; short documents still get one item.
        Document d;
        testing::addSection(d, QStringLiteral("One"), -1, QStringLiteral("word"));
        testing::addSection(d, QStringLiteral("Two"), -1, QStringLiteral("A short text of a dozen words that says something about two."));
        QsDraft s = drafter.draft(draftSourceFromDocument(d), drafter.defaults);
        QVERIFY(s.ok);
        QCOMPARE(int(s.items.size()), 1);
        QVERIFY(s.items[0].question.contains(QLatin1String("two")));
        // Non-English text (German): words with umlauts count, the question uses the title.
        Document de;
        testing::addSection(de, QStringLiteral("Übersicht"), -1,
                   QStringLiteral("Die Größe der Dateien wird täglich geprüft. Für jede Änderung gibt es einen Eintrag im Protokoll. "
                                  "Das Protokoll enthält die Größe, das Datum und den Namen der geänderten Datei. "
                                  "Ältere Einträge werden nach dreißig Tagen gelöscht, damit das Protokoll klein bleibt."));
        const QsDraft g = drafter.draft(draftSourceFromDocument(de), drafter.defaults);
        QVERIFY(g.ok);
        QVERIFY(g.items.front().summary.contains(QStringLiteral("Größe")));
        // A document of table cells only (no sentence punctuation): sentences are capped, a draft comes out.
        Document table;
        for (int r = 0; r < 200; ++r)
            testing::addWords(table, QStringLiteral("row%1 12.5 EUR blue large").arg(r));
        QVERIFY(drafter.draft(draftSourceFromDocument(table), drafter.defaults).ok);
        // 10,000 sections: linear, items limited.
        Document many;
        for (int i = 0; i < 10000; ++i)
            testing::addSection(many, QStringLiteral("S%1").arg(i), i % 10 == 0 || i == 0 ? -1 : (i / 10) * 10,
                       QStringLiteral("Section %1 holds a sentence of some words about part %1.").arg(i));
        QElapsedTimer timer;
        timer.start();
        const DraftSource manySrc = draftSourceFromDocument(many);
        const QsDraft m = drafter.draft(manySrc, drafter.defaults);
        QVERIFY(m.ok);
        QVERIFY(int(m.items.size()) <= drafter.defaults.maxItems);
        qInfo("10,000 sections drafted in %lld ms", timer.elapsed());
        QVERIFY(timer.elapsed() < 60000);
    }

    // The bad inputs again, checked as a user would (qs check's measures): prose without sections
    // gets an item of its own sentences; Russian and Arabic text drafts with its own words;
    // Chinese text without spaces gives a clear message (words and sentences are found by spaces); table cells give supported
    // summaries; 10,000 sections ask no question twice.
    void badInputsGiveUsableDrafts()
    {
        const QsDrafter drafter = simpleDrafter();
        Document plain; // no sections: one implicit section
        plain.title = QStringLiteral("Notes");
        testing::addWords(plain, paragraph(QStringLiteral("printer"), 6));
        const DraftSource plainSrc = draftSourceFromDocument(plain);
        const QsDraft p = drafter.draft(plainSrc, drafter.defaults);
        QVERIFY2(p.ok, qPrintable(p.error));
        QVERIFY(!p.items.empty() && !p.rootSummary.isEmpty());
        DraftCheck c = checkDraft(plainSrc, p);
        QCOMPARE(c.supportedSentences, c.summarySentences);

        for (const QString &text : {QStringLiteral("Принтер печатает страницы быстро. Бумага лежит в нижнем лотке принтера. "
                                                   "Чернила меняют раз в месяц, когда принтер показывает сигнал. "
                                                   "Старые картриджи сдают в пункт приёма, чтобы их переработали."),
                                    QStringLiteral("تطبع الطابعة الصفحات بسرعة كبيرة. يوضع الورق في الدرج السفلي للطابعة. "
                                                   "يتم تغيير الحبر مرة كل شهر عندما تظهر الطابعة إشارة. "
                                                   "تعاد الخراطيش القديمة إلى مركز الجمع لإعادة تدويرها.")}) {
            Document d;
            testing::addSection(d, text.section(QLatin1Char(' '), 0, 0), -1, text);
            const DraftSource src = draftSourceFromDocument(d);
            const QsDraft g = drafter.draft(src, drafter.defaults);
            QVERIFY2(g.ok, qPrintable(g.error));
            QVERIFY(!g.items.empty());
            QVERIFY2(g.items.front().summary.contains(text.section(QLatin1Char(' '), 1, 1)), qPrintable(g.items.front().summary));
            c = checkDraft(src, g);
            QCOMPARE(c.supportedSentences, c.summarySentences);
        }

        Document zh; // Chinese: no spaces between words, sentences end with '。'
        testing::addSection(zh, QStringLiteral("打印机"), -1,
                   QStringLiteral("打印机打印页面很快。纸张放在打印机下面的纸盒里。墨水每个月更换一次。旧墨盒送到回收站回收。"
                                  "打印机每天早上自动清洁喷头。如果纸张卡住，请打开后盖取出纸张。"));
        const QsDraft z = drafter.draft(draftSourceFromDocument(zh), drafter.defaults);
        QVERIFY(!z.ok); // words are found by spaces: the message says why nothing was drafted
        QVERIFY2(z.error.contains(QLatin1String("not separated by spaces")), qPrintable(z.error));

        Document table; // cells only: numbers, codes, no sentence punctuation
        for (int r = 0; r < 300; ++r)
            testing::addWords(table, QStringLiteral("SKU-%1 %2 kg %3.50 EUR in stock").arg(r).arg(r % 7).arg(r % 13));
        const DraftSource tableSrc = draftSourceFromDocument(table);
        const QsDraft t = drafter.draft(tableSrc, drafter.defaults);
        QVERIFY2(t.ok, qPrintable(t.error));
        QVERIFY(!t.items.empty());
        c = checkDraft(tableSrc, t);
        QCOMPARE(c.supportedSentences, c.summarySentences);
        QCOMPARE(c.duplicateQuestions, 0);
        for (const DraftItem &i : t.items)
            QVERIFY(i.summary.split(QLatin1Char(' ')).size() <= drafter.defaults.summaryWords + 60);

        Document many;
        for (int i = 0; i < 10000; ++i)
            testing::addSection(many, QStringLiteral("Part %1").arg(i % 50), -1,
                       QStringLiteral("Part %1 holds a sentence of some words about topic %2 and its parts.").arg(i).arg(i % 50));
        const DraftSource manySrc = draftSourceFromDocument(many);
        const QsDraft m = drafter.draft(manySrc, drafter.defaults);
        QVERIFY2(m.ok, qPrintable(m.error));
        c = checkDraft(manySrc, m);
        QCOMPARE(c.duplicateQuestions, 0); // 50 titles repeated 200 times each
        QVERIFY(c.items <= drafter.defaults.maxItems);
    }

    void conversationsAskWhatSpeakersThought()
    {
        QmsumMeeting m;
        m.id = QStringLiteral("meeting");
        QsSectionText sec;
        sec.title = QStringLiteral("Remote control design");
        m.input.sections.push_back(sec);
        for (int i = 0; i < 20; ++i)
            m.turns << QStringLiteral("Marketing: um the remote control {disfmarker} should have rubber buttons number %1 .").arg(i)
                    << QStringLiteral("Project Manager: okay .");
        m.sectionSpans = {{{0, int(m.turns.size()) - 1}}};
        const DraftSource src = draftSourceFromMeeting(m);
        QVERIFY(src.conversation);
        const QsDrafter drafter = simpleDrafter();
        const QsDraft d = drafter.draft(src, drafter.defaults);
        QVERIFY(d.ok);
        QCOMPARE(int(d.items.size()), 2);
        QCOMPARE(d.items[0].question, QStringLiteral("Summarize the discussion about remote control design"));
        QCOMPARE(d.items[1].question, QStringLiteral("What did Marketing think about remote control design?"));
        QCOMPARE(d.items[1].depth, 1);
        QVERIFY(d.items[1].summary.startsWith(QLatin1String("Marketing: the remote control should have rubber buttons")));
        QVERIFY(!d.rootSummary.contains(QLatin1String("disfmarker")));
    }

    void drafterFileRoundTripAndRefusals()
    {
        QTemporaryDir dir;
        QsDrafter d = simpleDrafter();
        d.trainedOn = QStringLiteral("test");
        QString error;
        QVERIFY2(d.save(dir.path(), &error), qPrintable(error));
        QVERIFY(QsDrafter::isDrafterFolder(dir.path()));
        QsDrafter back;
        QVERIFY2(back.load(dir.path(), &error), qPrintable(error));
        QCOMPARE(back.salience.weights, d.salience.weights);
        QCOMPARE(back.questions.section.front().text, d.questions.section.front().text);
        QCOMPARE(back.trainedOn, QStringLiteral("test"));
        const QString path = dir.filePath(QsDrafter::fileName());
        const QList<QPair<QByteArray, QString>> bad{
            {"not json", QStringLiteral("not a Folio drafter file")},
            {R"({"kind":"folio-qs-drafter","salience":{"features":["bias"],"weights":[1]}})", QStringLiteral("salience needs")},
            {R"({"kind":"something-else"})", QStringLiteral("not a Folio drafter file")},
        };
        for (const auto &[bytes, message] : bad) {
            test::writeTestFile(dir, QsDrafter::fileName(), bytes);
            QsDrafter x;
            QVERIFY(!x.load(dir.path(), &error));
            QVERIFY2(error.contains(message) && error.contains(path), qPrintable(error));
        }
        // A template without {topic} is refused.
        QsDrafter noTopic = simpleDrafter();
        noTopic.questions.section = {{QStringLiteral("Why?"), 1}};
        QVERIFY(noTopic.save(dir.path(), &error));
        QsDrafter x;
        QVERIFY(!x.load(dir.path(), &error));
        QVERIFY2(error.contains(QLatin1String("{topic}")), qPrintable(error));
    }

    void learnsFromAProjectsReviewedItems()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("corrections.folio"));
        QString error;
        auto project = Project::create(path, &error);
        QVERIFY2(project, qPrintable(error));
        Document d = manual();
        d.sourcePath = QStringLiteral("manual.html");
        d.kind = SourceKind::Html;
        d.pages.push_back(Page{QSizeF(800, 1000), {}, 0});
        Annotations a;
        // Accepted items asked the user's way, with their section as evidence; one rejected item.
        auto item = [&](int section, const QString &question, const QString &summary, ReviewState state) {
            QsNode n;
            n.question = question;
            n.summary = summary;
            n.state = state;
            n.source = {AnnotationSource::Model, QStringLiteral("qs-drafter")};
            n.evidenceSections << qsSectionKey(d, section);
            a.qsRoots.push_back(n);
        };
        item(0, QStringLiteral("How do I set up installation?"), QStringLiteral("The installer setting controls the cache files."), ReviewState::Accepted);
        item(2, QStringLiteral("How do I set up cache options?"), QStringLiteral("The cache engine stores its files on disk."), ReviewState::Edited);
        item(3, QStringLiteral("Network?"), QStringLiteral("Nothing."), ReviewState::Rejected);
        QsNode unreviewed; // a suggestion nobody looked at teaches nothing
        unreviewed.question = QStringLiteral("What about notes?");
        unreviewed.state = ReviewState::Suggested;
        a.qsRoots.push_back(unreviewed);
        qsAssignIds(a.qsRoots);
        QVERIFY2(project->addDocument(d, a, &error) >= 0, qPrintable(error));
        project.reset();

        SalienceFitter fitter;
        QHash<QString, int> templates;
        CorrectionStats stats;
        QVERIFY2(addProjectCorrections(path, &fitter, &templates, &stats, &error), qPrintable(error));
        QCOMPARE(stats.documents, 1);
        QCOMPARE(stats.accepted, 2);
        QCOMPARE(stats.rejected, 1);
        QCOMPARE(templates.value(QStringLiteral("How do I set up {topic}?")), 2);
        QVERIFY(stats.sentences >= 15);
        const std::vector<double> prior = simpleDrafter().salience.weights;
        const SalienceFit strong = fitter.solve(1e9, prior), weak = fitter.solve(0.1, prior);
        for (std::size_t i = 0; i < prior.size(); ++i)
            QVERIFY(std::abs(strong.model.weights[i] - prior[i]) < 1e-6); // a huge penalty keeps the prior
        QVERIFY(weak.model.weights != prior);

        std::vector<QuestionTemplate> written = defaultWrittenTemplates();
        mergeTemplates(&written, templates, 2);
        QCOMPARE(written.front().text, QStringLiteral("How do I set up {topic}?"));
        QsDrafter taught = simpleDrafter();
        taught.questions.written = written;
        const QsDraft draft = taught.draft(draftSourceFromDocument(d), taught.defaults);
        QCOMPARE(draft.items.front().question, QStringLiteral("How do I set up installation?"));

        QVERIFY(!addProjectCorrections(dir.filePath(QStringLiteral("missing.folio")), &fitter, &templates, &stats, &error));
        QVERIFY(error.contains(QLatin1String("missing.folio")));
    }

    void salienceDataBeyondQmsum()
    {
        QTemporaryDir dir;
        // FairytaleQA: sections, questions tied to one or two of them.
        writeNested(dir, QStringLiteral("ftqa/data-by-train-split/section-stories/train/fox-story.csv"),
                            "section,text\n1,\"The fox lived in a deep wood. He was hungry every winter.\"\n"
                            "2,\"One day the fox met a crow with cheese. The crow sang and dropped the cheese.\"\n");
        writeNested(dir, QStringLiteral("ftqa/data-by-train-split/questions/train/fox-questions.csv"),
                            "question_id,cor_section,question,answer1,answer4\n"
                            "1,1,Where did the fox live?,in a deep wood,\n"
                            "2,\"1,2\",Why did the fox want the cheese?,he was hungry,\n"
                            "3,9,Which section is missing?,none,\n");
        const QString ftqa = dir.filePath(QStringLiteral("ftqa"));
        QVERIFY(looksLikeFairytaleQa(ftqa));
        QVERIFY(!looksLikeClSciSumm(ftqa));
        std::vector<ReferencedDocument> docs;
        QString error;
        QVERIFY2(readFairytaleQaDocuments(ftqa, QStringLiteral("train"), &docs, &error), qPrintable(error));
        QCOMPARE(int(docs.size()), 1);
        QCOMPARE(int(docs[0].source.sections.size()), 2);
        QCOMPARE(int(docs[0].source.sections[1].sentences.size()), 2);
        QCOMPARE(docs[0].questions[0], (QStringList{QStringLiteral("Where did the fox live?"), QStringLiteral("Why did the fox want the cheese?")}));
        QCOMPARE(docs[0].answers[1], QStringList{QStringLiteral("he was hungry")});
        QVERIFY(docs[0].references[0].contains(QLatin1String("deep wood")));
        QVERIFY(!readFairytaleQaDocuments(ftqa, QStringLiteral("test"), &docs, &error));
        QVERIFY2(error.contains(QLatin1String("questions/test")), qPrintable(error));

        // CL-SciSumm: <ABSTRACT> and <SECTION>s, the human summary; one without a summary, one broken.
        writeNested(dir, QStringLiteral("sci/P1/Reference_XML/P1.xml"),
                            "<PAPER><S sid=\"0\">A title line.</S><ABSTRACT><S sid=\"1\">We parse trees fast.</S></ABSTRACT>"
                            "<SECTION title=\"Introduction. \" number=\"1\"><S sid=\"2\">Parsing is slow &amp; costly.</S>"
                            "<S sid=\"3\">Our parser uses a chart.</S></SECTION></PAPER>");
        writeNested(dir, QStringLiteral("sci/P1/summary/P1.human.txt"), "A fast chart parser for trees.");
        writeNested(dir, QStringLiteral("sci/P1/summary/P1.abstract.txt"), "We parse trees fast.");
        writeNested(dir, QStringLiteral("sci/P2/Reference_XML/P2.xml"), "<PAPER><S>No summary here.</S></PAPER>");
        writeNested(dir, QStringLiteral("sci/P2/summary/P2.abstract.txt"), "Abstract only.");
        writeNested(dir, QStringLiteral("sci/P3/Reference_XML/P3.xml"), "<PAPER><S>Broken & unescaped</PAPER>");
        writeNested(dir, QStringLiteral("sci/P3/summary/P3.scisummnet_human.txt"), "A summary.");
        const QString sci = dir.filePath(QStringLiteral("sci"));
        QVERIFY(looksLikeClSciSumm(sci));
        docs.clear();
        int skipped = 0;
        QVERIFY2(readClSciSummDocuments(sci, &docs, &error, -1, &skipped), qPrintable(error));
        QCOMPARE(int(docs.size()), 1);
        QCOMPARE(skipped, 2);
        const DraftSource &paper = docs[0].source;
        QCOMPARE(int(paper.sections.size()), 3); // the title line, Abstract, Introduction
        QCOMPARE(paper.sections[1].title, QStringLiteral("Abstract"));
        QCOMPARE(paper.sections[2].title, QStringLiteral("Introduction"));
        QCOMPARE(paper.sections[2].sentences[0].text, QStringLiteral("Parsing is slow & costly."));
        QCOMPARE(docs[0].references[2], QStringLiteral("A fast chart parser for trees."));
        QVERIFY(!readClSciSummDocuments(dir.filePath(QStringLiteral("ftqa")), &docs, &error));
        QVERIFY2(error.contains(QLatin1String("Reference_XML")), qPrintable(error));

        // Fitting: sections without a reference teach nothing; merging with weight w counts each example w times.
        SalienceFitter a, b, twice;
        a.addDocument(paper, docs[0].references);
        QCOMPARE(a.sentences(), 4L);
        b.addDocument(paper, std::vector<QString>{QString(), QString(), docs[0].references[2]});
        QCOMPARE(b.sentences(), 2L);
        twice.addDocument(paper, docs[0].references);
        twice.addDocument(paper, docs[0].references);
        SalienceFitter merged;
        merged.merge(a, 2.0);
        QCOMPARE(merged.totalWeight(), 8.0);
        const SalienceFit m = merged.solve(0.1), t = twice.solve(0.1);
        for (std::size_t i = 0; i < m.model.weights.size(); ++i)
            QVERIFY(std::abs(m.model.weights[i] - t.model.weights[i]) < 1e-9);
        QCOMPARE(m.meanTarget, t.meanTarget);
    }

    void readsTheSharedSalienceData()
    {
        const QString ftqa = test::sharedPath(QStringLiteral("data/fairytaleqa")), sci = test::sharedPath(QStringLiteral("data/cl-scisumm"));
        FOLIO_REQUIRE_DATA(ftqa);
        FOLIO_REQUIRE_DATA(sci);
        std::vector<ReferencedDocument> stories, papers;
        QString error;
        QVERIFY2(readFairytaleQaDocuments(ftqa, QStringLiteral("val"), &stories, &error, 3), qPrintable(error));
        QCOMPARE(int(stories.size()), 3);
        int withQuestions = 0;
        for (const QStringList &q : stories[0].questions)
            withQuestions += q.isEmpty() ? 0 : 1;
        QVERIFY(withQuestions >= 2);
        int skipped = 0;
        QVERIFY2(readClSciSummDocuments(sci, &papers, &error, 5, &skipped), qPrintable(error));
        QCOMPARE(int(papers.size()), 5);
        QVERIFY(papers[0].source.sections.size() >= 1);
        SalienceFitter f;
        for (const ReferencedDocument &d : stories)
            f.addDocument(d.source, d.references);
        for (const ReferencedDocument &d : papers)
            f.addDocument(d.source, d.references);
        const SalienceFit fit = f.solve(1.0);
        QVERIFY(fit.model.isValid());
        QVERIFY(fit.sentences > 500);
        QVERIFY(fit.meanTarget > 0.05 && fit.meanTarget < 0.9);
    }

    void fitsAndMinesOnQmsumTrain()
    {
        const QString data = test::sharedPath(QStringLiteral("data/qmsum"));
        FOLIO_REQUIRE_DATA(data);
        std::vector<QmsumMeeting> train;
        QString error;
        QVERIFY2(readQmsumSplit(data, QStringLiteral("train"), &train, &error, 12), qPrintable(error));
        const SalienceFit fit = fitSalience(train, 1.0);
        QVERIFY(fit.model.isValid());
        QVERIFY(fit.sentences > 1000);
        QVERIFY(fit.model.weights[3] > 0.0); // closeness to the section predicts summary words
        const QuestionTemplates t = mineQuestionTemplates(train, 2);
        QVERIFY(!t.section.empty());
        QVERIFY(t.section.front().text.contains(QLatin1String("{topic}")));
        QVERIFY(t.questionsMatched > 0 && t.questionsMatched <= t.questionsSeen);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestQsDrafter)
#include "tst_qsdrafter.moc"
