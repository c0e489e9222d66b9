// Test helper for tst_projectcrash and tst_projectconcurrency: opens a project and saves ever
// larger annotations for document DOC (default 1), printing "saved <n>" after each save returned.
// tst_projectcrash kills it with SIGKILL; tst_projectconcurrency runs two at once.
#include "document/project/project.h"
#include "projecttestdata.h"

#include <QCoreApplication>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s PROJECT COUNT [DOC]\n", argv[0]);
        return 2;
    }
    QString error;
    auto project = folio::Project::open(QString::fromLocal8Bit(argv[1]), &error);
    if (!project) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    const qint64 id = argc > 3 ? QByteArray(argv[3]).toLongLong() : 1;
    folio::Document doc;
    folio::Annotations ann;
    if (!project->loadDocument(id, &doc, &ann, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    const int count = QByteArray(argv[2]).toInt();
    for (int n = 1; n <= count; ++n) {
        if (!project->saveAnnotations(id, folio::test::makeAnnotations(doc, n), &error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        std::printf("saved %d\n", n);
        std::fflush(stdout);
    }
    return 0;
}
