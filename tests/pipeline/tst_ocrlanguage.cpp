// The OCR language of a scan: the guess from a first pass's words (pipeline/ocrlanguage.h) on real
// FUNSD (English) and XFUND (German) forms, and "auto" through the real Tesseract on a German page
// painted here: read again in German, its umlauts kept, the choice named in the load's notes.
#include "document/formats/funsd.h"
#include "document/formats/xfund.h"
#include "ocr/ocr.h"
#include "pipeline/documentsource.h"
#include "pipeline/ocrlanguage.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFont>
#include <QImage>
#include <QPainter>
#include <QRegularExpression>
#include <QtTest>

using namespace folio;
using namespace folio::pipeline;

namespace {

QStringList wordsOf(const Document &document)
{
    QStringList words;
    for (const Word &w : document.words)
        words.push_back(w.text);
    return words;
}

QStringList split(const char *text)
{
    return QString::fromUtf8(text).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

// A German letter, painted large and black on white at 300 dpi (A4), Tesseract reads it well.
bool paintGermanLetter(const QString &path)
{
    QImage page(2480, 3508, QImage::Format_RGB32);
    page.fill(Qt::white);
    QPainter painter(&page);
    painter.setPen(Qt::black);
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(52);
    painter.setFont(font);
    const QStringList lines = {
        QStringLiteral("Antrag auf Erstattung der Reisekosten"),
        QStringLiteral("Bitte füllen Sie das Formular vollständig aus und senden Sie es an die"),
        QStringLiteral("Personalabteilung. Die Erstattung erfolgt nach der Prüfung durch die"),
        QStringLiteral("Abteilung für Finanzen und wird auf Ihr Konto überwiesen."),
        QStringLiteral("Name des Mitarbeiters: Jürgen Weiß"),
        QStringLiteral("Straße und Hausnummer: Münchener Straße 12"),
        QStringLiteral("Datum der Reise: 14. März 2024"),
        QStringLiteral("Zweck der Reise: Besuch bei einem Kunden in Köln"),
        QStringLiteral("Die Kosten für die Übernachtung sind mit der Rechnung nachzuweisen."),
        QStringLiteral("Ich bestätige, dass die Angaben richtig und vollständig sind."),
    };
    int y = 300;
    for (const QString &line : lines) {
        painter.drawText(200, y, line);
        y += 110;
    }
    painter.end();
    return page.save(path);
}

} // namespace

class TestOcrLanguage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void guessesFromFunctionWords()
    {
        QCOMPARE(guessOcrLanguage(split("Please return the form to the office of the director with your "
                                        "signature and the date of the meeting")).language,
                 QStringLiteral("eng"));
        QCOMPARE(guessOcrLanguage(split("Bitte senden Sie das Formular mit der Unterschrift an die Abteilung "
                                        "und geben Sie das Datum der Sitzung an")).language,
                 QStringLiteral("deu"));
        // German read by an English pass: umlauts lost, function words survive.
        QCOMPARE(guessOcrLanguage(split("Bitte fullen Sie das Formular vollstandig aus und senden Sie es an die "
                                        "Personalabteilung fur die Prufung")).language,
                 QStringLiteral("deu"));
    }

    void undecidedWithoutEnoughText()
    {
        const OcrLanguageGuess few = guessOcrLanguage(split("der die das und"));
        QVERIFY(few.language.isEmpty());
        QCOMPARE(few.words, 4);
        QVERIFY(guessOcrLanguage({}).language.isEmpty());
        // Numbers and codes only (a table of figures): no language to tell.
        QVERIFY(guessOcrLanguage(split("12,50 € 3 x 4.00 7% 19% 0,75 1.234 2024-03-14 A-17 #42 88 99 100")).language.isEmpty());
    }

    void realFormsOfBothLanguages()
    {
        const QString funsdDir = test::sharedPath(QStringLiteral("data/funsd/dataset/testing_data/annotations"));
        const QString xfundFile = test::sharedPath(QStringLiteral("data/xfund-de/de.val.json"));
        FOLIO_REQUIRE_DATA(funsdDir);
        FOLIO_REQUIRE_DATA(xfundFile);
        // Every FUNSD test form with enough words reads English; none reads German.
        int english = 0, decided = 0, german = 0;
        const QStringList files = QDir(funsdDir).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        for (const QString &f : files) {
            Document form;
            Annotations annotations;
            QString error;
            QVERIFY2(importFunsdFile(funsdDir + QLatin1Char('/') + f, FunsdWordOrder::Annotation, &form, &annotations, &error),
                     qPrintable(error));
            const OcrLanguageGuess g = guessOcrLanguage(wordsOf(form));
            decided += !g.language.isEmpty();
            english += g.language == QLatin1String("eng");
            german += g.language == QLatin1String("deu");
        }
        QCOMPARE(german, 0);
        QVERIFY2(english >= decided * 9 / 10 && decided >= int(files.size()) * 8 / 10,
                 qPrintable(QStringLiteral("%1 of %2 FUNSD forms decided, %3 English").arg(decided).arg(files.size()).arg(english)));
        // XFUND German validation forms read German; none reads English.
        std::vector<XfundPage> pages;
        XfundReport report;
        QString error;
        QVERIFY2(importXfundFile(xfundFile, FunsdWordOrder::Annotation, &pages, &report, &error), qPrintable(error));
        int deu = 0, eng = 0;
        for (const XfundPage &p : pages) {
            const OcrLanguageGuess g = guessOcrLanguage(wordsOf(p.document));
            deu += g.language == QLatin1String("deu");
            eng += g.language == QLatin1String("eng");
        }
        // A few XFUND "German" forms are English forms (de_val_12, _34 and _35: "Please ... the date of"):
        // those read English, rightly.
        QVERIFY2(eng <= int(pages.size()) / 10, qPrintable(QStringLiteral("%1 XFUND forms read English").arg(eng)));
        QVERIFY2(deu >= int(pages.size()) * 8 / 10, qPrintable(QStringLiteral("%1 of %2 XFUND forms read German").arg(deu).arg(pages.size())));
    }

    void autoReadsAGermanPageInGerman()
    {
        QVERIFY2(ocr::checkLanguages(QStringLiteral("eng+deu")).isEmpty(),
                 qPrintable(ocr::checkLanguages(QStringLiteral("eng+deu")) + QStringLiteral(" (scripts/setup.sh installs tesseract-ocr-deu)")));
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("antrag.png"));
        QVERIFY(paintGermanLetter(png));

        LoadOptions english;
        english.ocrLanguages = QStringLiteral("eng");
        const LoadedDocument asEnglish = loadDocumentFile(png, english);
        QVERIFY2(asEnglish.ok, qPrintable(asEnglish.error));
        QVERIFY(!asEnglish.warnings.join(QLatin1Char(' ')).contains(QStringLiteral("deu")));

        LoadOptions automatic;
        automatic.ocrLanguages = autoOcrLanguages();
        double lastProgress = 0;
        bool monotonic = true;
        QStringList seen;
        automatic.progress = [&](double f) {
            seen.push_back(QString::number(f));
            monotonic = monotonic && f + 1e-9 >= lastProgress && f <= 1.0 + 1e-9;
            lastProgress = f;
        };
        const LoadedDocument asAuto = loadDocumentFile(png, automatic);
        QVERIFY2(asAuto.ok, qPrintable(asAuto.error));
        QVERIFY2(asAuto.warnings.join(QLatin1Char(' ')).contains(QStringLiteral("German (deu)")), qPrintable(asAuto.warnings.join(QLatin1Char('|'))));
        QVERIFY2(monotonic, qPrintable(seen.join(QLatin1Char(' '))));
        QCOMPARE(lastProgress, 1.0);
        const QString text = wordsOf(asAuto.document).join(QLatin1Char(' '));
        // The German pass keeps what the English one loses.
        int umlautWords = 0;
        for (const QString &w : wordsOf(asAuto.document))
            umlautWords += w.contains(QRegularExpression(QStringLiteral("[äöüÄÖÜß]")));
        QVERIFY2(umlautWords >= 10, qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("für")) && text.contains(QStringLiteral("Straße")), qPrintable(text));
        int englishUmlauts = 0;
        for (const QString &w : wordsOf(asEnglish.document))
            englishUmlauts += w.contains(QRegularExpression(QStringLiteral("[äöüÄÖÜß]")));
        QVERIFY2(englishUmlauts < umlautWords, qPrintable(QStringLiteral("%1 vs %2").arg(englishUmlauts).arg(umlautWords)));
    }

    void autoLeavesAnEnglishPageAlone()
    {
        const QString form = QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/sample-form.png");
        LoadOptions automatic;
        automatic.ocrLanguages = autoOcrLanguages();
        const LoadedDocument loaded = loadDocumentFile(form, automatic);
        QVERIFY2(loaded.ok, qPrintable(loaded.error));
        QVERIFY(!loaded.warnings.join(QLatin1Char(' ')).contains(QStringLiteral("deu")));
        QVERIFY(loaded.document.words.size() > 20);
    }
};

FOLIO_TEST_MAIN(TestOcrLanguage)
#include "tst_ocrlanguage.moc"
