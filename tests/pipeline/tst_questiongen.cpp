// Answer-aware question generation (issue 31): the CSV reader and FairytaleQA examples (fixtures
// written here), the answer [sep] evidence source, key terms, a tiny copy model trained on two
// examples and driven through QuestionGenerator (empty evidence too), and the drafter's
// questionWriter (used when it gives a new question, templates otherwise, never a duplicate).
#include "inference/models/modelrunner.h"
#include "inference/qs/qstrain.h"
#include "inference/tokenizers/tokenizer.h"
#include "pipeline/qs/draft/drafter.h"
#include "pipeline/qs/draft/questiondata.h"
#include "pipeline/qs/draft/questiongen.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace folio::pipeline;

namespace {

void writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qFatal("cannot write %s", qPrintable(path));
    f.write(bytes);
}

QString spmPath()
{
    return QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/qmsum-qs/spm.model");
}

QsInput threeSections()
{
    QsInput in;
    const char *topics[] = {"Battery life", "Remote control buttons", "Project budget"};
    const char *texts[] = {
        "The battery lasts two weeks in the current design. Engineers measured the battery drain of the remote. "
        "A larger battery would raise the weight. The team prefers a rechargeable battery with a docking station. "
        "Solar cells were rejected because the battery would still be needed indoors.",
        "The remote control needs fewer buttons. Users lose the remote control under the sofa. A scroll wheel "
        "replaces the volume buttons. The power button stays at the top. The designers drew three layouts for "
        "the buttons and chose the simplest one.",
        "The budget allows twelve euros per unit. The case costs four euros and the chip three. Marketing asks for "
        "a fruity colour that costs nothing extra. The budget leaves no room for a screen. Production starts in "
        "spring if the budget holds."};
    for (int i = 0; i < 3; ++i) {
        QsSectionText s;
        s.title = QString::fromLatin1(topics[i]);
        s.paragraphs << QString::fromLatin1(texts[i]);
        in.sections.push_back(s);
    }
    return in;
}

} // namespace

class TestQuestionGen : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void csvQuotesNewlinesAndErrors()
    {
        const QString p = m_dir.filePath(QStringLiteral("a.csv"));
        writeFile(p, "a,b,c\r\n1,\"x, \"\"y\"\"\nz\",\n2,,last");
        std::vector<QStringList> rows;
        QString error;
        QVERIFY2(parseCsv(p, &rows, &error), qPrintable(error));
        QCOMPARE(int(rows.size()), 3);
        QCOMPARE(rows[1], QStringList({"1", "x, \"y\"\nz", ""}));
        QCOMPARE(rows[2], QStringList({"2", "", "last"}));
        writeFile(p, "a,b\n1,\"open");
        QVERIFY(!parseCsv(p, &rows, &error));
        QVERIFY2(error.contains(QStringLiteral("a.csv")) && error.contains(QStringLiteral("unterminated")), qPrintable(error));
        QVERIFY(!parseCsv(m_dir.filePath(QStringLiteral("missing.csv")), &rows, &error));
    }

    void fairytaleQaExamples()
    {
        const QString root = m_dir.filePath(QStringLiteral("ftqa/data-by-train-split"));
        writeFile(root + QStringLiteral("/section-stories/test/fox-story.csv"),
                  "section,text\n1,\"The fox lived in a hole. The fox loved grapes.\"\n2,The crow sang on a branch. It dropped the cheese.\n");
        writeFile(root + QStringLiteral("/questions/test/fox-questions.csv"),
                  "question_id,cor_section,question,answer1\n"
                  "1,1,What did the fox love?,grapes\n"
                  "2,\"1,2\",What did the crow drop?,the cheese\n"
                  "3,9,Where is section nine?,nowhere\n"
                  "4,2,,no question\n");
        std::vector<QuestionExample> ex;
        QString error;
        QVERIFY2(readFairytaleQaExamples(m_dir.filePath(QStringLiteral("ftqa")), QStringLiteral("test"), &ex, &error), qPrintable(error));
        QCOMPARE(int(ex.size()), 2); // the missing section and the empty question are skipped
        QCOMPARE(ex[0].question, QStringLiteral("What did the fox love?"));
        QCOMPARE(ex[0].evidence.first(), QStringLiteral("The fox loved grapes.")); // the answer's sentence first
        QCOMPARE(ex[1].evidence.size(), 4);                                        // both sections
        QCOMPARE(ex[1].evidence.first(), QStringLiteral("It dropped the cheese."));
        QVERIFY(!readFairytaleQaExamples(m_dir.filePath(QStringLiteral("ftqa")), QStringLiteral("val"), &ex, &error));
        QVERIFY(error.contains(QStringLiteral("questions")));
        writeFile(root + QStringLiteral("/questions/train/fox-questions.csv"), "question_id,question\n1,Why?\n");
        writeFile(root + QStringLiteral("/section-stories/train/fox-story.csv"), "section,text\n1,x\n");
        QVERIFY(!readFairytaleQaExamples(root, QStringLiteral("train"), &ex, &error));
        QVERIFY2(error.contains(QStringLiteral("no column")) && error.contains(QStringLiteral("fox-questions.csv")), qPrintable(error));
    }

    void sourceLayout()
    {
        FOLIO_REQUIRE_DATA(spmPath()); // shipped with the checkout: missing fails under CI
        const QsVocabulary v = folioQsVocabulary(folio::inference::makeSentencePieceTokenizer(spmPath().toStdString()));
        QVERIFY(questionSource(v, QString(), {}, 64).empty());
        QVERIFY(questionSource(v, QStringLiteral("   "), {QStringLiteral(" ")}, 64).empty());
        const auto answerOnly = questionSource(v, QStringLiteral("the battery"), {}, 64);
        QVERIFY(answerOnly.size() > 2);
        QCOMPARE(answerOnly.front(), v.markers.bos);
        QCOMPARE(answerOnly.back(), v.markers.eos);
        QVERIFY(std::find(answerOnly.begin(), answerOnly.end(), v.markers.paragraphSeparator) == answerOnly.end());
        const QString longText = QStringLiteral("battery ").repeated(200);
        const auto full = questionSource(v, longText, {longText, longText}, 64);
        QVERIFY(full.size() <= 64);
        const auto sep = std::find(full.begin(), full.end(), v.markers.paragraphSeparator);
        QVERIFY(sep != full.end());
        QVERIFY(sep - full.begin() <= 1 + 62 / 3); // the answer keeps at most a third
        QCOMPARE(full.back(), v.markers.eos);
    }

    void keyTerms()
    {
        QCOMPARE(questionKeyTerms(QStringLiteral("What did the group discuss about the battery?")), QSet<QString>({"battery"}));
        QVERIFY(questionGrounded(QStringLiteral("Why did the fox love grapes?"), QStringLiteral("The fox loved grapes. fox love")));
        QVERIFY(!questionGrounded(QStringLiteral("Why did the wolf howl?"), QStringLiteral("The fox loved grapes.")));
    }

    void tinyGeneratorThroughTheFacade()
    {
        FOLIO_REQUIRE_DATA(spmPath()); // shipped with the checkout: missing fails under CI
        folio::inference::configureThreads(1);
        const QsVocabulary v = folioQsVocabulary(folio::inference::makeSentencePieceTokenizer(spmPath().toStdString()));
        const std::vector<QuestionExample> pairs = {
            {QStringLiteral("What about the battery?"), QStringLiteral("two weeks"), {QStringLiteral("The battery lasts two weeks.")}},
            {QStringLiteral("What about the budget?"), QStringLiteral("twelve euros"), {QStringLiteral("The budget is twelve euros.")}}};
        std::vector<folio::inference::QsTrainExample> ex;
        for (const auto &p : pairs)
            ex.push_back({questionSource(v, p.answer, p.evidence, 48), encodeQsText(v, p.question), {}, {}});
        folio::inference::QsTrainOptions o;
        const QString dir = m_dir.filePath(QStringLiteral("qg"));
        o.outDir = dir.toStdString();
        o.size = {32, 1, 1, 2, 64, int(v.markers.paragraphSeparator) + 1, 48, 16, int(v.pad), int(v.markers.bos),
                  int(v.markers.eos), int(v.markers.eos)};
        o.epochs = 80;
        o.batch = 2;
        o.lr = 1e-2;
        o.copy = true;
        nlohmann::json extra = folioQsConfig(v);
        extra["folio_questions"] = {{"max_source", 48}};
        o.extraConfigJson = extra.dump();
        o.copyFiles = {spmPath().toStdString()};
        const auto r = folio::inference::trainQsModel(ex, ex, o);
        QVERIFY2(r.ok, r.error.c_str());

        QuestionGenerator g;
        QString error;
        QVERIFY2(g.load(dir, &error), qPrintable(error));
        QVERIFY(g.hasCopyHead());
        g.settings.numBeams = 1;
        g.settings.minLength = 0;
        g.settings.noRepeatNgramSize = 0;
        for (const auto &p : pairs)
            QCOMPARE(g.generate(p.answer, p.evidence, &error), p.question);
        // Empty evidence: the answer alone is a source; nothing at all is refused with a reason.
        error.clear();
        (void)g.generate(QStringLiteral("two weeks"), {}, &error);
        QVERIFY(g.generate(QString(), {}, &error).isEmpty());
        QVERIFY2(error.contains(QStringLiteral("no answer")), qPrintable(error));

        // A folder that is a seq2seq but not a question generator.
        QuestionGenerator other;
        QVERIFY(!other.load(QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/qmsum-qs"), &error));
        QVERIFY2(error.contains(QStringLiteral("folio_questions")), qPrintable(error));
        QVERIFY(other.generate(QStringLiteral("x"), {}, &error).isEmpty());
    }

    void drafterUsesTheWriterWithoutDuplicates()
    {
        QsDrafter drafter;
        QString error;
        QVERIFY2(drafter.load(QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/qs-drafter"), &error), qPrintable(error));
        const DraftSource src = draftSourceFromInput(threeSections());
        DraftOptions opt = drafter.defaults;
        opt.minSectionWords = 10;
        const QsDraft templ = drafter.draft(src, opt);
        QVERIFY(templ.ok);
        QCOMPARE(int(templ.items.size()), 3);

        QStringList evidenceSeen;
        drafter.questionWriter = [&](const QString &answer, const QStringList &evidence) {
            evidenceSeen << evidence.first();
            if (evidence.first().contains(QStringLiteral("budget"), Qt::CaseInsensitive))
                return QString(); // nothing: the template is used
            return QStringLiteral("What is decided?"); // the same question twice: the second falls back
        };
        const QsDraft neural = drafter.draft(src, opt);
        QVERIFY(neural.ok);
        QCOMPARE(int(neural.items.size()), 3);
        QCOMPARE(neural.items[0].question, QStringLiteral("What is decided?"));
        QVERIFY(neural.items[0].questionFromWriter && !neural.items[1].questionFromWriter && !neural.items[2].questionFromWriter);
        QCOMPARE(neural.items[1].question, templ.items[1].question);
        QCOMPARE(neural.items[2].question, templ.items[2].question);
        QCOMPARE(evidenceSeen.size(), 3);
        QVERIFY(evidenceSeen[0].contains(QStringLiteral("Battery"), Qt::CaseInsensitive)); // the section title first
        QSet<QString> questions;
        for (const DraftItem &i : neural.items)
            questions.insert(i.question.toLower());
        QCOMPARE(int(questions.size()), 3);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestQuestionGen)
#include "tst_questiongen.moc"
