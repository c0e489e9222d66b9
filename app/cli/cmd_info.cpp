// folio-cli info: the versions of the libraries this build actually runs with, as JSON.
// folio-cli info --checkpoint DIR: what a checkpoint folder is and whether Folio can run it, told
// before anything is loaded (pipeline/checkpointinfo.h); exit 1 (the JSON still printed) when not.
#include "app/cli/commands.h"
#include "inference/inferenceversion.h"
#include "ocr/ocrversion.h"
#include "pipeline/checkpointinfo.h"
#include "pipeline/shippedmodels.h"

#include <CLI/CLI.hpp>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

namespace folio::cli {

void registerInfoCommand(CLI::App &app)
{
    auto *cmd = app.add_subcommand("info", "Print the versions of Qt, LibTorch, Tesseract and Leptonica in use, the BLAS library and the shipped models' folder; "
                                           "with --checkpoint DIR, what a checkpoint folder is and whether Folio can run it");
    auto checkpoint = std::make_shared<std::string>();
    cmd->add_option("--checkpoint", *checkpoint,
                    "Describe this checkpoint folder (or fairseq FILE.pt) instead (model type, task, files, labels, problems) "
                    "without loading its weights; exit 1 when Folio cannot run it");
    cmd->callback([checkpoint] {
        if (!checkpoint->empty()) {
            const nlohmann::json info = pipeline::describeCheckpoint(inputPath(*checkpoint));
            const std::string text = info.dump(2) + "\n";
            std::fwrite(text.data(), 1, text.size(), stdout);
            std::fflush(stdout);
            if (!info.value("runnable", false)) {
                const auto &problems = info["problems"];
                throw CliError(*checkpoint + ": Folio cannot run this folder: "
                               + (problems.empty() ? std::string("no task") : problems[0].get<std::string>())
                               + (problems.size() > 1 ? " (and " + std::to_string(problems.size() - 1) + " more problem(s))" : ""));
            }
            return;
        }
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
