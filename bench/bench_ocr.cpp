// bench_ocr: Folio's OCR against the `tesseract` command, in the same run.
//
//   bench_ocr speed [REPS]    pages/s of runOcr() vs `tesseract IMG - --psm 3 tsv` (OMP_THREAD_LIMIT=1),
//                             interleaved per repetition, on single images and on a 4-page TIFF made
//                             of FUNSD test forms (1 worker vs one per core).
//   bench_ocr accuracy        word precision/recall: FUNSD test forms (box IoU >= 0.5 and same text,
//                             one-to-one) and tesseract-testing (bag of words against the .txt truth).
// Data comes from ../shared/data (FOLIO_SHARED_DIR).
#include "document/boxgeometry.h"
#include "ocr/ocr.h"
#include "tests/ocr/testfiles.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QGuiApplication>
#include <QHash>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>

#include <cstdio>

using namespace folio;

static const QString kShared = QStringLiteral(FOLIO_SHARED_DIR);

static double runTesseract(const QString &image)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("OMP_THREAD_LIMIT"), QStringLiteral("1"));
    p.setProcessEnvironment(env);
    QElapsedTimer t;
    t.start();
    p.start(QStringLiteral("tesseract"), {image, QStringLiteral("-"), QStringLiteral("--psm"), QStringLiteral("3"), QStringLiteral("tsv")});
    p.waitForFinished(-1);
    return t.nsecsElapsed() / 1e9;
}

static double runFolio(const QString &image, int workers, int *pages = nullptr)
{
    ocr::OcrOptions o;
    o.workers = workers;
    QElapsedTimer t;
    t.start();
    const ocr::OcrResult r = ocr::runOcr(image, o);
    const double s = t.nsecsElapsed() / 1e9;
    if (!r.ok)
        std::fprintf(stderr, "bench_ocr: %s\n", qPrintable(r.error));
    if (pages)
        *pages = int(r.document.pages.size());
    return s;
}

static int speed(int reps)
{
    const QString t = kShared + QStringLiteral("/data/tesseract-testing/testing/");
    const QString f = kShared + QStringLiteral("/data/funsd/dataset/testing_data/images/");
    const QStringList images = {t + "phototest.tif", t + "eurotext.tif", f + "82092117.png", t + "8087_054.3B.tif"};
    std::printf("| image | tesseract s/page | folio s/page | folio/tesseract time |\n|---|---|---|---|\n");
    for (const QString &img : images) {
        double tt = 0, ft = 0;
        runFolio(img, 1); // warm caches
        for (int i = 0; i < reps; ++i) {
            tt += runTesseract(img);
            ft += runFolio(img, 1);
        }
        std::printf("| %s | %.3f | %.3f | %.3f |\n", qPrintable(QFileInfo(img).fileName()), tt / reps, ft / reps, ft / tt);
        std::fflush(stdout);
    }
    // Multi-page: 4 FUNSD forms in one TIFF; tesseract (one process, sequential) vs folio 1 and N workers.
    QTemporaryDir dir;
    const QString tiff = dir.filePath(QStringLiteral("four.tif"));
    QList<QImage> pages;
    const QStringList names = QDir(f).entryList({QStringLiteral("*.png")}, QDir::Files, QDir::Name).mid(0, 4);
    for (const QString &n : names)
        pages << QImage(f + n);
    testfiles::writeMultipageTiff(tiff, pages, 100);
    double tt = 0, f1 = 0, fn = 0;
    int n = 0;
    for (int i = 0; i < reps; ++i) {
        tt += runTesseract(tiff);
        f1 += runFolio(tiff, 1, &n);
        fn += runFolio(tiff, 0);
    }
    std::printf("\n| 4-page TIFF | pages/s |\n|---|---|\n| tesseract (1 process) | %.2f |\n| folio, 1 worker | %.2f |\n"
                "| folio, %d workers | %.2f |\n\nspeed-up of all cores over 1 worker: %.2fx (%d pages)\n",
                4 * reps / tt, 4 * reps / f1, QThread::idealThreadCount(), 4 * reps / fn, f1 / fn, n);
    return 0;
}

struct Counts
{
    long truth = 0, found = 0, matched = 0;
    void print(const char *name) const
    {
        const double p = found ? double(matched) / found : 0, r = truth ? double(matched) / truth : 0;
        std::printf("| %s | %ld | %ld | %ld | %.3f | %.3f | %.3f |\n", name, truth, found, matched, p, r,
                    p + r > 0 ? 2 * p * r / (p + r) : 0);
    }
};

static int accuracy()
{
    std::printf("| data set | truth words | OCR words | matched | precision | recall | F1 |\n|---|---|---|---|---|---|---|\n");
    // FUNSD test: words and boxes from the annotations; one-to-one greedy match, IoU >= 0.5, same text.
    const QString base = kShared + QStringLiteral("/data/funsd/dataset/testing_data/");
    Counts funsd;
    for (const QString &ann : QDir(base + "annotations").entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        QFile file(base + "annotations/" + ann);
        file.open(QIODevice::ReadOnly);
        struct Truth { QString text; QRectF box; bool used = false; };
        std::vector<Truth> truth;
        for (const QJsonValue &e : QJsonDocument::fromJson(file.readAll()).object().value("form").toArray())
            for (const QJsonValue &w : e.toObject().value("words").toArray()) {
                const QJsonArray b = w.toObject().value("box").toArray();
                const QString text = w.toObject().value("text").toString().trimmed();
                if (text.isEmpty())
                    continue;
                truth.push_back({text, QRectF(QPointF(b[0].toDouble(), b[1].toDouble()), QPointF(b[2].toDouble(), b[3].toDouble()))});
            }
        const ocr::OcrResult r = ocr::runOcr(base + "images/" + QFileInfo(ann).completeBaseName() + ".png");
        if (!r.ok) {
            std::fprintf(stderr, "%s\n", qPrintable(r.error));
            continue;
        }
        funsd.truth += long(truth.size());
        funsd.found += long(r.document.words.size());
        for (const Word &w : r.document.words)
            for (Truth &t : truth)
                if (!t.used && t.text == w.text && boxIoU(t.box, w.box) >= 0.5) {
                    t.used = true;
                    ++funsd.matched;
                    break;
                }
    }
    funsd.print("FUNSD test (50 forms, IoU>=0.5 + text)");
    // tesseract-testing: ground truth is text only, so words are matched as a multiset.
    const QString t = kShared + QStringLiteral("/data/tesseract-testing/testing/");
    Counts all;
    for (const char *name : {"phototest", "eurotext", "8071_093.3B", "8087_054.3B"}) {
        QFile truthFile(t + name + ".txt");
        truthFile.open(QIODevice::ReadOnly);
        QHash<QString, int> bag;
        Counts c;
        for (const QString &w : QString::fromUtf8(truthFile.readAll()).split(QRegularExpression("\\s+"), Qt::SkipEmptyParts)) {
            ++bag[w];
            ++c.truth;
        }
        const ocr::OcrResult r = ocr::runOcr(t + name + ".tif");
        for (const Word &w : r.document.words) {
            ++c.found;
            if (bag.value(w.text) > 0) {
                --bag[w.text];
                ++c.matched;
            }
        }
        c.print(qPrintable(QStringLiteral("tesseract-testing %1 (text only)").arg(name)));
        all.truth += c.truth;
        all.found += c.found;
        all.matched += c.matched;
    }
    all.print("tesseract-testing, all 4 pages");
    return 0;
}

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
    QGuiApplication app(argc, argv);
    const QStringList args = app.arguments();
    const QString mode = args.value(1, QStringLiteral("speed"));
    if (mode == QLatin1String("accuracy"))
        return accuracy();
    return speed(args.value(2, QStringLiteral("3")).toInt());
}
