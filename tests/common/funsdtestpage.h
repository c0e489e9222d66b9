#pragma once
// The first form of FUNSD's test split, imported in the protocol's word order, as a Document and as
// the tagger page the shipped taggers read: for tests that run a real model on a real page.
// Header-only (tests/common/testdata.cpp links no document/ code): include it only from a test
// that links folio_pipeline. Skips the calling test function by name when ../shared's FUNSD is
// missing (FOLIO_REQUIRE_DATA); fails it when the split is empty or the form does not import.
//
//     Document doc;
//     inference::TaggerPage page;
//     FOLIO_FIRST_FUNSD_TEST_PAGE(&doc, &page);

#include "document/formats/funsd.h"
#include "pipeline/modelinputs/taggerpages.h"
#include "tests/common/testdata.h"

#include <QtTest>

#define FOLIO_FIRST_FUNSD_TEST_PAGE(doc, page)                                                                   \
    do {                                                                                                         \
        const QString funsdRoot_ = folio::test::sharedPath(QStringLiteral("data/funsd/dataset"));                \
        FOLIO_REQUIRE_DATA(funsdRoot_);                                                                          \
        const QStringList files_ = folio::funsdSplitFiles(funsdRoot_, QStringLiteral("test"));                   \
        QVERIFY2(!files_.isEmpty(), qPrintable("FUNSD test split missing under " + funsdRoot_));                 \
        folio::Annotations annotations_;                                                                         \
        QString error_;                                                                                          \
        QVERIFY2(folio::importFunsdFile(files_.first(), folio::FunsdWordOrder::Annotation, (doc), &annotations_, \
                                        &error_),                                                                \
                 qPrintable(error_));                                                                            \
        *(page) = folio::pipeline::taggerPageFromDocument(*(doc), nullptr, files_.first().toStdString());        \
        QVERIFY((page)->words.size() > 20);                                                                      \
    } while (false)
