// folio-cli qs generate as scripts use it: the shipped QMSum model on the bundled product page
// (HTML headings as sections) gives a well-formed, non-empty hierarchy; refusals name the file.
// Without --checkpoint the shipped drafter answers, with evidence per item and its checks;
// qs train-drafter writes a drafter folder that generate and check then use.
#include "clirunner.h"
#include "tests/common/testdata.h"
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

static const QString kModel = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/qmsum-qs");
static const QString kPage = QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/product-page.html");

class TestCliQs : public QObject
{
    Q_OBJECT

    using Run = folio::test::CliRun;

    static Run cli(const QStringList &args)
    {
        return folio::test::runCli(QStringList{QStringLiteral("-q")} + args, 300000, QProcessEnvironment::systemEnvironment());
    }

    // Every node has a question, a summary and children that are nodes; returns the node count.
    static int checkNodes(const QJsonArray &nodes, int depth)
    {
        int n = 0;
        for (const QJsonValue &v : nodes) {
            const QJsonObject o = v.toObject();
            if (!o.value("question").isString() || !o.value("summary").isString() || !o.value("children").isArray()) {
                qWarning() << "malformed node at depth" << depth << o;
                return -1000;
            }
            n += 1 + checkNodes(o.value("children").toArray(), depth + 1);
        }
        return n;
    }

    QTemporaryDir m_dir;

private Q_SLOTS:
    void generatesOnTheSamplePage()
    {
        const Run r = cli({QStringLiteral("qs"), QStringLiteral("generate"), QStringLiteral("--checkpoint"), kModel, kPage,
                           QStringLiteral("--beams"), QStringLiteral("2"), QStringLiteral("--max-length"), QStringLiteral("96")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QVERIFY2(o.value("hierarchy").isArray() && o.value("summary").isString(), r.out.constData());
        QVERIFY2(o.value("sections").toInt() >= 4, r.out.constData()); // h1 + Description, Specifications, Reviews, ...
        QVERIFY(o.value("repairs").isArray());
        QVERIFY(o.value("warnings").isArray());
        const QString linearised = o.value("linearised").toString();
        QVERIFY2(linearised.split(' ', Qt::SkipEmptyParts).size() >= 5, r.out.constData());
        const int nodes = checkNodes(o.value("hierarchy").toArray(), 1);
        QVERIFY2(nodes >= 0, r.out.constData());
        QVERIFY2(!o.value("summary").toString().isEmpty() || nodes > 0, r.out.constData());
        // The tree is the parse of the linearised text: every node's question text appears in it.
        for (const QJsonValue &v : o.value("hierarchy").toArray()) {
            const QString q = v.toObject().value("question").toString();
            QVERIFY2(linearised.contains(q.left(q.size() - 1).trimmed()), qPrintable(q));
        }
    }

    void draftsWithTheShippedDrafterByDefault()
    {
        const Run r = cli({QStringLiteral("qs"), QStringLiteral("generate"), kPage});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value("generator").toString(), QStringLiteral("folio-qs-drafter"));
        QVERIFY2(!o.value("summary").toString().isEmpty(), r.out.constData());
        const QJsonArray items = o.value("hierarchy").toArray();
        QVERIFY2(checkNodes(items, 1) >= 1, r.out.constData()); // its sections are short: items for those with 50 words
        for (const QJsonValue &v : items) {
            const QJsonArray sentences = v.toObject().value("evidence").toObject().value("sentences").toArray();
            QVERIFY2(!sentences.isEmpty(), r.out.constData());
            QVERIFY(sentences.first().toObject().value("words").toArray().size() == 2);
            QVERIFY(v.toObject().value("summary").toString().contains(sentences.first().toObject().value("text").toString()));
        }
        const QJsonObject checks = o.value("checks").toObject();
        QCOMPARE(checks.value("duplicate_questions").toInt(), 0);
        QCOMPARE(checks.value("supported_sentences").toInt(), checks.value("summary_sentences").toInt());
        QCOMPARE(checks.value("top_level_covered").toInt(), checks.value("top_level_with_content").toInt());

        const Run limited = cli({QStringLiteral("qs"), QStringLiteral("generate"), kPage, QStringLiteral("--max-items"), QStringLiteral("1")});
        QVERIFY2(limited.code == 0, limited.err.constData());
        QCOMPARE(checkNodes(QJsonDocument::fromJson(limited.out).object().value("hierarchy").toArray(), 1), 1);
        const Run check = cli({QStringLiteral("qs"), QStringLiteral("check"), kPage});
        QVERIFY2(check.code == 0, check.err.constData());
        QCOMPARE(QJsonDocument::fromJson(check.out).object().value("documents").toArray().size(), 1);
    }

    void trainsADrafterOnMeetings()
    {
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("drafterdata/train")));
        for (int k = 0; k < 3; ++k) {
            QFile f(m_dir.filePath(QStringLiteral("drafterdata/train/m%1.json").arg(k)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(R"({"meeting_transcripts": [{"speaker": "A", "content": "The budget grew a lot this year. We agreed on the budget."},
                                              {"speaker": "B", "content": "The remote needs a new case. The case is blue and made of rubber."}],
                       "topic_list": [{"topic": "Budget", "relevant_text_span": [["0", "0"]]},
                                      {"topic": "Remote case", "relevant_text_span": [["1", "1"]]}],
                       "general_query_list": [{"query": "Summarize", "answer": "The budget grew and the remote case is blue."}],
                       "specific_query_list": [{"query": "Summarize the discussion about remote case", "answer": "The case is blue rubber.",
                                                "relevant_text_span": [["1", "1"]]}]})");
        }
        const QString out = m_dir.filePath(QStringLiteral("my-drafter"));
        Run r = cli({QStringLiteral("qs"), QStringLiteral("train-drafter"), QStringLiteral("--data"), m_dir.filePath(QStringLiteral("drafterdata")),
                     QStringLiteral("--out"), out, QStringLiteral("--min-template-count"), QStringLiteral("2")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value("meetings").toInt(), 3);
        QCOMPARE(o.value("section_templates").toInt(), 1);
        QVERIFY(QFile::exists(out + QStringLiteral("/drafter.json")));
        r = cli({QStringLiteral("qs"), QStringLiteral("generate"), QStringLiteral("--checkpoint"), out,
                 m_dir.filePath(QStringLiteral("drafterdata/train/m0.json"))});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonArray items = QJsonDocument::fromJson(r.out).object().value("hierarchy").toArray();
        QVERIFY2(!items.isEmpty(), r.out.constData());
        QVERIFY2(items.first().toObject().value("question").toString().startsWith(QLatin1String("Summarize the discussion about")), r.out.constData());
        r = cli({QStringLiteral("qs"), QStringLiteral("train-drafter"), QStringLiteral("--data"), m_dir.filePath(QStringLiteral("nothing")),
                 QStringLiteral("--out"), out});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("nothing"), r.err.constData());
    }

    // Training on FairytaleQA-shaped stories beside QMSum meetings (train split only), and qs eval on
    // the stories' val split: section summaries and questions scored beside the lead baseline.
    void trainsAndScoresOnSectionedStories()
    {
        const QDir root(m_dir.path());
        for (const char *split : {"train", "val"}) {
            QVERIFY(root.mkpath(QStringLiteral("stories/data-by-train-split/section-stories/%1").arg(QLatin1String(split))));
            QVERIFY(root.mkpath(QStringLiteral("stories/data-by-train-split/questions/%1").arg(QLatin1String(split))));
            for (int k = 0; k < 2; ++k) {
                QFile story(m_dir.filePath(QStringLiteral("stories/data-by-train-split/section-stories/%1/s%2-story.csv").arg(QLatin1String(split)).arg(k)));
                QVERIFY(story.open(QIODevice::WriteOnly));
                QByteArray text = "section,text\n";
                const QList<QByteArray> places{"river", "castle", "forest"}, things{"bread", "lamp", "basket"};
                for (int sec = 1; sec <= 3; ++sec) {
                    text += QByteArray::number(sec) + ",\"";
                    for (int i = 0; i < 6; ++i)
                        text += "The miller walked to the " + places[sec - 1] + " with a " + things[(sec + i) % 3] + " and a small grey dog. ";
                    text += "\"\n";
                }
                story.write(text);
                QFile q(m_dir.filePath(QStringLiteral("stories/data-by-train-split/questions/%1/s%2-questions.csv").arg(QLatin1String(split)).arg(k)));
                QVERIFY(q.open(QIODevice::WriteOnly));
                q.write("question,answer1,cor_section\nWhere did the miller walk?,to the river,1\nWhat did the miller carry?,bread,\"2,3\"\n");
            }
        }
        const QString ftqa = m_dir.filePath(QStringLiteral("stories")), out = m_dir.filePath(QStringLiteral("story-drafter"));
        Run r = cli({QStringLiteral("qs"), QStringLiteral("train-drafter"), QStringLiteral("--data"), ftqa, QStringLiteral("--within-section"),
                     QStringLiteral("--balance"), QStringLiteral("--out"), out});
        QVERIFY2(r.code == 0, r.err.constData());
        QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonObject source = o.value("sources").toArray().first().toObject();
        QCOMPARE(source.value("kind").toString(), QStringLiteral("FairytaleQA train"));
        QCOMPARE(source.value("documents").toInt(), 2);
        QVERIFY(o.value("within_section").toBool());
        QVERIFY2(o.value("section_templates").toInt() > 0, r.out.constData()); // no QMSum: the shipped drafter's templates

        r = cli({QStringLiteral("qs"), QStringLiteral("eval"), QStringLiteral("--data"), ftqa, QStringLiteral("--split"), QStringLiteral("val"),
                 QStringLiteral("--drafter"), out});
        QVERIFY2(r.code == 0, r.err.constData());
        o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value("stories").toInt(), 2);
        QCOMPARE(o.value("sections_with_questions").toInt(), 6);
        const QJsonObject lead = o.value("lead").toObject(), drafted = o.value("drafter").toObject();
        QVERIFY2(lead.value("rouge1").toDouble() > 0 && drafted.value("rouge1").toDouble() > 0, r.out.constData());
        QCOMPARE(drafted.value("items").toInt(), 6);
        QCOMPARE(drafted.value("duplicate_questions").toInt(), 0);
        QCOMPARE(drafted.value("supported_sentences").toInt(), drafted.value("summary_sentences").toInt());

        // A project and a data folder are not mixed; a story folder without the split is named.
        r = cli({QStringLiteral("qs"), QStringLiteral("train-drafter"), QStringLiteral("--data"), ftqa, QStringLiteral("--data"),
                 m_dir.filePath(QStringLiteral("x.folio")), QStringLiteral("--out"), out});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("trained on alone"), r.err.constData());
        r = cli({QStringLiteral("qs"), QStringLiteral("eval"), QStringLiteral("--data"), ftqa, QStringLiteral("--split"), QStringLiteral("test")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("questions/test"), r.err.constData());
    }

    void evalBaselinesWithoutAModel()
    {
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("qmsum/test")));
        QFile f(m_dir.filePath(QStringLiteral("qmsum/test/m.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"meeting_transcripts": [{"speaker": "A", "content": "The budget grew. We agreed on it."},
                                          {"speaker": "B", "content": "The remote needs a new case. It is blue."}],
                   "topic_list": [{"topic": "Budget", "relevant_text_span": [["0", "0"]]},
                                  {"topic": "Remote case", "relevant_text_span": [["1", "1"]]}],
                   "general_query_list": [{"query": "Summarize", "answer": "The budget grew and the remote case is blue."}],
                   "specific_query_list": [{"query": "What about the case?", "answer": "It is blue.",
                                            "relevant_text_span": [["1", "1"]]}]})");
        f.close();
        Run r = cli({QStringLiteral("qs"), QStringLiteral("eval"), QStringLiteral("--data"), m_dir.filePath(QStringLiteral("qmsum")),
                     QStringLiteral("--split"), QStringLiteral("test")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value("meetings").toInt(), 1);
        QVERIFY(!o.contains("model"));
        // The oracle's one item copies the evidence's first sentence: the answer's words are there.
        QVERIFY2(o.value("oracle_shape").toObject().value("rouge1").toDouble() > 40, r.out.constData());
        QVERIFY2(o.value("lead").toObject().value("hierarchy_f1").toDouble() >= 0, r.out.constData());

        r = cli({QStringLiteral("qs"), QStringLiteral("eval"), QStringLiteral("--data"), m_dir.filePath(QStringLiteral("qmsum")),
                 QStringLiteral("--split"), QStringLiteral("val")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("no 'val' split"), r.err.constData());
    }

    // qs train --hibrids encoder on a one-meeting QMSum folder (the shipped vocabulary): the result
    // names the variant and seed, and qs eval scores the checkpoint (the HIBRIDS layout built as in training).
    void trainsWithHibridsAndEvaluates()
    {
        const QByteArray meeting = R"({"meeting_transcripts": [{"speaker": "A", "content": "The budget grew. We agreed on it."},
                                          {"speaker": "B", "content": "The remote needs a new case. It is blue."}],
                   "topic_list": [{"topic": "Budget", "relevant_text_span": [["0", "0"]]},
                                  {"topic": "Remote case", "relevant_text_span": [["1", "1"]]}],
                   "general_query_list": [{"query": "Summarize", "answer": "The budget grew and the remote case is blue."}],
                   "specific_query_list": [{"query": "What about the case?", "answer": "It is blue.",
                                            "relevant_text_span": [["1", "1"]]}]})";
        for (const char *split : {"train", "val", "test"}) {
            QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("hibrids/%1").arg(QLatin1String(split))));
            QFile f(m_dir.filePath(QStringLiteral("hibrids/%1/m.json").arg(QLatin1String(split))));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(meeting);
        }
        const QString data = m_dir.filePath(QStringLiteral("hibrids")), out = m_dir.filePath(QStringLiteral("hibrids-model"));
        const QStringList train = {QStringLiteral("qs"), QStringLiteral("train"), QStringLiteral("--data"), data,
                                   QStringLiteral("--out"), out, QStringLiteral("--epochs"), QStringLiteral("1"),
                                   QStringLiteral("--d-model"), QStringLiteral("16"), QStringLiteral("--layers"), QStringLiteral("2"),
                                   QStringLiteral("--heads"), QStringLiteral("2"), QStringLiteral("--ffn"), QStringLiteral("32"),
                                   QStringLiteral("--max-source"), QStringLiteral("64"), QStringLiteral("--max-target"), QStringLiteral("32"),
                                   QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--vocab"), kModel + QStringLiteral("/spm.model"),
                                   QStringLiteral("--seed"), QStringLiteral("3")};
        Run r = cli(train + QStringList{QStringLiteral("--hibrids"), QStringLiteral("encoder")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject t = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(t.value("hibrids").toString(), QStringLiteral("encoder"));
        QCOMPARE(t.value("seed").toInt(), 3);
        QCOMPARE(t.value("train_examples").toInt(), 2); // the meeting and its one query with evidence
        r = cli({QStringLiteral("qs"), QStringLiteral("eval"), QStringLiteral("--checkpoint"), out, QStringLiteral("--data"), data,
                 QStringLiteral("--split"), QStringLiteral("test"), QStringLiteral("--no-drafter"), QStringLiteral("--max-length"),
                 QStringLiteral("8"), QStringLiteral("--beams"), QStringLiteral("1")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(QJsonDocument::fromJson(r.out).object().value("model").toObject().contains("rouge1"), r.out.constData());

        r = cli(train + QStringList{QStringLiteral("--hibrids"), QStringLiteral("sideways")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--hibrids"), r.err.constData());
    }

    // Answer-aware questions (issue 31): --questions neural with the shipped generator, a tiny
    // train-questions / eval-questions round on a FairytaleQA-shaped fixture, and the refusals.
    void neuralQuestions()
    {
        Run r = cli({QStringLiteral("qs"), QStringLiteral("generate"), kPage, QStringLiteral("--questions"), QStringLiteral("neural")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QVERIFY2(checkNodes(o.value("hierarchy").toArray(), 1) >= 1, r.out.constData());
        QCOMPARE(o.value("checks").toObject().value("duplicate_questions").toInt(), 0);
        r = cli({QStringLiteral("qs"), QStringLiteral("generate"), kPage, QStringLiteral("--questions"), QStringLiteral("neural"),
                 QStringLiteral("--question-model"), kModel});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("folio_questions"), r.err.constData());
        r = cli({QStringLiteral("qs"), QStringLiteral("generate"), kPage, QStringLiteral("--questions"), QStringLiteral("sideways")});
        QCOMPARE(r.code, 2);

        const QString root = m_dir.filePath(QStringLiteral("ftqa/data-by-train-split"));
        for (const QString split : {QStringLiteral("train"), QStringLiteral("val")}) {
            QVERIFY(QDir().mkpath(root + QStringLiteral("/section-stories/") + split));
            QVERIFY(QDir().mkpath(root + QStringLiteral("/questions/") + split));
            QFile story(root + QStringLiteral("/section-stories/") + split + QStringLiteral("/fox-story.csv"));
            QVERIFY(story.open(QIODevice::WriteOnly));
            story.write("section,text\n1,The fox lived in a hole. The fox loved grapes.\n2,The crow sang. It dropped the cheese.\n");
            QFile q(root + QStringLiteral("/questions/") + split + QStringLiteral("/fox-questions.csv"));
            QVERIFY(q.open(QIODevice::WriteOnly));
            q.write("question_id,cor_section,question,answer1\n1,1,What did the fox love?,grapes\n2,2,What did the crow drop?,the cheese\n");
        }
        const QString out = m_dir.filePath(QStringLiteral("qg"));
        r = cli({QStringLiteral("qs"), QStringLiteral("train-questions"), QStringLiteral("--fairytaleqa"), m_dir.filePath(QStringLiteral("ftqa")),
                 QStringLiteral("--qmsum"), QString(), QStringLiteral("--out"), out, QStringLiteral("--copy"), QStringLiteral("--vocab"),
                 kModel + QStringLiteral("/spm.model"), QStringLiteral("--d-model"), QStringLiteral("16"), QStringLiteral("--layers"),
                 QStringLiteral("1"), QStringLiteral("--heads"), QStringLiteral("2"), QStringLiteral("--ffn"), QStringLiteral("32"),
                 QStringLiteral("--max-source"), QStringLiteral("32"), QStringLiteral("--max-target"), QStringLiteral("16"),
                 QStringLiteral("--epochs"), QStringLiteral("2"), QStringLiteral("--batch"), QStringLiteral("2")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(QJsonDocument::fromJson(r.out).object().value("copy_head").toBool());
        r = cli({QStringLiteral("qs"), QStringLiteral("eval-questions"), QStringLiteral("--fairytaleqa"), m_dir.filePath(QStringLiteral("ftqa")),
                 QStringLiteral("--qmsum"), QString(), QStringLiteral("--checkpoint"), out, QStringLiteral("--split"), QStringLiteral("val")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject e = QJsonDocument::fromJson(r.out).object().value("fairytaleqa").toObject();
        QCOMPARE(e.value("examples").toInt(), 2);
        QCOMPARE(e.value("templates").toObject().value("key_terms_in_evidence").toDouble(), 100.0);
        QVERIFY2(e.value(out).toObject().value("copy_head").toBool(), r.out.constData());
        r = cli({QStringLiteral("qs"), QStringLiteral("train-questions"), QStringLiteral("--fairytaleqa"),
                 m_dir.filePath(QStringLiteral("no-ftqa")), QStringLiteral("--qmsum"), QString(), QStringLiteral("--out"), out});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("no-ftqa"), r.err.constData());
    }

    void refusals()
    {
        Run r = cli({QStringLiteral("qs"), QStringLiteral("generate"), QStringLiteral("--checkpoint"),
                     m_dir.filePath(QStringLiteral("no-model")), kPage});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("no-model"), r.err.constData());

        QFile junk(m_dir.filePath(QStringLiteral("junk.bin")));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write(QByteArray("\x01\x02\x03 not a document", 20));
        junk.close();
        r = cli({QStringLiteral("qs"), QStringLiteral("generate"), QStringLiteral("--checkpoint"), kModel, junk.fileName()});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("junk.bin"), r.err.constData());

        r = cli({QStringLiteral("qs"), QStringLiteral("generate"), QStringLiteral("--checkpoint"), kModel, kPage,
                 QStringLiteral("--beams"), QStringLiteral("0")});
        QCOMPARE(r.code, 2);
        r = cli({QStringLiteral("qs")});
        QCOMPARE(r.code, 2);
        r = cli({QStringLiteral("qs"), QStringLiteral("train"), QStringLiteral("--data"), m_dir.filePath(QStringLiteral("none.folio")),
                 QStringLiteral("--out"), m_dir.filePath(QStringLiteral("out"))});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("none.folio"), r.err.constData());
    }
};

FOLIO_TEST_GUILESS_MAIN(TestCliQs)
#include "tst_cliqs.moc"
