// bench_project_backends: the project store on PostgreSQL against SQLite, same data, same run.
//
// Starts a private PostgreSQL server (tests/common/postgresserver.h: initdb + pg_ctl in a
// temporary folder, unix socket only), then for a SQLite .folio file and a PostgreSQL database:
//   create     bulk add N one-page documents (100 words, 10 entities each) in batches of 500
//   open+list  open the project and list every document with its status and counts
//   round trip load one document with its annotations, save a changed set durably, load it
//              again (what an annotator's edit costs; mean over 200 documents spread over the set)
// and prints each with the PostgreSQL / SQLite ratio. Usage: bench_project_backends [N=10000]
#include "document/project/project.h"
#include "tests/common/postgresserver.h"
#include "tests/document/projecttestdata.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <cstdio>
#include <vector>

using namespace folio;

namespace {

struct Timings
{
    double createMs = 0, openListMs = 0, roundTripMs = 0;
    qsizetype listed = 0;
};

double elapsedMs(const QElapsedTimer &t) { return double(t.nsecsElapsed()) / 1e6; }

bool measure(const QString &location, int n, Timings *out, QString *error)
{
    QElapsedTimer t;
    t.start();
    std::vector<qint64> ids;
    {
        auto p = Project::create(location, error);
        if (!p)
            return false;
        const int batch = 500;
        for (int start = 0; start < n; start += batch) {
            std::vector<NewProjectDocument> docs;
            for (int i = start; i < std::min(n, start + batch); ++i) {
                NewProjectDocument d;
                d.document = test::makeDocument(QStringLiteral("/data/scans/form%1.png").arg(i), 100);
                d.annotations = test::makeAnnotations(d.document, 10);
                docs.push_back(std::move(d));
            }
            std::vector<qint64> added;
            if (!p->addDocuments(docs, &added, error))
                return false;
            ids.insert(ids.end(), added.begin(), added.end());
        }
    }
    out->createMs = elapsedMs(t);

    t.restart();
    auto p = Project::open(location, error);
    if (!p)
        return false;
    out->listed = qsizetype(p->documents().size());
    out->openListMs = elapsedMs(t);

    const int edits = 200;
    t.restart();
    for (int k = 0; k < edits; ++k) {
        const qint64 id = ids[size_t((long long)k * n / edits)];
        Document doc;
        Annotations a;
        if (!p->loadDocument(id, &doc, &a, error) || !p->saveAnnotations(id, test::makeAnnotations(doc, 12), error)
            || !p->loadAnnotations(id, &a, error))
            return false;
    }
    out->roundTripMs = elapsedMs(t) / edits;
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int n = argc > 1 ? QByteArray(argv[1]).toInt() : 10000;
    QString error;
    test::PostgresServer server;
    if (!server.start(&error)) {
        std::fprintf(stderr, "PostgreSQL: %s\n", qPrintable(error));
        return 1;
    }
    const QString url = server.createDatabase(QStringLiteral("bench"), &error);
    QTemporaryDir dir;
    Timings sqlite, postgres;
    if (url.isEmpty() || !measure(dir.filePath(QStringLiteral("bench.folio")), n, &sqlite, &error)
        || !measure(url, n, &postgres, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    std::printf("documents: %d (100 words, 10 entities each); listed %lld / %lld\n", n, (long long)sqlite.listed,
                (long long)postgres.listed);
    std::printf("%-40s %12s %12s %8s\n", "operation", "SQLite", "PostgreSQL", "PG/SQL");
    const auto row = [](const char *what, double a, double b) {
        std::printf("%-40s %9.2f ms %9.2f ms %7.2fx\n", what, a, b, b / a);
    };
    row("create (bulk add, batches of 500)", sqlite.createMs, postgres.createMs);
    row("open + list all documents", sqlite.openListMs, postgres.openListMs);
    row("edit round trip: load, save, reload (mean)", sqlite.roundTripMs, postgres.roundTripMs);
    return 0;
}
