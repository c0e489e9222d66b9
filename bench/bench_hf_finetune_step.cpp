// One Hugging Face Trainer fine-tuning step (forward + backward + clipping + AdamW, issue 46) of a
// base-size LayoutLMv3 (with its 224x224 image) or LiLT token classifier on 2 x 512 tokens, through
// HfFineTuner, against the baseline measured in the same run: the inference forward of the same
// batch through ModelRunner (the path Folio labels pages with). Prints one JSON line: median step
// and forward seconds, their ratio, peak resident memory after loading and after the steps.
//
//   bench_hf_finetune_step layoutlmv3|lilt [steps=3] [threads=2] [workdir=/tmp/folio-hf-ft-bench] [layers=12]
//
// `layers` below 12 makes a shallower model of the same widths (for profiling a step: every layer
// costs the same); its folder is workdir/<arch>-L<layers>.
// The folder (config.json + model.safetensors, seeded N(0, 0.02) weights, 7 labels) is written
// once into workdir/<arch>. The reference Python step is not run here (see BENCHMARKS.md).
#include "benchclock.h"

#include "inference/checkpoint/detail/paramstore.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/checkpoint/detail/convert.h"
#include "inference/models/detail/model.h"
#include "inference/models/modelrunner.h"
#include "inference/openmpenv.h"
#include "inference/training/hf/hffinetuner.h"

#include <nlohmann/json.hpp>
#include <torch/csrc/autograd/profiler_legacy.h>

#include <sys/resource.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

using namespace folio::inference;
namespace fid = folio::inference::detail;

// As folio-cli: OMP_WAIT_POLICY=PASSIVE and the forward's malloc thresholds before libgomp loads.
FOLIO_PASSIVE_OPENMP_AT_LOAD();

namespace {

double peakRssMiB()
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

nlohmann::json baseConfig(const std::string &arch, int layers)
{
    nlohmann::json c{{"model_type", arch}, {"hidden_size", 768}, {"num_hidden_layers", layers}, {"num_attention_heads", 12},
                     {"intermediate_size", 3072}, {"vocab_size", 50265}, {"max_position_embeddings", 514},
                     {"type_vocab_size", 1}, {"pad_token_id", 1}, {"layer_norm_eps", 1e-5}, {"hidden_act", "gelu"},
                     {"hidden_dropout_prob", 0.0}, {"attention_probs_dropout_prob", 0.0}, {"initializer_range", 0.02},
                     {"max_2d_position_embeddings", 1024}};
    nlohmann::json id2label = nlohmann::json::object(), label2id = nlohmann::json::object();
    for (int i = 0; i < 7; ++i) {
        id2label[std::to_string(i)] = "L" + std::to_string(i);
        label2id["L" + std::to_string(i)] = i;
    }
    c["id2label"] = id2label;
    c["label2id"] = label2id;
    if (arch == "layoutlmv3") {
        c.update({{"coordinate_size", 128}, {"shape_size", 128}, {"has_relative_attention_bias", true},
                  {"has_spatial_attention_bias", true}, {"rel_pos_bins", 32}, {"max_rel_pos", 128}, {"rel_2d_pos_bins", 64},
                  {"max_rel_2d_pos", 256}, {"visual_embed", true}, {"input_size", 224}, {"patch_size", 16}, {"num_channels", 3}});
    } else {
        c.update({{"channel_shrink_ratio", 4}, {"position_embedding_type", "absolute"}});
    }
    return c;
}

// Seeded weights of every tensor the model takes (names and shapes from a fresh store).
void writeFolder(const std::string &dir, const std::string &arch, int layers)
{
    std::filesystem::create_directories(dir);
    const nlohmann::json config = baseConfig(arch, layers);
    std::ofstream(dir + "/config.json") << config.dump(2);
    fid::ParamStore fresh = fid::ParamStore::fresh();
    {
        at::NoGradGuard g;
        // The head's keys exist only in a task checkpoint: a fresh store has none, so name it here.
        auto model = fid::createModel(ModelConfig::fromJson(config), fresh);
    }
    at::manual_seed(7);
    TensorMap out;
    for (const auto &[name, t] : fresh.parameters())
        out[name] = fid::fromAten(at::randn(t.sizes()) * 0.02);
    const std::string prefix = arch + ".";
    TensorMap named;
    for (auto &[name, t] : out)
        named[name.rfind(prefix, 0) == 0 ? name : prefix + name] = std::move(t);
    named["classifier.weight"] = fid::fromAten(at::randn({7, 768}) * 0.02);
    named["classifier.bias"] = fid::fromAten(at::zeros({7}));
    writeSafetensors(dir + "/model.safetensors", named, {{"format", "pt"}});
}

TensorMap batch(const std::string &arch)
{
    at::manual_seed(11);
    const std::int64_t b = 2, t = 512;
    at::Tensor ids = at::randint(3, 50000, {b, t}, at::kLong);
    ids.select(1, 0).fill_(0);
    ids.select(1, t - 1).fill_(2);
    at::Tensor x0 = at::randint(0, 900, {b, t, 1}, at::kLong), y0 = at::randint(0, 950, {b, t, 1}, at::kLong);
    at::Tensor box = at::cat({x0, y0, x0 + at::randint(1, 100, {b, t, 1}, at::kLong), y0 + at::randint(1, 50, {b, t, 1}, at::kLong)}, 2);
    at::Tensor labels = at::randint(0, 7, {b, t}, at::kLong);
    labels.select(1, 0).fill_(-100);
    labels.select(1, t - 1).fill_(-100);
    TensorMap m;
    m["input_ids"] = fid::fromAten(ids);
    m["bbox"] = fid::fromAten(box);
    m["attention_mask"] = fid::fromAten(at::ones({b, t}, at::kLong));
    m["labels"] = fid::fromAten(labels);
    if (arch == "layoutlmv3")
        m["pixel_values"] = fid::fromAten(at::randn({b, 3, 224, 224}));
    return m;
}

HfFineTuneOptions benchOptions(long totalSteps)
{
    HfFineTuneOptions o;
    o.lr = 5e-5;
    o.weightDecay = 0.01;
    o.warmupSteps = 1;
    o.totalSteps = totalSteps;
    return o;
}

// `serve` mode, driven line by line by bench/hf_finetune_step_reference.py (the paired comparison
// with the reference Python step): writes the folder and the batch (<dir>/batch.safetensors, what
// the reference reads), loads the tuner and answers "step" with "step <seconds> <loss> <grad norm>
// <lr>", "rss" with "rss <peak resident MiB of this process>", "quit" by leaving. Nothing else runs
// in this process, so its peak is the fine-tuning's own.
int serve(const std::string &arch, int threads, const std::string &work, int layers)
{
    configureThreads(threads);
    const std::string dir = work + "/" + arch + (layers == 12 ? std::string() : "-L" + std::to_string(layers));
    if (!std::filesystem::exists(dir + "/model.safetensors"))
        writeFolder(dir, arch, layers);
    const TensorMap in = batch(arch);
    writeSafetensors(dir + "/batch.safetensors", in, {{"format", "pt"}});
    HfFineTuner tuner;
    std::string error;
    if (!tuner.load(dir, &error)) {
        std::cout << "error " << error << std::endl;
        return 1;
    }
    tuner.setOptions(benchOptions(100));
    std::cout << "ready " << dir << std::endl;
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line == "step") {
            const double t0 = folio::bench::seconds();
            const HfStepResult r = tuner.step(in);
            const double dt = folio::bench::seconds() - t0;
            if (!r.ok) {
                std::cout << "error " << r.error << std::endl;
                return 1;
            }
            std::printf("step %.6f %.9g %.9g %.9g\n", dt, r.loss, r.gradNorm, r.lr);
            std::fflush(stdout);
        } else if (line == "rss") {
            std::printf("rss %.1f\n", peakRssMiB());
            std::fflush(stdout);
        } else if (line == "quit") {
            break;
        } else {
            std::cout << "error unknown command '" << line << "'" << std::endl;
        }
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc > 1 && std::string(argv[1]) == "serve") {
        if (argc < 3) {
            std::fprintf(stderr, "usage: bench_hf_finetune_step serve layoutlmv3|lilt [threads=2] [workdir] [layers=12]\n");
            return 2;
        }
        return serve(argv[2], argc > 3 ? std::atoi(argv[3]) : 2, argc > 4 ? argv[4] : "/tmp/folio-hf-ft-bench",
                     argc > 5 ? std::atoi(argv[5]) : 12);
    }
    const std::string arch = argc > 1 ? argv[1] : "layoutlmv3";
    const int steps = argc > 2 ? std::atoi(argv[2]) : 3;
    const int threads = argc > 3 ? std::atoi(argv[3]) : 2;
    const std::string work = argc > 4 ? argv[4] : "/tmp/folio-hf-ft-bench";
    const int layers = argc > 5 ? std::atoi(argv[5]) : 12;
    if ((arch != "layoutlmv3" && arch != "lilt") || layers < 1 || layers > 12) {
        std::fprintf(stderr, "usage: bench_hf_finetune_step layoutlmv3|lilt [steps] [threads] [workdir] [layers 1-12]\n");
        return 2;
    }
    configureThreads(threads);
    const std::string dir = work + "/" + arch + (layers == 12 ? std::string() : "-L" + std::to_string(layers));
    if (!std::filesystem::exists(dir + "/model.safetensors"))
        writeFolder(dir, arch, layers);
    const TensorMap in = batch(arch);
    TensorMap forwardIn = in;
    forwardIn.erase("labels");

    // Baseline: the inference forward of the same batch.
    std::vector<double> fwd;
    double rssInference = 0;
    {
        ModelRunner runner;
        std::string error;
        if (!runner.load(dir, &error)) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return 1;
        }
        for (int i = 0; i <= steps; ++i) {
            const double t0 = folio::bench::seconds();
            const RunResult r = runner.run(forwardIn);
            if (!r.ok) {
                std::fprintf(stderr, "%s\n", r.error.c_str());
                return 1;
            }
            if (i > 0)
                fwd.push_back(folio::bench::seconds() - t0);
        }
        rssInference = peakRssMiB();
    }
    HfFineTuner tuner;
    std::string error;
    if (!tuner.load(dir, &error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    tuner.setOptions(benchOptions(steps + 2));
    std::vector<double> step;
    double loss = 0;
    // FOLIO_BENCH_PROFILE=FILE: the last step under LibTorch's autograd profiler (a chrome trace).
    const char *profile = std::getenv("FOLIO_BENCH_PROFILE");
    for (int i = 0; i <= steps; ++i) { // the first (lr 0) step warms up
        std::unique_ptr<torch::autograd::profiler::RecordProfile> recorder;
        if (profile && *profile && i == steps)
            recorder = std::make_unique<torch::autograd::profiler::RecordProfile>(std::string(profile));
        const double t0 = folio::bench::seconds();
        const HfStepResult r = tuner.step(in);
        if (!r.ok) {
            std::fprintf(stderr, "%s\n", r.error.c_str());
            return 1;
        }
        loss = r.loss;
        if (i > 0)
            step.push_back(folio::bench::seconds() - t0);
        recorder.reset();
    }
    const double stepMedian = folio::bench::median(step), fwdMedian = folio::bench::median(fwd);
    const nlohmann::json j{{"arch", arch},
                           {"batch", "2 x 512 tokens" + std::string(arch == "layoutlmv3" ? " + 2 x 224x224 images" : "")},
                           {"threads", threads},
                           {"layers", layers},
                           {"steps", steps},
                           {"step_seconds_median", stepMedian},
                           {"forward_seconds_median", fwdMedian},
                           {"step_over_forward", fwdMedian > 0 ? stepMedian / fwdMedian : 0},
                           {"peak_rss_mib_after_inference", rssInference},
                           {"peak_rss_mib_after_training", peakRssMiB()},
                           {"last_loss", loss}};
    std::cout << j.dump() << std::endl;
    return 0;
}
