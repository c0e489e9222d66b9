// Why this label, in the GUI (issue 48): the Why This Label dock, offscreen, with the shipped
// resources/models/funsd-layout on the first FUNSD test page. Its table rows equal what
// TaggerExplainer::explain and attention/attributions.h give for the same word directly (rollout,
// gradient x input, integrated gradients with the same steps); the stages arrive in order; Cancel
// drops the run; a blank word, a word out of range and no model are refused with a message.
#include "attention/attributions.h"
#include "inference/formtagger/taggerexplain.h"
#include "pipeline/modelinputs/taggerpages.h"
#include "ui/explain/whylabelpanel.h"
#include "widgets/pagecanvas.h"
#include "tests/common/funsdtestpage.h"
#include "tests/common/testdata.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>

#include <cmath>

using namespace folio;

class TestWhyLabelGui : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void tableRowsEqualDirectAttributions();
    void cancelDropsTheRun();
    void refusals();

private:
    QString m_checkpoint;
    Document m_doc;
    inference::TaggerPage m_page;
};

void TestWhyLabelGui::initTestCase()
{
    m_checkpoint = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout");
    FOLIO_FIRST_FUNSD_TEST_PAGE(&m_doc, &m_page);
}

static bool approxEqual(double a, double b)
{
    return std::abs(a - b) <= 1e-4 * std::max(1.0, std::abs(b));
}

void TestWhyLabelGui::tableRowsEqualDirectAttributions()
{
    constexpr int kWord = 12, kSteps = 8;
    WhyLabelPanel panel;
    panel.setCheckpointProvider([this] { return m_checkpoint; });
    panel.setDocument(m_doc);
    panel.setIgSteps(kSteps);
    QSignalSpy stages(&panel, &WhyLabelPanel::stageShown);
    QSignalSpy finished(&panel, &WhyLabelPanel::finished);
    panel.explainWord(kWord);
    QVERIFY(panel.isRunning());
    QVERIFY(finished.wait(120000));
    QCOMPARE(finished.first().first().toBool(), true);
    QCOMPARE(stages.count(), 3);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(stages.at(i).first().toInt(), i + 1);
    QVERIFY(!panel.isRunning());

    // Directly: the same word on the same page, explained by a TaggerExplainer of our own.
    inference::TaggerExplainer explainer;
    std::string why;
    QVERIFY2(explainer.load(m_checkpoint.toStdString(), &why), why.c_str());
    const auto pages = pipeline::taggerPagesOfDocument(m_doc, nullptr, explainer.wordOrder() == "layout");
    int pageIndex = -1, index = -1;
    for (std::size_t p = 0; p < pages.size(); ++p)
        for (std::size_t i = 0; i < pages[p].wordIndex.size(); ++i)
            if (pages[p].wordIndex[i] == kWord) {
                pageIndex = int(p);
                index = int(i);
            }
    QVERIFY(index >= 0);
    inference::TaggerExplainOptions options;
    options.igSteps = kSteps;
    inference::TaggerExplanation ex;
    QVERIFY2(explainer.explain(pages[std::size_t(pageIndex)].taggerPage, index, std::string(), options, &ex, &why), why.c_str());
    const std::vector<double> rollout = attentionRolloutRow(ex.attentions, ex.layers, ex.heads, ex.wordCount, ex.target - ex.firstWord);

    QTableWidget *table = panel.table();
    QCOMPARE(table->rowCount(), ex.wordCount);
    QCOMPARE(panel.attributions().label, QString::fromStdString(ex.label));
    QCOMPARE(panel.attributions().igSteps, kSteps);
    QHash<int, int> rowOfWord;
    for (int r = 0; r < table->rowCount(); ++r)
        rowOfWord.insert(table->item(r, WhyLabelPanel::WordColumn)->data(Qt::UserRole).toInt(), r);
    QCOMPARE(rowOfWord.size(), ex.wordCount);
    const auto cell = [table](int row, int column) { return table->item(row, column)->data(Qt::UserRole).toDouble(); };
    for (int k = 0; k < ex.wordCount; ++k) {
        const int word = pages[std::size_t(pageIndex)].wordIndex[std::size_t(ex.firstWord + k)];
        QVERIFY2(rowOfWord.contains(word), qPrintable(QString::number(word)));
        const int r = rowOfWord.value(word);
        QCOMPARE(table->item(r, WhyLabelPanel::TextColumn)->text(), m_doc.words[std::size_t(word)].text);
        QVERIFY2(approxEqual(cell(r, WhyLabelPanel::RolloutColumn), rollout[std::size_t(k)]), qPrintable(QString::number(word)));
        QVERIFY2(approxEqual(cell(r, WhyLabelPanel::GradInputColumn), ex.gradInput[std::size_t(k)]), qPrintable(QString::number(word)));
        QVERIFY2(approxEqual(cell(r, WhyLabelPanel::IgColumn), ex.integratedGradients[std::size_t(k)]), qPrintable(QString::number(word)));
        QVERIFY2(approxEqual(cell(r, WhyLabelPanel::IgBoxColumn), ex.igBox[std::size_t(k)]), qPrintable(QString::number(word)));
        QVERIFY2(approxEqual(cell(r, WhyLabelPanel::IgTextColumn), ex.igText[std::size_t(k)]), qPrintable(QString::number(word)));
    }
    // Largest |IG| first; the steps said; the page coloured, the explained word gold.
    for (int r = 1; r < table->rowCount(); ++r)
        QVERIFY(std::abs(cell(r - 1, WhyLabelPanel::IgColumn)) >= std::abs(cell(r, WhyLabelPanel::IgColumn)));
    const QString method = panel.findChild<QLabel *>(QStringLiteral("whyLabelMethod"))->text();
    QVERIFY2(method.contains(QStringLiteral("%1 midpoint steps").arg(kSteps)), qPrintable(method));
    QCOMPARE(panel.wordColors().size(), ex.wordCount);
    QCOMPARE(panel.wordColors().value(kWord), QColor(255, 200, 0, 200));
    const QString shots = qEnvironmentVariable("FOLIO_SHOT_DIR"); // FOLIO_SHOT_DIR=DIR: pictures to look at
    if (!shots.isEmpty()) {
        PageCanvas canvas;
        canvas.resize(800, 1000);
        canvas.setPage(m_doc, 0, QImage(m_doc.pages[0].imagePath));
        canvas.setBoxColors(panel.wordColors());
        canvas.setSelection({kWord});
        canvas.show();
        panel.resize(760, 420);
        panel.show();
        QVERIFY(canvas.grab().save(shots + QStringLiteral("/why_canvas.png")));
        QVERIFY(panel.grab().save(shots + QStringLiteral("/why_dock.png")));
    }
    // Rollout on the page instead: every other word red (rollout is never negative).
    panel.setShown(WhyLabelPanel::Shown::Rollout);
    for (auto it = panel.wordColors().constBegin(); it != panel.wordColors().constEnd(); ++it)
        if (it.key() != kWord)
            QCOMPARE(it.value().red(), 230);
}

void TestWhyLabelGui::cancelDropsTheRun()
{
    WhyLabelPanel panel;
    panel.setCheckpointProvider([this] { return m_checkpoint; });
    panel.setDocument(m_doc);
    panel.setIgSteps(64);
    QSignalSpy stages(&panel, &WhyLabelPanel::stageShown);
    QSignalSpy finished(&panel, &WhyLabelPanel::finished);
    panel.explainWord(4);
    panel.cancel(); // while the rollout stage loads the model and runs
    QVERIFY(!panel.isRunning());
    QTest::qWait(4000);
    QCOMPARE(stages.count(), 0);
    QCOMPARE(finished.count(), 0);
    QCOMPARE(panel.stage(), 0);
    QCOMPARE(panel.table()->rowCount(), 0);
    // A new word after Cancel runs normally.
    panel.setIgSteps(0);
    panel.explainWord(5);
    QVERIFY(finished.wait(60000));
    QCOMPARE(panel.stage(), 2);
    QVERIFY(panel.table()->rowCount() > 0);
}

void TestWhyLabelGui::refusals()
{
    WhyLabelPanel panel;
    panel.setDocument(m_doc);
    panel.explainWord(3); // no model
    QVERIFY2(panel.lastMessage().contains(QStringLiteral("choose a model")), qPrintable(panel.lastMessage()));
    QVERIFY(!panel.isRunning());
    panel.setCheckpointProvider([this] { return m_checkpoint; });
    panel.explainWord(int(m_doc.words.size()) + 5);
    QVERIFY2(panel.lastMessage().contains(QStringLiteral("no word")), qPrintable(panel.lastMessage()));
    Document blank = m_doc;
    blank.words[2].text = QStringLiteral("  ");
    panel.setDocument(blank);
    panel.explainWord(2);
    QVERIFY2(panel.lastMessage().contains(QStringLiteral("blank")), qPrintable(panel.lastMessage()));
    QVERIFY(!panel.isRunning());
    QCOMPARE(panel.table()->rowCount(), 0);
}

FOLIO_TEST_MAIN(TestWhyLabelGui)
#include "tst_whylabel_gui.moc"
