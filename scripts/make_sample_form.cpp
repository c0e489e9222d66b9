// Build: g++ -std=c++17 -fPIC scripts/make_sample_form.cpp $(pkg-config --cflags --libs Qt6Gui) -o /tmp/mkform
// Run:   QT_QPA_PLATFORM=offscreen /tmp/mkform resources/samples/sample-form.png
// Draws Folio's bundled sample form (resources/samples/sample-form.png): a one-page fax-style
// request form written for Folio, rendered like a 150-dpi grey scan. Run once; output committed.
#include <QFont>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QRandomGenerator>

int main(int argc, char **argv)
{
    QGuiApplication app(argc, argv);
    QImage img(1275, 1650, QImage::Format_RGB32); // US letter at 150 dpi
    img.fill(QColor(250, 250, 247));
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    auto text = [&](int x, int y, const QString &s, int size, bool bold = false) {
        QFont f(QStringLiteral("DejaVu Sans"));
        f.setPixelSize(size);
        f.setBold(bold);
        p.setFont(f);
        p.setPen(QColor(25, 25, 30));
        p.drawText(x, y, s);
    };
    auto line = [&](int x0, int y, int x1) { p.setPen(QPen(QColor(60, 60, 60), 2)); p.drawLine(x0, y, x1, y); };
    text(330, 140, QStringLiteral("NORTHWIND RESEARCH LABORATORY"), 38, true);
    text(440, 195, QStringLiteral("Sample Request Form"), 30, true);
    line(100, 230, 1175);
    struct Row { const char *q; const char *a; } rows[] = {
        {"Date:", "March 14, 2026"},
        {"To:", "Dr. Helen Okafor, Analytical Chemistry"},
        {"From:", "James Whitfield, Product Development"},
        {"Project Number:", "NR-4471-B"},
        {"Phone:", "(555) 014-2283"},
        {"Number of Samples:", "12"},
        {"Sample Type:", "Coated paper, batch 7"},
        {"Requested Tests:", "Moisture content and tensile strength"},
        {"Due Date:", "April 2, 2026"},
    };
    int y = 320;
    for (const Row &r : rows) {
        text(110, y, QString::fromLatin1(r.q), 28, true);
        text(470, y, QString::fromLatin1(r.a), 28);
        line(460, y + 10, 1150);
        y += 85;
    }
    text(110, y + 40, QStringLiteral("COMMENTS"), 30, true);
    line(100, y + 55, 1175);
    text(110, y + 110, QStringLiteral("Please return the remaining material after testing."), 26);
    text(110, y + 155, QStringLiteral("Results should be sent to the project file."), 26);
    text(110, 1530, QStringLiteral("Signature:"), 28, true);
    line(290, 1540, 700);
    text(760, 1530, QStringLiteral("Approved:"), 28, true);
    line(920, 1540, 1150);
    p.end();
    // A little scanner noise.
    auto *rng = QRandomGenerator::global();
    for (int i = 0; i < 6000; ++i) {
        const int x = rng->bounded(img.width()), yy = rng->bounded(img.height());
        const int v = 150 + rng->bounded(100);
        img.setPixel(x, yy, qRgb(v, v, v));
    }
    img.convertToFormat(QImage::Format_Grayscale8).save(QString::fromLocal8Bit(argv[1]));
    return 0;
}
