// Test helper for tst_projectcrash: opens a project and saves ever larger annotations for
// document 1, printing "saved <n>" after each save returned. The test kills it with SIGKILL.
#include "document/project/project.h"
#include "projecttestdata.h"

#include <QCoreApplication>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s PROJECT COUNT\n", argv[0]);
        return 2;
    }
    QString error;
    auto project = folio::Project::open(QString::fromLocal8Bit(argv[1]), &error);
    if (!project) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    folio::Document doc;
    folio::Annotations ann;
    if (!project->loadDocument(1, &doc, &ann, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    const int count = QByteArray(argv[2]).toInt();
    for (int n = 1; n <= count; ++n) {
        if (!project->saveAnnotations(1, folio::test::makeAnnotations(doc, n), &error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        std::printf("saved %d\n", n);
        std::fflush(stdout);
    }
    return 0;
}
