// Test helper for tst_qseditor's kill -9 test: opens a project in an AnnotationSession and adds
// question-summary items one undoable edit at a time (the editor's path: pushQsEdit, saved at
// once), printing "saved <n>" after each edit returned. The test kills it with SIGKILL.
#include "document/project/project.h"
#include "document/qstree.h"
#include "ui/annotation/annotationsession.h"
#include "ui/commands/qscommands.h"

#include <QGuiApplication>

#include <cstdio>
#include <cstdlib>

static int die(const QString &message, int code = 1)
{
    std::fprintf(stderr, "%s\n", qPrintable(message));
    std::exit(code);
}

int main(int argc, char **argv)
{
    QGuiApplication app(argc, argv);
    if (argc < 3)
        return die(QStringLiteral("usage: qseditorcrashhelper PROJECT COUNT"), 2);
    QString error;
    auto project = folio::Project::open(QString::fromLocal8Bit(argv[1]), &error);
    if (!project)
        return die(error);
    folio::AnnotationSession session;
    QObject::connect(&session, &folio::AnnotationSession::failed, [](const QString &m) { die(m); });
    session.setProject(project.get());
    if (!session.openDocumentAt(0))
        return die(QStringLiteral("no document"));
    const int count = QByteArray(argv[2]).toInt();
    QString parent;
    for (int n = 1; n <= count; ++n) {
        QString id;
        // Every fifth item starts a new top-level question; the others are its follow-ups.
        const bool top = n % 5 == 1;
        if (!folio::pushQsEdit(&session, QStringLiteral("add"), [&](folio::Annotations &a) {
                id = folio::qsedit::addChild(a, top ? QString() : parent, QStringLiteral("Question %1?").arg(n),
                                             QStringLiteral("Summary %1.").arg(n));
                return !id.isEmpty();
            }))
            return die(QStringLiteral("edit %1 refused").arg(n));
        if (top)
            parent = id;
        std::printf("saved %d\n", n);
        std::fflush(stdout);
    }
    return 0;
}
