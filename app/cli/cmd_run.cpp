// folio-cli run: run a checkpoint folder on prepared tensors (fixture names) and write the outputs.
//   folio-cli run --checkpoint DIR --inputs inputs.safetensors --out outputs.safetensors [--trace]
//                 [--disable-bias 1d,2d,disentangled,hierarchical,layout_flow] [--threads N]
// Writes last_hidden_state and logits (when the checkpoint has a head); with --trace also every
// layer's attentions.N and the separate bias terms (bias.*). JSON summary on stdout.
#include "app/cli/commands.h"

#include "inference/models/modelrunner.h"
#include "inference/checkpoint/safetensors.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <iostream>
#include <memory>

namespace folio::cli {

namespace {

struct RunArgs
{
    std::string checkpoint, inputs, out;
    bool trace = false;
    std::string disable;
    int threads = 0;
};

std::uint32_t parseDisabled(const std::string &list)
{
    std::uint32_t flags = inference::BiasNone;
    for (const std::string &item : splitCommaList(list)) {
        if (item == "1d")
            flags |= inference::Bias1D;
        else if (item == "2d")
            flags |= inference::Bias2D;
        else if (item == "disentangled")
            flags |= inference::BiasDisentangled;
        else if (item == "hierarchical")
            flags |= inference::BiasHierarchical;
        else if (item == "layout_flow")
            flags |= inference::BiasLayoutFlow;
        else
            throw CliError("--disable-bias: unknown family '" + item + "' (1d, 2d, disentangled, hierarchical, layout_flow)",
                           ExitUsage);
    }
    return flags;
}

void runCommand(const RunArgs &a)
{
    if (inference::openBlasLibraryPath().empty())
        std::cerr << "folio-cli: warning: OpenBLAS is not the BLAS in use; matrix products will be slow "
                     "(install libopenblas0-pthread)\n";
    inference::configureThreads(a.threads);

    inference::ModelRunner runner;
    std::string error;
    if (!runner.load(a.checkpoint, &error))
        throw CliError(error);
    inference::TensorMap inputs;
    try {
        inputs = inference::readSafetensors(a.inputs);
    } catch (const std::exception &e) {
        throw CliError(e.what());
    }
    inference::RunOptions options;
    options.trace = a.trace;
    options.disabledBiases = parseDisabled(a.disable);
    const auto t0 = std::chrono::steady_clock::now();
    const inference::RunResult result = runner.run(inputs, options);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!result.ok)
        throw CliError(a.inputs + ": " + result.error);
    try {
        inference::writeSafetensors(a.out, result.outputs, {{"format", "pt"}, {"producer", "folio-cli run"}});
    } catch (const std::exception &e) {
        throw CliError(e.what());
    }
    nlohmann::json summary;
    summary["model_type"] = runner.modelType();
    summary["out"] = a.out;
    summary["forward_ms"] = ms;
    for (const auto &[name, t] : result.outputs)
        summary["outputs"][name] = t.shape;
    std::cout << summary.dump(2) << std::endl;
}

} // namespace

void registerRunCommand(CLI::App &app)
{
    auto args = std::make_shared<RunArgs>();
    CLI::App *cmd = app.add_subcommand("run", "Run a checkpoint on prepared input tensors (safetensors in, safetensors out)");
    cmd->add_option("--checkpoint", args->checkpoint, "Checkpoint folder (config.json + model.safetensors)")->required();
    cmd->add_option("--inputs", args->inputs, "Input tensors (input_ids, bbox, attention_mask, pixel_values, ...)")->required();
    cmd->add_option("--out", args->out, "Output safetensors file (written atomically)")->required();
    cmd->add_flag("--trace", args->trace, "Also write attentions.N and each bias term (bias.*)");
    cmd->add_option("--disable-bias", args->disable, "Comma list of bias families to switch off: 1d,2d,disentangled,hierarchical,layout_flow");
    cmd->add_option("--threads", args->threads, "Intra-op threads (default: all cores)");
    cmd->callback([args] { runCommand(*args); });
}

} // namespace folio::cli
