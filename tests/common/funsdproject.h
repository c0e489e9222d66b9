#pragma once
// A real project of FUNSD forms for the labelling loop's tests (tst_projectretrain,
// tst_labellingloop, ...): the first `n` forms of the training split (then the test split, then
// the same forms again under other source paths when more are asked for), their gold entities as
// the importer gives them (accepted), every page still to do, added in one transaction.
// Header-only: include it from a test that links folio_document (or a library above it).
//
//     QString error;
//     QVERIFY2(folio::test::makeFunsdProject(path, 7, &error), qPrintable(error));
//     folio::test::makeFunsdProject(path, 5, &error, "KEY"); // QUESTION renamed: a label no model saw
//
// `path` is any project location (a .folio file, a PostgreSQL URL).

#include "document/formats/funsd.h"
#include "document/project/project.h"
#include "tests/common/testdata.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace folio::test {

inline QString funsdDatasetRoot() { return sharedPath(QStringLiteral("data/funsd/dataset")); }

inline bool makeFunsdProject(const QString &path, int n, QString *error, const QString &renameQuestion = QString())
{
    const QStringList files = funsdSplitFiles(funsdDatasetRoot(), QStringLiteral("train"))
                              + funsdSplitFiles(funsdDatasetRoot(), QStringLiteral("test"));
    if (files.isEmpty()) {
        *error = funsdDatasetRoot() + QStringLiteral(": no FUNSD forms");
        return false;
    }
    std::vector<NewProjectDocument> documents;
    for (int i = 0; i < n; ++i) {
        NewProjectDocument d;
        if (!importFunsdFile(files[i % files.size()], FunsdWordOrder::Annotation, &d.document, &d.annotations, error))
            return false;
        if (i >= files.size()) // the same form again: another document
            d.document.sourcePath += QStringLiteral("#%1").arg(i / files.size());
        if (!renameQuestion.isEmpty())
            for (Entity &e : d.annotations.entities)
                if (e.label == QLatin1String("QUESTION"))
                    e.label = renameQuestion;
        documents.push_back(std::move(d));
    }
    auto project = Project::openOrCreate(path, error);
    if (!project)
        return false;
    std::vector<qint64> ids;
    return project->addDocuments(documents, &ids, error);
}

} // namespace folio::test
