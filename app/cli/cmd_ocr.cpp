// folio-cli ocr FILE: OCR an image (PNG/JPEG/TIFF) or PDF into a Document; print JSON, TSV or hOCR.
// For an image, --format tsv prints exactly what `tesseract FILE - --psm N tsv` prints.
#include "app/cli/batch.h"
#include "app/cli/batchproject.h"
#include "app/cli/commands.h"
#include "document/documentjson.h"
#include "ocr/ocr.h"
#include "ocr/ocrformats.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <QEventLoop>
#include <QTimer>

#include <cstdio>

namespace folio::cli {

// One OCR run that Ctrl-C / SIGTERM can stop: a 50 ms timer polls cancelRequested() and cancels
// the job, which kills its worker processes; the result then says cancelled.
static ocr::OcrResult runCancellableOcr(const QString &path, const ocr::OcrOptions &options, const std::string &label)
{
    const CancelScope scope;
    ocr::OcrJob job;
    QEventLoop loop;
    QTimer poll;
    poll.setInterval(50);
    QObject::connect(&poll, &QTimer::timeout, &job, [&job] {
        if (cancelRequested() && job.isRunning())
            job.cancel();
    });
    QObject::connect(&job, &ocr::OcrJob::progress, &job,
                     [&label](int done, int total) { reportProgress(label, done, total); });
    QObject::connect(&job, &ocr::OcrJob::finished, &loop, &QEventLoop::quit);
    poll.start();
    job.start(path, options);
    if (job.isRunning())
        loop.exec();
    return job.result();
}

// The OCR'd Document, or a CliError (exit 3 when cancelled); warnings go to stderr.
static Document runCheckedOcr(const QString &path, const ocr::OcrOptions &options, const std::string &label)
{
    ocr::OcrResult r = runCancellableOcr(path, options, label);
    if (r.cancelled)
        throw CliError(r.error.toStdString(), ExitCancelled);
    if (!r.ok)
        throw CliError(r.error.toStdString());
    if (!quiet())
        for (const QString &w : r.warnings)
            std::fprintf(stderr, "folio-cli: %s\n", qPrintable(w));
    return std::move(r.document);
}

static QByteArray formattedOcr(const Document &doc, const std::string &format)
{
    if (format == "tsv")
        return ocr::documentToTsv(doc);
    if (format == "hocr")
        return ocr::documentToHocr(doc);
    return documentToJson(doc);
}

void registerOcrCommand(CLI::App &app)
{
    auto *cmd = app.add_subcommand("ocr", "OCR a scan (PNG, JPEG, TIFF, multi-page TIFF) or PDF with Tesseract");
    struct Args
    {
        std::string lang = "eng", format = "json", renderDir, region;
        int psm = 3, dpi = 300, jobs = 0, regionPage = 1;
        bool noTextLayer = false, listLangs = false;
        std::string project;
        BatchOptions batch;
    };
    auto a = std::make_shared<Args>();
    cmd->add_option("FILE", a->batch.inputs, "Image or PDF; several files, folders or @list.txt: a batch (one JSON line each)");
    cmd->add_option("--lang,-l", a->lang, "Tesseract language(s), e.g. eng or eng+deu")->capture_default_str();
    cmd->add_option("--psm", a->psm, "Page segmentation mode 0..13 (as tesseract --psm)")
        ->check(CLI::Range(0, 13))->capture_default_str();
    cmd->add_option("--dpi", a->dpi, "PDF rasterisation resolution")->check(CLI::Range(30, 1200))->capture_default_str();
    cmd->add_option("--format,-f", a->format, "Output: json (Document), tsv (as tesseract), hocr")
        ->check(CLI::IsMember({"json", "tsv", "hocr"}))->capture_default_str();
    a->batch.jobsOption = cmd->add_option("--jobs,-j", a->jobs, "Parallel OCR worker processes (0 = one per core); in a batch, "
                                                              "worker processes each running one input at a time");
    cmd->add_flag("--no-text-layer", a->noTextLayer, "OCR PDF pages even when they carry a text layer");
    cmd->add_option("--render-dir", a->renderDir, "Write page images (TIFF/PDF pages) there as PNG");
    cmd->add_option("--region", a->region, "Only OCR the pixel rectangle X,Y,W,H (of --page)");
    cmd->add_option("--page", a->regionPage, "Page of --region, 1-based")->capture_default_str();
    cmd->add_flag("--list-langs", a->listLangs, "Print the installed Tesseract languages and exit");
    cmd->add_option("--project", a->project, "Also add each OCR'd document to this .folio project (one already there is kept)");
    addBatchOptions(cmd, &a->batch, false, &a->project);
    cmd->callback([a] {
        if (a->listLangs) {
            QString dir;
            const QStringList langs = ocr::installedLanguages(QString(), &dir);
            std::printf("%s\n", qPrintable(langs.join(QLatin1Char('\n'))));
            if (!quiet())
                std::fprintf(stderr, "(from %s)\n", qPrintable(dir));
            return;
        }
        if (a->batch.inputs.empty() && a->batch.filesFrom.empty() && !a->batch.worker && !joinsQueue(a->batch))
            throw CliError("ocr: FILE is required", ExitUsage);
        const bool batch = isBatch(a->batch);
        ocr::OcrOptions options;
        options.languages = QString::fromStdString(a->lang);
        options.psm = a->psm;
        options.dpi = a->dpi;
        options.workers = batch ? 1 : a->jobs; // a batch runs its inputs side by side instead
        options.usePdfTextLayer = !a->noTextLayer;
        options.renderDir = QString::fromStdString(a->renderDir);
        if (!a->region.empty()) {
            const QStringList p = QString::fromStdString(a->region).split(QLatin1Char(','));
            bool ok = p.size() == 4;
            int v[4] = {0, 0, 0, 0};
            for (int i = 0; ok && i < 4; ++i)
                v[i] = p[i].toInt(&ok);
            if (!ok || v[2] <= 0 || v[3] <= 0)
                throw CliError("ocr: --region wants X,Y,W,H with a positive width and height", ExitUsage);
            options.region = QRect(v[0], v[1], v[2], v[3]);
            options.regionPage = a->regionPage - 1;
        }
        const QString langError = ocr::checkLanguages(options.languages);
        if (!langError.isEmpty())
            throw CliError(langError.toStdString());
        std::shared_ptr<ProjectSink> sink;
        if (!a->project.empty())
            sink = std::make_shared<ProjectSink>(a->project, joinsQueue(a->batch) && (!a->batch.inputs.empty() || !a->batch.filesFrom.empty()));
        const auto ocrOne = [a, options, sink](const QString &path, const std::string &argument) {
            const Document doc = runCheckedOcr(path, options, "ocr " + argument);
            nlohmann::json j = a->format == "json"
                                   ? nlohmann::json::parse(documentToJson(doc).toStdString())
                                   : nlohmann::json{{"format", a->format}, {"text", formattedOcr(doc, a->format).toStdString()}};
            if (sink) {
                Document stored;
                Annotations annotations;
                qint64 id = sink->find(path, &stored, &annotations);
                j["project_added"] = id < 0;
                if (id < 0)
                    id = sink->add(doc, Annotations());
                j["project_document"] = id;
            }
            return j;
        };
        if (batch) {
            const QStringList images{QStringLiteral("png"), QStringLiteral("jpg"), QStringLiteral("jpeg"), QStringLiteral("tif"),
                                     QStringLiteral("tiff"), QStringLiteral("bmp"), QStringLiteral("pnm"), QStringLiteral("pbm"),
                                     QStringLiteral("pgm"), QStringLiteral("ppm"), QStringLiteral("pdf")};
            runBatch("ocr", a->batch, images, ocrOne);
            return;
        }
        const std::string &file = a->batch.inputs.front();
        if (sink) { // the usual output, plus the project's document id
            std::printf("%s\n", ocrOne(inputPath(file), file).dump(2).c_str());
            return;
        }
        const QByteArray out = formattedOcr(runCheckedOcr(inputPath(file), options, "ocr " + file), a->format);
        std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
    });
}

} // namespace folio::cli
