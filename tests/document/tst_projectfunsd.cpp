// FUNSD through the project store: importing every FUNSD page into a .folio project and
// exporting it as FUNSD gives back the same FUNSD JSON as exporting the direct import (entities,
// labels, words, boxes, linking), on the whole of ../shared/data/funsd. On SQLite and, with
// FOLIO_PROJECT_BACKEND=postgres (tst_projectfunsd_postgres), on a PostgreSQL server.
#include "document/formats/funsd.h"
#include "document/project/project.h"
#include "document/project/projectio.h"
#include "projectbackend.h"
#include "tests/common/testdata.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace folio;

class TestProjectFunsd : public QObject
{
    Q_OBJECT
    test::ProjectBackend backend;

private Q_SLOTS:
    void initTestCase() { FOLIO_INIT_PROJECT_BACKEND(backend); }

    void roundTripWholeDataset()
    {
        const QString root = folio::test::sharedPath(QStringLiteral("data/funsd/dataset"));
        FOLIO_REQUIRE_DATA(root);
        QStringList files = funsdSplitFiles(root, QStringLiteral("train")) + funsdSplitFiles(root, QStringLiteral("test"));
        QCOMPARE(files.size(), 199);
        std::vector<DatasetItem> items;
        QString error;
        for (const QString &f : files) {
            DatasetItem item;
            QVERIFY2(importFunsdFile(f, FunsdWordOrder::Annotation, &item.document, &item.annotations, &error),
                     qPrintable(error));
            item.name = QFileInfo(f).completeBaseName();
            item.document.sourcePath = f;
            items.push_back(std::move(item));
        }
        const QString where = backend.newLocation(QStringLiteral("funsd"));
        auto p = Project::create(where, &error);
        QVERIFY2(p, qPrintable(error));
        ImportReport report;
        QVERIFY2(importItemsIntoProject(*p, items, &report, &error), qPrintable(error));
        QCOMPARE(report.added, 199);
        p.reset();
        auto again = Project::open(where, &error, Project::Mode::ReadOnly);
        QVERIFY2(again, qPrintable(error));
        std::vector<DatasetItem> back;
        QVERIFY2(projectItems(*again, {}, &back, &error), qPrintable(error));
        QCOMPARE(back.size(), items.size());
        for (size_t i = 0; i < items.size(); ++i) {
            QCOMPARE(back[i].name, items[i].name);
            QCOMPARE(funsdToJson(back[i].document, back[i].annotations),
                     funsdToJson(items[i].document, items[i].annotations));
        }
    }
};

FOLIO_TEST_GUILESS_MAIN(TestProjectFunsd)
#include "tst_projectfunsd.moc"
