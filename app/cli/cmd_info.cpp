// folio-cli info: the versions of the libraries this build actually runs with, as JSON.
#include "app/cli/commands.h"
#include "inference/inferenceversion.h"
#include "ocr/ocrversion.h"
#include "pipeline/shippedmodels.h"

#include <CLI/CLI.hpp>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>

#include <cstdio>

namespace folio::cli {

void registerInfoCommand(CLI::App &app)
{
    auto *cmd = app.add_subcommand("info", "Print the versions of Qt, LibTorch, Tesseract and Leptonica in use, the BLAS library and the shipped models' folder");
    cmd->callback([] {
        QJsonObject o{
            {QStringLiteral("folio"), QStringLiteral(FOLIO_VERSION)},
            {QStringLiteral("qt"), QString::fromLatin1(qVersion())},
            {QStringLiteral("libtorch"), inference::torchVersion()},
            {QStringLiteral("tesseract"), ocr::tesseractVersion()},
            {QStringLiteral("leptonica"), ocr::leptonicaVersion()},
            {QStringLiteral("blas"), inference::blasLibrary()},
            {QStringLiteral("openblas"), inference::usingOpenBlas()},
            {QStringLiteral("cores"), QThread::idealThreadCount()},
            {QStringLiteral("models"), pipeline::shippedModelsRoot()}, // where the shipped models are read from
        };
        const QByteArray out = QJsonDocument(o).toJson(QJsonDocument::Indented);
        std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
    });
}

} // namespace folio::cli
