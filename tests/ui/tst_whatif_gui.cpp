// What if, in the GUI (issue 48): the What If dock over a PageCanvas, offscreen, with the shipped
// resources/models/funsd-layout on the first FUNSD test page. A box dragged through the canvas
// gives an edited copy with the moved box (the Document untouched) and a diff equal to what
// pipeline::applyWordEdits + the tagger give for the same edits directly; undo and back restore;
// an emptied page, a box dropped off the page and no model are refused with a message.
#include "inference/formtagger/taggerexplain.h"
#include "pipeline/explainrun.h"
#include "pipeline/whatif.h"
#include "ui/explain/whatifpanel.h"
#include "widgets/pagecanvas.h"
#include "tests/common/funsdtestpage.h"
#include "tests/common/testdata.h"

#include <QMouseEvent>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>

using namespace folio;

class TestWhatIfGui : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void dragThroughCanvasGivesEditedCopyAndDirectDiff();
    void undoAndBackRestore();
    void resizeAndDeleteThroughCanvas();
    void newerEditSupersedesOlder();
    void boxDroppedOffPageRefusedPartlyOffClamped();
    void emptyPageRefused();
    void noModelRefused();

private:
    void drag(int word, const QPointF &widgetDelta);
    std::vector<pipeline::LabelChange> directChanges(const std::vector<pipeline::WordEdit> &edits, Document *edited = nullptr);
    bool waitDiff();

    QString m_checkpoint;
    Document m_doc;
    inference::TaggerPage m_page;
    inference::TaggerExplainer m_explainer;
    QStringList m_before;
    PageCanvas *m_canvas = nullptr;
    WhatIfPanel *m_panel = nullptr;
};

void TestWhatIfGui::initTestCase()
{
    m_checkpoint = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout");
    std::string why;
    QVERIFY2(m_explainer.load(m_checkpoint.toStdString(), &why), why.c_str());
    FOLIO_FIRST_FUNSD_TEST_PAGE(&m_doc, &m_page);
    QVERIFY(!m_doc.pages.empty() && !m_doc.pages[0].size.isEmpty());
    const pipeline::WordLabels before = pipeline::taggerWordLabels(m_explainer, m_doc);
    QVERIFY2(before.ok, qPrintable(before.error));
    m_before = before.labels;
}

void TestWhatIfGui::init()
{
    m_canvas = new PageCanvas;
    m_canvas->resize(800, 1000);
    m_canvas->setPage(m_doc, 0, QImage(m_doc.pages[0].imagePath));
    m_canvas->show();
    m_panel = new WhatIfPanel;
    m_panel->setCheckpointProvider([this] { return m_checkpoint; });
    m_panel->attachCanvas(m_canvas);
    m_panel->setDocument(m_doc);
    // Overlays onto the canvas, as the scan page takes them in the window.
    connect(m_panel, &WhatIfPanel::overlayColorsChanged, m_canvas, &PageCanvas::setBoxColors);
    connect(m_panel, &WhatIfPanel::overlayLabelsChanged, m_canvas, &PageCanvas::setBoxLabels);
}

void TestWhatIfGui::cleanup()
{
    delete m_panel;
    delete m_canvas;
    m_panel = nullptr;
    m_canvas = nullptr;
}

// A left drag on the canvas from the centre of `word`'s box by `widgetDelta` widget pixels.
void TestWhatIfGui::drag(int word, const QPointF &widgetDelta)
{
    const QPointF from = m_canvas->wordRectInWidget(word).center();
    QVERIFY(!from.isNull());
    const QPointF to = from + widgetDelta;
    QMouseEvent press(QEvent::MouseButtonPress, from, m_canvas->mapToGlobal(from), Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(m_canvas, &press);
    QMouseEvent move(QEvent::MouseMove, to, m_canvas->mapToGlobal(to), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(m_canvas, &move);
    QMouseEvent release(QEvent::MouseButtonRelease, to, m_canvas->mapToGlobal(to), Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
    QCoreApplication::sendEvent(m_canvas, &release);
}

std::vector<pipeline::LabelChange> TestWhatIfGui::directChanges(const std::vector<pipeline::WordEdit> &edits, Document *editedOut)
{
    const pipeline::EditedDocument edited = pipeline::applyWordEdits(m_doc, edits);
    if (!edited.ok)
        qWarning("%s", qPrintable(edited.error));
    // The tagger straight on the edited copy's pages, not through the panel's helper.
    const auto pages = pipeline::taggerPagesOfDocument(edited.document, nullptr, m_explainer.wordOrder() == "layout");
    QStringList after;
    for (std::size_t i = 0; i < m_doc.words.size(); ++i)
        after << QString();
    for (const auto &p : pages) {
        std::vector<std::string> tags;
        std::string why;
        if (!m_explainer.predict(p.taggerPage, &tags, &why))
            qWarning("%s", why.c_str());
        for (std::size_t i = 0; i < tags.size(); ++i)
            after[p.wordIndex[i]] = QString::fromStdString(tags[i]);
    }
    if (editedOut)
        *editedOut = edited.document;
    return pipeline::labelChanges(m_doc, edited.document, m_before, after);
}

bool TestWhatIfGui::waitDiff()
{
    return QTest::qWaitFor([this] { return m_panel->hasDiff() && !m_panel->isRunning(); }, 60000);
}

static QList<int> wordsOf(const std::vector<pipeline::LabelChange> &changes)
{
    QList<int> out;
    for (const auto &c : changes)
        out << c.word;
    return out;
}

void TestWhatIfGui::dragThroughCanvasGivesEditedCopyAndDirectDiff()
{
    QSignalSpy ready(m_panel, &WhatIfPanel::labelsReady);
    m_panel->setEditing(true);
    QVERIFY(m_panel->isEditing());
    QCOMPARE(m_canvas->tool(), PageCanvas::Tool::EditBoxes);
    QVERIFY(ready.wait(60000));
    QCOMPARE(m_panel->labelsBefore(), m_before);

    // Three words dragged far across the page, one after another: edits accumulate.
    const QList<int> words = {3, 10, 20};
    const double zoom = m_canvas->zoom();
    std::vector<QRectF> originals;
    for (int w : words) {
        originals.push_back(m_doc.words[std::size_t(w)].box);
        QSignalSpy diff(m_panel, &WhatIfPanel::diffShown);
        drag(w, QPointF(250, 180));
        QVERIFY2(waitDiff(), qPrintable(m_panel->statusText()));
        QVERIFY(diff.count() >= 1);
    }
    const std::vector<pipeline::WordEdit> &edits = m_panel->edits();
    QCOMPARE(int(edits.size()), words.size());
    for (int i = 0; i < words.size(); ++i) {
        const int w = words[i];
        QCOMPARE(int(edits[std::size_t(i)].kind), int(pipeline::WordEdit::Kind::Move));
        QCOMPARE(edits[std::size_t(i)].word, w);
        QVERIFY(std::abs(edits[std::size_t(i)].dx - 250 / zoom) < 1e-6);
        QVERIFY(std::abs(edits[std::size_t(i)].dy - 180 / zoom) < 1e-6);
        // The copy has the moved (possibly clamped) box; the document and the panel's copy of it do not.
        const QRectF moved = m_panel->editedDocument().words[std::size_t(w)].box;
        QVERIFY(moved != originals[std::size_t(i)]);
        QCOMPARE(m_panel->document().words[std::size_t(w)].box, originals[std::size_t(i)]);
        QCOMPARE(m_canvas->editedBoxes().value(w), moved);
    }
    Document direct;
    const std::vector<pipeline::LabelChange> expected = directChanges(edits, &direct);
    for (int w : words)
        QCOMPARE(m_panel->editedDocument().words[std::size_t(w)].box, direct.words[std::size_t(w)].box);
    QCOMPARE(wordsOf(m_panel->changes()), wordsOf(expected));
    QVERIFY2(!expected.empty(), "three 250 px moves changed no label: the diff check would be empty");
    QCOMPARE(m_panel->table()->rowCount(), int(expected.size()));
    for (int r = 0; r < int(expected.size()); ++r) {
        QCOMPARE(m_panel->table()->item(r, 0)->data(Qt::UserRole).toInt(), expected[std::size_t(r)].word);
        QCOMPARE(m_panel->changes()[std::size_t(r)].after, expected[std::size_t(r)].after);
        QCOMPARE(m_panel->changes()[std::size_t(r)].before, expected[std::size_t(r)].before);
        QCOMPARE(m_canvas->wordLabel(expected[std::size_t(r)].word).contains(QStringLiteral(" → ")), true);
    }
    // FOLIO_SHOT_DIR=DIR: the canvas and the dock as pictures, to look at.
    const QString shots = qEnvironmentVariable("FOLIO_SHOT_DIR");
    if (!shots.isEmpty()) {
        m_panel->resize(520, 360);
        m_panel->show();
        QVERIFY(m_canvas->grab().save(shots + QStringLiteral("/whatif_canvas.png")));
        QVERIFY(m_panel->grab().save(shots + QStringLiteral("/whatif_dock.png")));
    }
}

void TestWhatIfGui::undoAndBackRestore()
{
    m_panel->setEditing(true);
    QVERIFY(m_panel->requestBox(5, m_doc.words[5].box.translated(300, 0)));
    QVERIFY(waitDiff());
    QVERIFY(m_panel->requestDelete(7));
    QVERIFY(waitDiff());
    QCOMPARE(int(m_panel->edits().size()), 2);
    QVERIFY(m_canvas->deletedWords().contains(7));
    QVERIFY(m_panel->changes().size() >= 1); // the deleted word at least
    m_panel->undoLastEdit();
    QVERIFY(waitDiff());
    QCOMPARE(int(m_panel->edits().size()), 1);
    QVERIFY(!m_canvas->deletedWords().contains(7));
    QCOMPARE(wordsOf(m_panel->changes()), wordsOf(directChanges(m_panel->edits())));

    QSignalSpy colors(m_panel, &WhatIfPanel::overlayColorsChanged);
    m_panel->backToDocument();
    QVERIFY(m_panel->edits().empty());
    QVERIFY(m_panel->changes().empty());
    QCOMPARE(m_panel->table()->rowCount(), 0);
    QVERIFY(m_canvas->editedBoxes().isEmpty());
    QVERIFY(m_canvas->deletedWords().isEmpty());
    QCOMPARE(m_canvas->wordRectInWidget(5).topLeft(), m_canvas->mapFromPage(m_doc.words[5].box.topLeft()));
    QVERIFY(!colors.isEmpty());
    using Colors = QHash<int, QColor>;
    QVERIFY(colors.last().first().value<Colors>().isEmpty());
    for (std::size_t i = 0; i < m_doc.words.size(); ++i)
        QCOMPARE(m_panel->editedDocument().words[i].box, m_doc.words[i].box);
    // A late result of a superseded run never brings the diff back.
    QTest::qWait(200);
    QVERIFY(!m_panel->hasDiff());
}

void TestWhatIfGui::resizeAndDeleteThroughCanvas()
{
    m_panel->setEditing(true);
    // The widest word: its bottom-right corner is a resize handle.
    int wide = 0;
    for (int i = 1; i < int(m_doc.words.size()); ++i)
        if (m_doc.words[std::size_t(i)].box.width() > m_doc.words[std::size_t(wide)].box.width())
            wide = i;
    const QRectF r = m_canvas->wordRectInWidget(wide);
    QVERIFY(r.width() > 30 && r.height() > 8);
    const QPointF corner = r.bottomRight() - QPointF(1, 1);
    const QPointF to = corner + QPointF(40, 10);
    QMouseEvent press(QEvent::MouseButtonPress, corner, m_canvas->mapToGlobal(corner), Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(m_canvas, &press);
    QMouseEvent move(QEvent::MouseMove, to, m_canvas->mapToGlobal(to), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(m_canvas, &move);
    QMouseEvent release(QEvent::MouseButtonRelease, to, m_canvas->mapToGlobal(to), Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
    QCoreApplication::sendEvent(m_canvas, &release);
    QCOMPARE(int(m_panel->edits().size()), 1);
    const pipeline::WordEdit resize = m_panel->edits().front();
    QCOMPARE(int(resize.kind), int(pipeline::WordEdit::Kind::Resize));
    QCOMPARE(resize.word, wide);
    const double zoom = m_canvas->zoom();
    QVERIFY(std::abs(resize.dx - 40 / zoom) < 1e-6 && std::abs(resize.dy - 10 / zoom) < 1e-6);
    const QRectF grown = m_panel->editedDocument().words[std::size_t(wide)].box;
    QCOMPARE(grown.topLeft(), m_doc.words[std::size_t(wide)].box.topLeft());
    QVERIFY(grown.width() > m_doc.words[std::size_t(wide)].box.width());
    QCOMPARE(m_canvas->editedBoxes().value(wide), grown);
    QVERIFY(waitDiff());

    // A click (no move) selects; Delete deletes the selected word.
    const int victim = wide == 9 ? 10 : 9;
    const QPointF at = m_canvas->wordRectInWidget(victim).center();
    QMouseEvent click(QEvent::MouseButtonPress, at, m_canvas->mapToGlobal(at), Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(m_canvas, &click);
    QMouseEvent up(QEvent::MouseButtonRelease, at, m_canvas->mapToGlobal(at), Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
    QCoreApplication::sendEvent(m_canvas, &up);
    QCOMPARE(int(m_panel->edits().size()), 1); // a click is no edit
    QCOMPARE(m_canvas->selection(), QList<int>{victim});
    QTest::keyClick(m_canvas, Qt::Key_Delete);
    QCOMPARE(int(m_panel->edits().size()), 2);
    QCOMPARE(int(m_panel->edits().back().kind), int(pipeline::WordEdit::Kind::Delete));
    QVERIFY(m_canvas->deletedWords().contains(victim));
    QVERIFY(m_panel->editedDocument().words[std::size_t(victim)].text.isEmpty());
    QCOMPARE(m_panel->document().words[std::size_t(victim)].text, m_doc.words[std::size_t(victim)].text);
    QVERIFY(waitDiff());
    QCOMPARE(wordsOf(m_panel->changes()), wordsOf(directChanges(m_panel->edits())));
    QVERIFY(wordsOf(m_panel->changes()).contains(victim)); // a deleted word is listed as such
}

void TestWhatIfGui::newerEditSupersedesOlder()
{
    m_panel->setEditing(true);
    QSignalSpy diff(m_panel, &WhatIfPanel::diffShown);
    QVERIFY(m_panel->requestBox(2, m_doc.words[2].box.translated(0, 200)));
    QVERIFY(m_panel->requestBox(4, m_doc.words[4].box.translated(-200, 0))); // before the first run is done
    QVERIFY(waitDiff());
    QTest::qWait(100);
    QCOMPARE(diff.count(), 1); // only the newest edit's diff was shown
    QCOMPARE(int(m_panel->edits().size()), 2);
    QCOMPARE(wordsOf(m_panel->changes()), wordsOf(directChanges(m_panel->edits())));
}

void TestWhatIfGui::boxDroppedOffPageRefusedPartlyOffClamped()
{
    QSignalSpy ready(m_panel, &WhatIfPanel::labelsReady);
    m_panel->setEditing(true);
    QVERIFY(ready.wait(60000)); // then nothing runs until an edit is accepted
    QSignalSpy messages(m_panel, &WhatIfPanel::message);
    drag(6, QPointF(-3000, -3000)); // wholly off the page
    QCOMPARE(messages.count(), 1);
    QVERIFY2(m_panel->lastMessage().contains(QStringLiteral("off the page")), qPrintable(m_panel->lastMessage()));
    QVERIFY(m_panel->edits().empty());
    QVERIFY(m_canvas->editedBoxes().isEmpty());
    QVERIFY(!m_panel->isRunning());

    const QSizeF page = m_doc.pages[0].size;
    const QRectF box = m_doc.words[6].box;
    QVERIFY(m_panel->requestBox(6, QRectF(QPointF(page.width() - box.width() / 2, box.top()), box.size())));
    QVERIFY2(m_panel->lastMessage().contains(QStringLiteral("clamped")), qPrintable(m_panel->lastMessage()));
    const QRectF clamped = m_panel->editedDocument().words[6].box;
    QVERIFY(QRectF(QPointF(0, 0), page).contains(clamped));
    QCOMPARE(clamped.right(), page.width());
    QVERIFY(waitDiff());
}

void TestWhatIfGui::emptyPageRefused()
{
    Document small;
    small.kind = SourceKind::Image;
    small.pages.push_back(Page{QSizeF(800, 1000), QString(), 0});
    for (const auto &[text, box] : {std::pair{QStringLiteral("Name:"), QRectF(50, 50, 80, 20)},
                                    std::pair{QStringLiteral("Ada"), QRectF(140, 50, 60, 20)}}) {
        Word w;
        w.id = QStringLiteral("w%1").arg(small.words.size());
        w.text = text;
        w.box = box;
        w.norm = normaliseBox(box, small.pages[0].size);
        small.words.push_back(w);
    }
    m_canvas->setPage(small, 0);
    m_panel->setDocument(small);
    m_panel->setEditing(true);
    QVERIFY(m_panel->requestDelete(0));
    QVERIFY(waitDiff());
    QVERIFY(!m_panel->requestDelete(1));
    QVERIFY2(m_panel->lastMessage().contains(QStringLiteral("without words")), qPrintable(m_panel->lastMessage()));
    QCOMPARE(int(m_panel->edits().size()), 1);
    QVERIFY(!m_canvas->deletedWords().contains(1));
    QVERIFY(m_panel->hasDiff()); // the view unchanged
}

void TestWhatIfGui::noModelRefused()
{
    m_panel->setCheckpointProvider([] { return QString(); });
    m_panel->setEditing(true);
    QVERIFY(!m_panel->isEditing());
    QCOMPARE(m_canvas->tool(), PageCanvas::Tool::Select);
    QVERIFY2(m_panel->lastMessage().contains(QStringLiteral("choose a model")), qPrintable(m_panel->lastMessage()));
    QVERIFY(!m_panel->requestBox(3, m_doc.words[3].box.translated(10, 10)));
    QVERIFY(m_panel->edits().empty());
    QVERIFY(m_canvas->editedBoxes().isEmpty());

    // A folder that is not a layout tagger: the run says why, the view keeps the document.
    m_panel->setCheckpointProvider([] { return QStringLiteral(FOLIO_SOURCE_DIR "/resources"); });
    QSignalSpy messages(m_panel, &WhatIfPanel::message);
    m_panel->setEditing(true);
    QVERIFY(QTest::qWaitFor([&] { return !m_panel->isRunning() && messages.count() > 0; }, 30000));
    QVERIFY2(m_panel->lastMessage().contains(QStringLiteral("could not run")), qPrintable(m_panel->lastMessage()));
    QVERIFY(!m_panel->hasDiff());
}

FOLIO_TEST_MAIN(TestWhatIfGui)
#include "tst_whatif_gui.moc"
