// A dark palette detected and followed (issue 50): ui/palettefollower notices a palette turned dark
// at run time (QApplication::setPalette, as a platform theme's change arrives) and completes the
// shades a partial dark palette left light; every custom-painted view (page canvas with label
// chips, attention heatmap, head grid, image patches) is grabbed before and after the change and
// must then be dark with readable text (ui/legibility's contrast rule, 4.5:1), not keep its light
// colours. The pictures go to <build>/dark-palette/ for review.
#include "tests/common/testdata.h"
#include "attention/attentiontrace.h"
#include "attention/attentionviewmodel.h"
#include "attention/heatmaprender.h"
#include "document/formats/datasetformat.h"
#include "ui/attention/headgridpanel.h"
#include "ui/fields/fieldspanel.h"
#include "ui/attention/headgridview.h"
#include "ui/attention/imagepatchcanvas.h"
#include "ui/labelcolors.h"
#include "ui/legibility.h"
#include "ui/palettefollower.h"
#include "widgets/heatmapview.h"
#include "widgets/pagecanvas.h"

#include <QApplication>
#include <QDir>
#include <QHash>
#include <QImage>
#include <QPalette>
#include <QSignalSpy>
#include <QStyle>
#include <QTableWidget>
#include <QTest>

#include <functional>

using namespace folio;

namespace {

const QString kOut = QStringLiteral(FOLIO_BINARY_DIR "/dark-palette");

// Only the colours a dark platform theme might give: the shades (Light, Mid, Dark...) stay light.
QPalette partialDarkPalette()
{
    QPalette p = QApplication::style()->standardPalette();
    for (const QPalette::ColorGroup g : {QPalette::Active, QPalette::Inactive, QPalette::Disabled}) {
        p.setColor(g, QPalette::Window, QColor(40, 42, 46));
        p.setColor(g, QPalette::WindowText, QColor(225, 225, 225));
        p.setColor(g, QPalette::Base, QColor(28, 29, 32));
        p.setColor(g, QPalette::AlternateBase, QColor(45, 46, 50));
        p.setColor(g, QPalette::Text, QColor(225, 225, 225));
        p.setColor(g, QPalette::Button, QColor(50, 52, 56));
        p.setColor(g, QPalette::ButtonText, QColor(225, 225, 225));
    }
    return p;
}

Document makeDocument()
{
    Document d;
    d.sourcePath = QStringLiteral("words-only.json");
    d.kind = SourceKind::Image;
    d.pages.push_back(Page{QSizeF(800, 600), QString(), 0});
    Node root;
    root.kind = NodeKind::Root;
    d.nodes.push_back(root);
    for (int i = 0; i < 12; ++i) {
        Node wn;
        wn.kind = NodeKind::Word;
        wn.id = QStringLiteral("w%1").arg(i);
        wn.text = QStringLiteral("word%1").arg(i);
        const int node = d.addNode(wn, 0);
        Word w;
        w.id = wn.id;
        w.text = wn.text;
        w.box = QRectF(40 + 240 * (i % 3), 60 + 130 * (i / 3), 150, 40);
        w.node = node;
        d.words.push_back(w);
    }
    d.normaliseWordBoxes();
    return d;
}

AttentionMatrixView makeMatrix()
{
    AttentionMatrixView m;
    m.rows = m.cols = 6;
    for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 6; ++c)
            m.values.push_back(r == c ? 0.5f : 0.1f);
    for (int i = 0; i < 6; ++i) {
        m.rowLabels << QStringLiteral("token%1").arg(i);
        m.colLabels << QStringLiteral("token%1").arg(i);
    }
    m.title = QStringLiteral("layer 1 · head 2 · attention · words");
    m.minValue = 0.1f;
    m.maxValue = 0.5f;
    return m;
}

// The most frequent colour of an area: what the view paints its background with there.
QColor dominant(const QImage &img, const QRect &area)
{
    QHash<QRgb, int> count;
    const QRect a = area.intersected(img.rect());
    for (int y = a.top(); y <= a.bottom(); ++y)
        for (int x = a.left(); x <= a.right(); ++x)
            ++count[img.pixel(x, y) | 0xff000000u];
    QRgb best = 0;
    int n = -1;
    for (auto it = count.cbegin(); it != count.cend(); ++it)
        if (it.value() > n) {
            n = it.value();
            best = it.key();
        }
    return QColor::fromRgb(best);
}

// The strongest contrast any pixel of `area` has with `background`: text drawn there reaches it.
double strongestContrast(const QImage &img, const QRect &area, const QColor &background)
{
    double best = 1;
    const QRect a = area.intersected(img.rect());
    for (int y = a.top(); y <= a.bottom(); ++y)
        for (int x = a.left(); x <= a.right(); ++x)
            best = std::max(best, contrastRatio(QColor::fromRgb(img.pixel(x, y)), background));
    return best;
}

double lightFraction(const QImage &img)
{
    qint64 light = 0, all = 0;
    for (int y = 0; y < img.height(); y += 2)
        for (int x = 0; x < img.width(); x += 2, ++all)
            if (QColor::fromRgb(img.pixel(x, y)).lightnessF() > 0.7)
                ++light;
    return all ? double(light) / double(all) : 0;
}

QImage grabbed(QWidget *w, const QString &name)
{
    QApplication::processEvents();
    const QImage img = w->grab().toImage().convertToFormat(QImage::Format_RGB32);
    img.save(kOut + QLatin1Char('/') + name + QStringLiteral(".png"));
    return img;
}

} // namespace

class TestDarkPalette : public QObject
{
    Q_OBJECT

    QPalette m_light;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(QDir().mkpath(kOut));
        m_light = QApplication::style()->standardPalette();
        QApplication::setPalette(m_light);
    }

    void cleanup() { QApplication::setPalette(m_light); }

    void detectedAtStartAndAtRunTime()
    {
        QApplication *app = qApp;
        PaletteFollower follower(app);
        QCOMPARE(PaletteFollower::instance(), &follower);
        QVERIFY(!follower.isDark()); // offscreen: the style's light palette
        QSignalSpy dark(&follower, &PaletteFollower::darkChanged);
        // A palette turned dark while Folio runs (a platform theme's change arrives this way too).
        QApplication::setPalette(partialDarkPalette());
        QVERIFY(follower.isDark());
        QCOMPARE(dark.count(), 1);
        QCOMPARE(dark.at(0).at(0).toBool(), true);
        QVERIFY(follower.changes() >= 1);
        // The shades it left light are completed from the button colour: no glaring Mid or Light.
        for (const QPalette::ColorRole role : {QPalette::Light, QPalette::Midlight, QPalette::Mid, QPalette::Dark})
            QVERIFY2(QApplication::palette().color(role).lightnessF() < 0.55,
                     qPrintable(QStringLiteral("role %1: %2").arg(int(role)).arg(QApplication::palette().color(role).name())));
        QCOMPARE(QApplication::palette().color(QPalette::Window), QColor(40, 42, 46)); // its own colours kept
        // Back to light.
        QApplication::setPalette(m_light);
        QVERIFY(!follower.isDark());
        QCOMPARE(dark.count(), 2);
        QCOMPARE(dark.at(1).at(0).toBool(), false);
        // A light palette is not touched; a dark window with dark text is not "dark".
        QCOMPARE(completedPalette(m_light), m_light);
        QPalette odd = m_light;
        odd.setColor(QPalette::Window, QColor(40, 40, 40));
        odd.setColor(QPalette::WindowText, QColor(0, 0, 0));
        QVERIFY(!isDarkPalette(odd));
    }

    void forcedByTheEnvironment()
    {
        qputenv("FOLIO_PALETTE", "dark");
        {
            PaletteFollower follower(qApp);
            QVERIFY(follower.isDark());
            QCOMPARE(QApplication::palette().color(QPalette::Window), forcedDarkPalette().color(QPalette::Window));
        }
        qputenv("FOLIO_PALETTE", "light");
        {
            PaletteFollower follower(qApp);
            QVERIFY(!follower.isDark());
        }
        qunsetenv("FOLIO_PALETTE");
        QVERIFY(PaletteFollower::instance() == nullptr);
    }

    void accentColoursReadOnBoth()
    {
        for (const QPalette &p : {m_light, forcedDarkPalette(), completedPalette(partialDarkPalette())}) {
            const QColor base = p.color(QPalette::Base);
            for (const QColor &c : {suggestedTextColor(p), warningTextColor(p), secondaryTextColor(p), errorTextColor(p)})
                QVERIFY2(contrastRatio(c, base) >= 4.5, qPrintable(c.name() + QStringLiteral(" on ") + base.name()));
            QVERIFY2(contrastRatio(viewText(p), viewBackground(p)) >= 4.5, qPrintable(viewBackground(p).name()));
        }
    }

    void customViewsFollowTheChange_data()
    {
        QTest::addColumn<QString>("view");
        QTest::newRow("page canvas") << QStringLiteral("pageCanvas");
        QTest::newRow("heatmap") << QStringLiteral("heatmap");
        QTest::newRow("head grid") << QStringLiteral("headGrid");
        QTest::newRow("image patches") << QStringLiteral("imagePatches");
    }

    void customViewsFollowTheChange()
    {
        QFETCH(QString, view);
        PaletteFollower follower(qApp);
        const Document doc = makeDocument();
        std::unique_ptr<QWidget> widget;
        QRect textArea; // where the view draws text (on its background)
        std::function<void()> afterPaint;
        if (view == QLatin1String("pageCanvas")) {
            auto *canvas = new PageCanvas;
            canvas->setPage(doc, 0); // words only: no scan image
            QHash<int, QColor> colours;
            QHash<int, QString> labels;
            const QStringList names{QStringLiteral("QUESTION"), QStringLiteral("ANSWER"), QStringLiteral("HEADER"), QStringLiteral("OTHER")};
            for (int i = 0; i < 12; ++i) {
                colours.insert(i, labelColor(names.at(i % 4), 90));
                labels.insert(i, names.at(i % 4));
            }
            canvas->setBoxColors(colours);
            canvas->setBoxLabels(labels);
            widget.reset(canvas);
        } else if (view == QLatin1String("heatmap")) {
            auto *heat = new HeatmapView;
            heat->setMatrix(makeMatrix());
            widget.reset(heat);
        } else if (view == QLatin1String("headGrid")) {
            auto *grid = new HeadGridView;
            grid->setGrid({QStringLiteral("layer 0"), QStringLiteral("layer 1")}, 4, 48); // nothing computed yet: placeholders
            grid->setColumnLabels(0, {QStringLiteral("h0"), QStringLiteral("h1"), QStringLiteral("h2"), QStringLiteral("h3")});
            widget.reset(grid);
        } else {
            auto *patches = new ImagePatchCanvas;
            patches->setPage(doc, 0); // no page image: the placeholder
            widget.reset(patches);
        }
        widget->resize(view == QLatin1String("headGrid") ? QSize(320, 160) : QSize(520, 420));
        widget->show();
        QVERIFY(QTest::qWaitForWindowExposed(widget.get()));
        const QImage light = grabbed(widget.get(), view + QStringLiteral("-light"));
        QVERIFY2(dominant(light, light.rect()).lightnessF() > 0.5, qPrintable(dominant(light, light.rect()).name()));

        QApplication::setPalette(partialDarkPalette()); // at run time: the views are repainted, not rebuilt
        QVERIFY(follower.isDark());
        const QImage dark = grabbed(widget.get(), view + QStringLiteral("-dark"));
        const QColor background = dominant(dark, dark.rect());
        QVERIFY2(background.lightnessF() < 0.35, qPrintable(view + QStringLiteral(": background ") + background.name()));
        QVERIFY2(lightFraction(dark) < 0.15, qPrintable(view + QStringLiteral(": %1 of the picture is light").arg(lightFraction(dark))));
        // Text on the background reads by the contrast rule.
        if (view == QLatin1String("heatmap")) {
            const HeatmapLayout l = HeatmapLayout::compute(QRectF(widget->rect()), makeMatrix());
            for (const QRect area : {l.title.toAlignedRect(), QRect(0, l.grid.toAlignedRect().top(), int(l.grid.left()) - 2, int(l.grid.height()))}) {
                const QColor bg = dominant(dark, area);
                QVERIFY2(strongestContrast(dark, area, bg) >= 4.5, qPrintable(QStringLiteral("heatmap text on %1").arg(bg.name())));
            }
        } else if (view == QLatin1String("pageCanvas")) {
            auto *canvas = static_cast<PageCanvas *>(widget.get());
            QVERIFY(!canvas->labelChips().empty());
            int full = 0;
            for (const LabelChip &chip : canvas->labelChips()) {
                if (chip.collapsed)
                    continue;
                ++full;
                const QRect r = chip.rect.toAlignedRect().adjusted(1, 1, -1, -1);
                const QColor bg = dominant(dark, r);
                QVERIFY2(strongestContrast(dark, r, bg) >= 4.5, qPrintable(QStringLiteral("chip %1 on %2").arg(chip.text, bg.name())));
            }
            QVERIFY(full > 0);
            // The page itself (no scan): dark too, between the words.
            const QRect centre = widget->rect().adjusted(widget->width() / 3, widget->height() / 3, -widget->width() / 3, -widget->height() / 3);
            const QColor page = dominant(dark, centre);
            QVERIFY2(page.lightnessF() < 0.35, qPrintable(page.name()));
        } else {
            const QColor bg = background;
            QVERIFY2(strongestContrast(dark, dark.rect(), bg) >= 4.5, qPrintable(view + QStringLiteral(": no readable text on ") + bg.name()));
        }
        // And back: light again.
        QApplication::setPalette(m_light);
        const QImage again = grabbed(widget.get(), view + QStringLiteral("-light-again"));
        QVERIFY(dominant(again, again.rect()).lightnessF() > 0.5);
    }

    // The Head Grid's thumbnails (drawn off the GUI thread) are drawn again when the palette turns dark:
    // a head that looks only at the other word has its zero cells dark, not white.
    void headGridThumbnailsFollowTheChange()
    {
        PaletteFollower follower(qApp);
        const Document doc = formats::documentFromWords(QStringLiteral("hand.json"), {QStringLiteral("Name:"), QStringLiteral("Ada")},
                                                        {NormBox{0, 0, 100, 100}, NormBox{300, 400, 400, 500}});
        AttentionTrace t;
        t.modelType = QStringLiteral("hand");
        t.checkpoint = QStringLiteral("hand");
        t.documentId = attentionDocumentId(doc);
        const std::vector<float> p{0.5f, 0.5f, 0.5f, 0.5f, /**/ 0.f, 1.f, 1.f, 0.f, /**/ 0.9f, 0.1f, 0.1f, 0.9f};
        QString error;
        QVERIFY2(t.ingest(QStringLiteral("attentions.0"), {1, 3, 2, 2}, p.data(), {}, &error), qPrintable(error));
        t.tokenWord = {0, 1};
        t.tokenText = QStringList{QStringLiteral("Name:"), QStringLiteral("Ada")};
        QVERIFY2(t.finish(&error), qPrintable(error));
        AttentionViewModel model;
        model.setDocument(doc);
        QVERIFY2(model.setTrace(t, &error), qPrintable(error));
        HeadGridPanel grid;
        grid.setViewModel(&model);
        const auto ready = [&] { return QTest::qWaitFor([&] { return !grid.isComputing() && grid.view()->thumbnailCount() == grid.expectedThumbnailCount(); }, 20000); };
        QVERIFY(ready());
        const auto zeroCell = [&] { // head 1, row 0 looks at word 1 only: its top-left quarter is 0
            const QImage img = grid.view()->thumbnail(0, 1);
            return img.isNull() ? QColor() : QColor::fromRgb(img.pixel(img.width() / 4, img.height() / 4));
        };
        QVERIFY2(zeroCell().lightnessF() > 0.9, qPrintable(zeroCell().name()));
        QApplication::setPalette(partialDarkPalette());
        QVERIFY(ready());
        QTRY_VERIFY2(zeroCell().isValid() && zeroCell().lightnessF() < 0.25, qPrintable(zeroCell().name()));
        grid.view()->resize(grid.view()->sizeHint());
        grabbed(grid.view(), QStringLiteral("headGridThumbnails-dark"));
        QApplication::setPalette(m_light);
        QVERIFY(ready());
        QTRY_VERIFY2(zeroCell().lightnessF() > 0.9, qPrintable(zeroCell().name()));
    }

    // A suggested field value's grey is set on its table item: the Fields panel sets it again on a palette change.
    void fieldSuggestionGreyFollowsTheChange()
    {
        FieldsPanel panel;
        panel.setFields({QStringLiteral("date")});
        Annotations answers;
        FieldValue v;
        v.field = QStringLiteral("date");
        v.text = QStringLiteral("March 3");
        v.state = ReviewState::Suggested;
        v.source.kind = AnnotationSource::Model;
        v.confidence = 0.8;
        answers.fields.push_back(v);
        panel.setAnswers(answers);
        panel.show(); // in Folio it sits in a dock of the shown window
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const auto grey = [&] {
            const QTableWidgetItem *item = panel.table()->item(0, FieldsPanel::ValueColumn);
            return item ? item->foreground().color() : QColor();
        };
        QVERIFY2(contrastRatio(grey(), panel.table()->palette().color(QPalette::Base)) >= 4.5, qPrintable(grey().name()));
        QVERIFY(grey().lightnessF() < 0.5);
        QApplication::setPalette(partialDarkPalette()); // reaches a window with the next events
        QTRY_VERIFY2(grey().lightnessF() > 0.5, qPrintable(grey().name()));
        QVERIFY2(contrastRatio(grey(), panel.table()->palette().color(QPalette::Base)) >= 4.5, qPrintable(grey().name()));
    }
};

FOLIO_TEST_MAIN(TestDarkPalette)
#include "tst_darkpalette.moc"
