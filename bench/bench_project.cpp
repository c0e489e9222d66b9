// bench_project: the project store against a plain-JSON-files baseline, on the same data.
//
// 200 synthetic one-page documents (300 words, 60 entities, 20 links each; FUNSD-sized) are
// written once into a .folio project and once as 200 Document JSON files. Then, for both:
//   open      open the project and list every document with status and counts
//             (baseline: read and parse every file, which is what a list needs)
//   switch    load one document + its annotations (mean over all 200)
//   edit      save one changed annotation set durably (mean over 200 edits; baseline: rewrite
//             the document's JSON file atomically with QSaveFile, which fsyncs)
//   export    200 documents to HF JSONL and Label Studio
// Usage: bench_project [documents=200]
#include "document/documentjson.h"
#include "document/formats/datasetformat.h"
#include "document/project/project.h"
#include "document/project/projectio.h"
#include "document/wordnodes.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSaveFile>
#include <QTemporaryDir>

#include <cstdio>

using namespace folio;

static Document makeDocument(int index, int words)
{
    Document doc;
    doc.sourcePath = QStringLiteral("/data/scans/form%1.png").arg(index, 4, 10, QLatin1Char('0'));
    doc.kind = SourceKind::Image;
    Page page;
    page.size = QSizeF(1700, 2200);
    page.imagePath = doc.sourcePath;
    doc.pages.push_back(page);
    addRootNode(doc);
    for (int i = 0; i < words; ++i) {
        Word w;
        w.id = QStringLiteral("w%1").arg(i);
        w.text = QStringLiteral("token%1").arg(i * 7 % 1000);
        w.box = QRectF(40 + (i % 12) * 135, 60 + (i / 12) * 80, 120, 40);
        w.confidence = 90;
        appendWordWithNode(doc, w, 0);
    }
    doc.normaliseWordBoxes();
    return doc;
}

static Annotations makeAnnotations(const Document &doc, int entities, int variant)
{
    static const char *labels[] = {"QUESTION", "ANSWER", "HEADER", "OTHER"};
    Annotations a;
    const int per = int(doc.words.size()) / entities;
    for (int e = 0; e < entities; ++e) {
        Entity en;
        en.id = QStringLiteral("e%1").arg(e);
        en.label = QString::fromLatin1(labels[(e + variant) % 4]);
        for (int k = 0; k < per; ++k)
            en.wordIds << doc.words[size_t(e * per + k)].id;
        if (e % 5 == 4) {
            en.source.kind = AnnotationSource::Model;
            en.source.checkpoint = QStringLiteral("layoutlmv3-funsd");
            en.confidence = 0.7;
            en.state = ReviewState::Suggested;
        }
        a.entities.push_back(en);
        if (e % 3 == 1) {
            Link l;
            l.id = QStringLiteral("l%1").arg(e);
            l.from = QStringLiteral("e%1").arg(e - 1);
            l.to = en.id;
            a.links.push_back(l);
        }
    }
    return a;
}

static double ms(const QElapsedTimer &t) { return double(t.nsecsElapsed()) / 1e6; }

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int n = argc > 1 ? QByteArray(argv[1]).toInt() : 200;
    QTemporaryDir dir;
    const QString projectPath = dir.filePath(QStringLiteral("bench.folio"));
    const QString jsonDir = dir.filePath(QStringLiteral("json"));
    QDir().mkpath(jsonDir);
    QString error;

    std::vector<NewProjectDocument> docs(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        docs[size_t(i)].document = makeDocument(i, 300);
        docs[size_t(i)].annotations = makeAnnotations(docs[size_t(i)].document, 60, 0);
    }
    QElapsedTimer t;
    t.start();
    std::vector<qint64> ids;
    {
        auto p = Project::create(projectPath, &error);
        if (!p || !p->addDocuments(docs, &ids, &error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
    }
    const double createMs = ms(t);
    t.restart();
    for (int i = 0; i < n; ++i) {
        QSaveFile f(QDir(jsonDir).filePath(QStringLiteral("%1.json").arg(i)));
        f.open(QIODevice::WriteOnly);
        f.write(documentToJson(docs[size_t(i)].document, &docs[size_t(i)].annotations, false));
        f.commit();
    }
    const double createJsonMs = ms(t);
    std::printf("documents: %d x 300 words, 60 entities; project file %.1f MB\n", n,
                QFileInfo(projectPath).size() / 1e6);
    std::printf("%-34s %12s %12s\n", "operation", "project", "JSON files");
    std::printf("%-34s %10.1f ms %10.1f ms\n", "create (bulk add)", createMs, createJsonMs);

    // open + list
    t.restart();
    auto p = Project::open(projectPath, &error);
    const auto list = p->documents();
    const double openMs = ms(t);
    t.restart();
    int statusCount = 0;
    for (int i = 0; i < n; ++i) {
        Document d;
        Annotations a;
        readDocumentJsonFile(QDir(jsonDir).filePath(QStringLiteral("%1.json").arg(i)), &d, &a, &error);
        statusCount += int(a.entities.size());
    }
    const double openJsonMs = ms(t);
    std::printf("%-34s %10.1f ms %10.1f ms\n", "open + list 200 documents", openMs, openJsonMs);

    // switch document
    t.restart();
    for (qint64 id : ids) {
        Document d;
        Annotations a;
        p->loadDocument(id, &d, &a, &error);
    }
    const double switchMs = ms(t) / n;
    t.restart();
    for (int i = 0; i < n; ++i) {
        Document d;
        Annotations a;
        readDocumentJsonFile(QDir(jsonDir).filePath(QStringLiteral("%1.json").arg(i)), &d, &a, &error);
    }
    const double switchJsonMs = ms(t) / n;
    std::printf("%-34s %10.2f ms %10.2f ms\n", "switch document (mean)", switchMs, switchJsonMs);

    // edit: save a changed annotation set durably
    t.restart();
    for (int i = 0; i < n; ++i)
        if (!p->saveAnnotations(ids[size_t(i)], makeAnnotations(docs[size_t(i)].document, 60, 1), &error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
    const double editMs = ms(t) / n;
    t.restart();
    for (int i = 0; i < n; ++i) {
        const Annotations a = makeAnnotations(docs[size_t(i)].document, 60, 1);
        QSaveFile f(QDir(jsonDir).filePath(QStringLiteral("%1.json").arg(i)));
        f.open(QIODevice::WriteOnly);
        f.write(documentToJson(docs[size_t(i)].document, &a, false));
        f.commit();
    }
    const double editJsonMs = ms(t) / n;
    std::printf("%-34s %10.2f ms %10.2f ms\n", "apply an edit, durable (mean)", editMs, editJsonMs);

    // export
    for (const char *fmt : {"hfjsonl", "labelstudio"}) {
        const QString outA = dir.filePath(QStringLiteral("out-project-%1").arg(QLatin1String(fmt)));
        const QString outB = dir.filePath(QStringLiteral("out-json-%1").arg(QLatin1String(fmt)));
        auto format = createDatasetFormat(QLatin1String(fmt));
        t.restart();
        std::vector<DatasetItem> items;
        projectItems(*p, {}, &items, &error);
        format->exportItems(items, outA, {}, nullptr, &error);
        const double exportMs = ms(t);
        t.restart();
        std::vector<DatasetItem> items2(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) {
            items2[size_t(i)].name = QString::number(i);
            readDocumentJsonFile(QDir(jsonDir).filePath(QStringLiteral("%1.json").arg(i)), &items2[size_t(i)].document,
                                 &items2[size_t(i)].annotations, &error);
        }
        format->exportItems(items2, outB, {}, nullptr, &error);
        const double exportJsonMs = ms(t);
        std::printf("%-34s %10.1f ms %10.1f ms\n", qPrintable(QStringLiteral("export 200 docs, %1").arg(QLatin1String(fmt))),
                    exportMs, exportJsonMs);
    }
    (void)list;
    (void)statusCount;
    return 0;
}
