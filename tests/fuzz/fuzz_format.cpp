// libFuzzer target: one dataset format importer (document/formats), picked at compile time:
// FOLIO_FUZZ_FORMAT is the format name (createDatasetFormat), FOLIO_FUZZ_SUFFIX the input file's
// suffix. The bytes are written to a file and imported through DatasetFormat::importFile. With
// FOLIO_FUZZ_SIDECAR (hfjsonl: ".labels.json"), what follows kFileSeparator in the input is the
// file "input<sidecar>" beside it. A 1000x1000 PNG lies beside the input as "input.png" (the page
// image a FUNSD annotation file needs).
// Invariants (issue 18): a failed import names a problem and returns no items; what was imported
// passes checkDatasetItem, round-trips through Document JSON (what a project stores) and exports
// again in the same format ("what cannot be exported must not be imported").
#include "documentchecks.h"
#include "fuzzsupport.h"

#include "document/formats/datasetformat.h"
#include "document/formats/datasetlimits.h"

#include <QFile>
#include <QImage>

#include <memory>

namespace {

QString writeInputFiles(const QByteArray &input)
{
    using namespace folio;
    static const bool pageImage = [] {
        QImage image(1000, 1000, QImage::Format_Mono);
        image.fill(0);
        return image.save(fuzz::scratchDir() + QStringLiteral("/input.png"), "PNG");
    }();
    if (!pageImage)
        fuzz::invariantFailed(QStringLiteral("cannot write the page image"));
#ifdef FOLIO_FUZZ_SIDECAR
    const std::vector<QByteArray> parts = fuzz::splitInput(input, QByteArray(fuzz::kFileSeparator), 2);
    const QString sidecar = QStringLiteral("input" FOLIO_FUZZ_SIDECAR);
    if (parts[1].isEmpty())
        QFile::remove(fuzz::scratchDir() + QLatin1Char('/') + sidecar);
    else
        fuzz::writeScratchFile(sidecar, parts[1]);
    return fuzz::writeScratchFile(QStringLiteral("input" FOLIO_FUZZ_SUFFIX), parts[0]);
#else
    return fuzz::writeScratchFile(QStringLiteral("input" FOLIO_FUZZ_SUFFIX), input);
#endif
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace folio;
    static const std::unique_ptr<DatasetFormat> format = createDatasetFormat(QStringLiteral(FOLIO_FUZZ_FORMAT));
    if (!format)
        fuzz::invariantFailed(QStringLiteral("no dataset format named " FOLIO_FUZZ_FORMAT));
    const QString path = writeInputFiles(fuzz::inputBytes(data, size));

    std::vector<DatasetItem> items;
    QString error;
    if (!format->importFile(path, &items, &error)) {
        fuzz::note(QStringLiteral("refused: ") + error);
        if (error.isEmpty())
            fuzz::invariantFailed(QStringLiteral("import failed without a message"));
        if (!items.empty())
            fuzz::invariantFailed(QStringLiteral("a failed import returned %1 item(s)").arg(items.size()));
        return 0;
    }
    fuzz::note(QStringLiteral("imported %1 item(s)").arg(items.size()));
    if (!checkDatasetItems(items, path, &error))
        fuzz::invariantFailed(QStringLiteral("imported an item the shared check refuses: ") + error);
    for (const DatasetItem &item : items) {
        fuzz::checkDocument(item.document, path + QStringLiteral(": ") + item.name);
        fuzz::checkJsonRoundTrip(item.document, &item.annotations, path + QStringLiteral(": ") + item.name);
    }
    QStringList written;
    if (!format->exportItems(items, fuzz::scratchDir() + QStringLiteral("/export"), DatasetExportOptions(), &written,
                             &error))
        fuzz::invariantFailed(QStringLiteral("imported but cannot export: ") + error);
    return 0;
}
