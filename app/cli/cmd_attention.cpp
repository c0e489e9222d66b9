// folio-cli attention --checkpoint DIR FILE --layer L --head H --out heat.png|.svg|.safetensors
// Runs a checkpoint with the AttentionTrace on and exports one view of it headless: the heatmap
// as PNG or SVG, or the matrices (with model / layer / head / document identity in
// `__metadata__`) as safetensors. FILE is a prepared inputs.safetensors (as in the parity
// fixtures) or any document the pipeline opens (Folio / FUNSD JSON, HTML, scan, PDF: then the
// checkpoint's tokenizer builds the inputs; a folio-formtagger checkpoint runs on the document's
// words, page by page). The run itself is folio_pipeline's (pipeline/attentionrun.h). The safetensors also hold the raw
// trace: `attentions.N` and `bias.*` as [heads, L, L] (per window when stitched).
#include "app/cli/commands.h"
#include "app/cli/attentiongrid.h"
#include "pipeline/attentionrun.h"
#include "pipeline/documentsource.h"
#include "attention/attentionviewmodel.h"
#include "attention/heatmaprender.h"

#include <CLI/CLI.hpp>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>
#include <memory>

namespace folio::cli {

namespace {

struct AttentionArgs
{
    std::string checkpoint, file, out, granularity = "tokens", mode = "attention", disable, size = "900x800";
    int layer = 0, head = 0, row = 0, maxWindow = 0;
    bool grid = false, gridJson = false, noBiasRows = false; // --grid (issue 48): app/cli/attentiongrid.h
    int word = -1;
    std::string sort = "none";
};

std::uint32_t parseFamilies(const std::string &text)
{
    std::uint32_t f = 0;
    for (const QString &part : QString::fromStdString(text).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString p = part.trimmed().toLower();
        if (p == QLatin1String("1d")) f |= AttnBias1D;
        else if (p == QLatin1String("2d")) f |= AttnBias2D;
        else if (p == QLatin1String("disentangled")) f |= AttnBiasDisentangled;
        else if (p == QLatin1String("hierarchical")) f |= AttnBiasHierarchical;
        else if (p == QLatin1String("graph")) f |= AttnBiasGraph;
        else if (p == QLatin1String("layout_flow")) f |= AttnBiasLayoutFlow;
        else
            throw CliError("--disable: unknown bias family '" + p.toStdString() + "' (1d, 2d, disentangled, hierarchical, graph, layout_flow)",
                           ExitUsage);
    }
    return f;
}

AttentionGranularity parseGranularity(const std::string &g)
{
    if (g == "tokens") return AttentionGranularity::Tokens;
    if (g == "words") return AttentionGranularity::Words;
    if (g == "entities") return AttentionGranularity::Entities;
    if (g == "sections") return AttentionGranularity::Sections;
    if (g == "dom") return AttentionGranularity::DomNodes;
    throw CliError("--granularity: '" + g + "' is not one of tokens, words, entities, sections, dom", ExitUsage);
}

void runAttention(const AttentionArgs &a)
{
    const QString file = QString::fromStdString(a.file);
    const QString out = QString::fromStdString(a.out);
    const QString suffix = QFileInfo(out).suffix().toLower();
    if (a.grid && (suffix == QLatin1String("html") || suffix == QLatin1String("htm"))) {
        // --grid as one HTML page (issue 48): attention/headgrid.h saveHeadGridHtml
    } else if (suffix != QLatin1String("png") && suffix != QLatin1String("svg") && suffix != QLatin1String("safetensors"))
        throw CliError(a.out + ": --out must end in .png, .svg or .safetensors (or .html with --grid)", ExitUsage);
    QSize size(900, 800);
    {
        const QStringList wh = QString::fromStdString(a.size).split(QLatin1Char('x'));
        bool okW = false, okH = false;
        if (wh.size() == 2)
            size = QSize(wh[0].toInt(&okW), wh[1].toInt(&okH));
        if (!okW || !okH || size.width() < 100 || size.height() < 100 || size.width() > 20000 || size.height() > 20000)
            throw CliError("--size: '" + a.size + "' is not WIDTHxHEIGHT between 100 and 20000", ExitUsage);
    }
    if (!QFileInfo::exists(file))
        throw CliError(a.file + ": no such file");
    const std::uint32_t disabled = parseFamilies(a.disable);
    const AttentionGranularity granularity = parseGranularity(a.granularity);

    AttentionViewModel vm;
    AttentionRunResult run;
    Document doc;
    Annotations annotations;
    if (file.endsWith(QLatin1String(".safetensors"), Qt::CaseInsensitive)) {
        if (granularity != AttentionGranularity::Tokens)
            throw CliError(a.file + ": prepared inputs have no words; use --granularity tokens", ExitUsage);
        run = runAttentionOnInputs(QString::fromStdString(a.checkpoint), file, a.row, disabled);
    } else {
        pipeline::LoadedDocument loaded = pipeline::loadDocumentFile(file);
        if (!loaded.ok)
            throw CliError(loaded.error.toStdString());
        doc = std::move(loaded.document);
        annotations = std::move(loaded.annotations);
        reportProgress("attention: running the model", 0, 1);
        run = runAttentionOnDocument(QString::fromStdString(a.checkpoint), doc, disabled, a.maxWindow);
        vm.setDocument(doc, &annotations);
    }
    if (!run.ok)
        throw CliError(run.error.toStdString());
    QString error;
    if (!vm.setTrace(run.trace, &error))
        throw CliError(a.file + ": " + error.toStdString());
    if (a.grid) {
        if (suffix == QLatin1String("safetensors"))
            throw CliError(a.out + ": --grid writes .png or .svg (or .html)", ExitUsage);
        writeAttentionGrid(vm.trace(), doc.words.empty() ? nullptr : &doc,
                           AttentionGridArgs{out, size, a.word, QString::fromStdString(a.sort), !a.noBiasRows, a.gridJson});
        return;
    }
    if (a.layer < -1 || a.layer >= vm.layerCount())
        throw CliError("--layer " + std::to_string(a.layer) + ": the model has " + std::to_string(vm.layerCount())
                           + " layers (-1 = average)", ExitUsage);
    if (a.head < -1 || a.head >= vm.headCount())
        throw CliError("--head " + std::to_string(a.head) + ": the model has " + std::to_string(vm.headCount())
                           + " heads (-1 = average)", ExitUsage);
    vm.setLayer(a.layer);
    vm.setHead(a.head);
    vm.setGranularity(granularity);
    if (a.mode != "attention") {
        const QString term = QString::fromStdString(a.mode);
        bool known = false;
        for (const QString &n : vm.trace().biasTermNames())
            known = known || n == term || n.startsWith(term + QLatin1Char('.'));
        if (!known)
            throw CliError("--mode: the trace has no bias term '" + a.mode + "' (it has: "
                               + vm.trace().biasTermNames().join(QStringLiteral(", ")).toStdString() + ")",
                           ExitUsage);
        vm.setMode(AttentionViewMode::BiasTerm, term);
    }
    if (vm.matrix().rows == 0)
        throw CliError(a.file + ": no " + attentionGranularityName(granularity).toStdString() + " to show");
    bool ok = false;
    if (suffix == QLatin1String("png"))
        ok = saveHeatmapPng(vm.matrix(), out, size, &error);
    else if (suffix == QLatin1String("svg"))
        ok = saveHeatmapSvg(vm.matrix(), out, size, &error);
    else {
        AttentionExport data = vm.exportMatrices();
        appendTraceMatrices(vm.trace(), &data); // the raw attentions.N / bias.* [heads, L, L] next to the view
        ok = writeAttentionSafetensors(data, out, &error);
    }
    if (!ok)
        throw CliError(error.toStdString());
    QJsonObject summary{{"out", out},
                        {"model_type", vm.trace().modelType},
                        {"layers", vm.layerCount()},
                        {"heads", vm.headCount()},
                        {"windows", int(vm.trace().windows.size())},
                        {"view", vm.describe()},
                        {"units", vm.matrix().rows}};
    if (!vm.windowNote().isEmpty())
        summary.insert("note", vm.windowNote());
    const QByteArray json = QJsonDocument(summary).toJson(QJsonDocument::Compact);
    std::fwrite(json.constData(), 1, std::size_t(json.size()), stdout);
    std::fputc('\n', stdout);
}

} // namespace

void registerAttentionCommand(CLI::App &app)
{
    auto *cmd = app.add_subcommand("attention", "Run a checkpoint with attention tracing and export one layer/head "
                                                "as a heatmap (PNG, SVG) or as matrices (safetensors)");
    auto a = std::make_shared<AttentionArgs>();
    cmd->add_option("--checkpoint", a->checkpoint, "Checkpoint folder (config.json + model.safetensors)")->required();
    cmd->add_option("FILE", a->file, "Prepared inputs (.safetensors) or a document (Folio / FUNSD JSON, HTML, scan, PDF)")->required();
    cmd->add_option("--layer", a->layer, "Layer (0-based; -1 = average over layers)");
    cmd->add_option("--head", a->head, "Head (0-based; -1 = average over heads)");
    cmd->add_option("--out", a->out, "Output: .png, .svg or .safetensors (--grid: .png, .svg or .html)")->required();
    cmd->add_option("--row", a->row, "Batch row of prepared inputs (-1: every row as a window)");
    cmd->add_option("--granularity", a->granularity, "tokens | words | entities | sections | dom (documents only)");
    cmd->add_option("--mode", a->mode, "attention, or a bias term of the trace (e.g. bias.1d, bias.2d_x, bias.c2p)");
    cmd->add_option("--disable", a->disable, "Bias families to switch off: 1d,2d,disentangled,hierarchical,graph,layout_flow");
    cmd->add_option("--size", a->size, "Image size WIDTHxHEIGHT (PNG/SVG)");
    cmd->add_option("--max-window", a->maxWindow, "Cap the window (tokens) below the model's; longer documents are stitched");
    cmd->add_flag("--grid", a->grid, "Every layer x head as thumbnails (bias terms as extra rows), with a table of each head's mean 2-D distance and entropy");
    cmd->add_option("--word", a->word, "--grid: thumbnails of this Document word's attention on the page (default: the whole matrix)");
    cmd->add_option("--sort", a->sort, "--grid: order heads within a layer by none | distance | entropy (ascending)");
    cmd->add_flag("--no-bias-rows", a->noBiasRows, "--grid: leave the bias-term rows out");
    cmd->add_flag("--json", a->gridJson, "--grid: the head table as JSON");
    cmd->callback([a] { runAttention(*a); });
}

} // namespace folio::cli
