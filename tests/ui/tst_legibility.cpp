// Readable in a light and a dark palette (issue 50, ui/legibility.h): the WCAG contrast maths, the
// error red and the suggestion grey chosen for the palette, black or white text on every label colour, and the dialogs'
// error lines built under a dark palette (the one FOLIO_PALETTE=dark gives, app/gui/main.cpp).
#include "tests/common/testdata.h"
#include "ui/fields/fieldsetdialog.h"
#include "ui/labelcolors.h"
#include "ui/legibility.h"
#include "ui/training/datasetdialog.h"

#include <QApplication>
#include <QLabel>
#include <QPalette>
#include <QRegularExpression>
#include <QTest>

using namespace folio;

namespace {

QPalette paletteWithWindow(const QColor &window, const QColor &text)
{
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, window);
    p.setColor(QPalette::Text, text);
    return p;
}

QColor styleSheetColour(const QLabel *label)
{
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("color:\\s*(#[0-9a-fA-F]{6})")).match(label->styleSheet());
    return m.hasMatch() ? QColor(m.captured(1)) : QColor();
}

} // namespace

class TestLegibility : public QObject
{
    Q_OBJECT

    const QPalette m_light = paletteWithWindow(QColor(239, 239, 239), Qt::black);
    const QPalette m_dark = paletteWithWindow(QColor(45, 45, 48), QColor(230, 230, 230));

private Q_SLOTS:
    void contrastMaths()
    {
        QVERIFY(qAbs(contrastRatio(Qt::black, Qt::white) - 21.0) < 0.01);
        QVERIFY(qAbs(contrastRatio(QColor(120, 30, 200), QColor(120, 30, 200)) - 1.0) < 1e-9);
        QCOMPARE(contrastRatio(Qt::red, Qt::white), contrastRatio(Qt::white, Qt::red));
        QVERIFY(qAbs(contrastRatio(QColor(0x76, 0x76, 0x76), Qt::white) - 4.54) < 0.02); // WCAG's reference grey
        QVERIFY(!isDarkPalette(m_light));
        QVERIFY(isDarkPalette(m_dark));
    }

    void errorRedReadsOnBoth()
    {
        for (const QPalette &p : {m_light, m_dark}) {
            const double c = contrastRatio(errorTextColor(p), p.color(QPalette::Window));
            QVERIFY2(c >= 4.5, qPrintable(QStringLiteral("%1 on %2: %3").arg(errorTextColor(p).name(), p.color(QPalette::Window).name()).arg(c)));
        }
        for (const QPalette &p : {m_light, m_dark}) {
            const double c = contrastRatio(secondaryTextColor(p), p.color(QPalette::Base));
            QVERIFY2(c >= 4.5, qPrintable(QStringLiteral("secondary %1 on %2: %3").arg(secondaryTextColor(p).name(), p.color(QPalette::Base).name()).arg(c)));
        }
        // The old fixed red was not readable on the dark window.
        QVERIFY(contrastRatio(QColor(0xb0, 0x00, 0x20), m_dark.color(QPalette::Window)) < 3.0);
    }

    void textOnEveryLabelColour()
    {
        const QStringList labels{QStringLiteral("HEADER"), QStringLiteral("QUESTION"), QStringLiteral("ANSWER"), QStringLiteral("OTHER"),
                                 QStringLiteral("price"), QStringLiteral("currency"), QStringLiteral("sku"), QStringLiteral("name"),
                                 QStringLiteral("brand"), QStringLiteral("availability"), QStringLiteral("gtin"), QStringLiteral("mpn")};
        for (const QString &l : labels) {
            const QColor bg = labelColor(l);
            QVERIFY2(contrastRatio(textColorOn(bg), bg) >= 4.5, qPrintable(l));
        }
        for (int h = 0; h < 360; h += 15)
            for (int v = 0; v <= 255; v += 51) {
                const QColor bg = QColor::fromHsv(h, 200, v);
                QVERIFY2(contrastRatio(textColorOn(bg), bg) >= 4.5, qPrintable(bg.name()));
            }
        QCOMPARE(textColorOn(Qt::yellow), QColor(Qt::black));
        QCOMPARE(textColorOn(Qt::darkBlue), QColor(Qt::white));
    }

    void dialogsUnderADarkPalette()
    {
        const QPalette before = QApplication::palette();
        QApplication::setPalette(m_dark);
        FieldSetDialog fields({});
        DatasetDialog dataset(DatasetDialog::Direction::Import, QString());
        QApplication::setPalette(before);
        int checked = 0;
        for (QWidget *dialog : std::initializer_list<QWidget *>{&fields, &dataset})
            for (QLabel *label : dialog->findChildren<QLabel *>()) {
                const QColor c = styleSheetColour(label);
                if (!c.isValid())
                    continue;
                ++checked;
                QVERIFY2(contrastRatio(c, m_dark.color(QPalette::Window)) >= 4.5, qPrintable(label->objectName() + c.name()));
            }
        QCOMPARE(checked, 2);
    }
};

FOLIO_TEST_MAIN(TestLegibility)
#include "tst_legibility.moc"
