// Benchmark helper: Folio's seq2seq generation (Seq2seqGenerator, the key/value cache) on one
// Hugging Face checkpoint folder, driven line by line from stdin so that the reference process
// (bench/hfgenerate_reference.py, Hugging Face generate()) can alternate with it, call for call, on
// the same weights and source (bench/bench_generate.sh runs both; issue 35).
//
//   bench_generate <checkpoint-dir> <inputs.safetensors> [threads=1]
// inputs.safetensors: `input_ids` int64 [1, S]. Then on stdin, one command a line:
//   greedy NEW NGRAM   greedy search, NEW new tokens, no-repeat n-gram NGRAM (0: off)
//   beam K NEW NGRAM   beam search with K beams, no early stopping
//   encode             the encoder alone (max_length 1)
//   quit
// Each search runs to NEW tokens: min_length = max_length (EOS banned), no forced BOS/EOS, length
// penalty 1. Prints "seconds <s> score <sequence score> tokens <t0,t1,...>" (start token first;
// beam: the best hypothesis's tokens before the EOS that finalisation appends).
// "encode" prints the same line for the encoder alone.
// Prints "ready <model_type>" once loaded (or "error <message>" and exits 1).
#include "bench/benchclock.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/openmpenv.h"
#include "inference/models/modelrunner.h"
#include "inference/qs/seq2seq.h"

#include <cstdio>
#include <exception>
#include <iostream>
#include <sstream>
#include <string>

using namespace folio::inference;

// As folio-cli: OMP_WAIT_POLICY=PASSIVE and the forward's malloc thresholds before anything allocates
// (inference/openmpenv.h, inference/mallocenv.h; FOLIO_MALLOC_DEFAULTS=1 for glibc's own).
FOLIO_PASSIVE_OPENMP_AT_LOAD();

int main(int argc, char **argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: bench_generate <checkpoint-dir> <inputs.safetensors> [threads=1]\n");
        return 2;
    }
    configureThreads(argc > 3 ? std::atoi(argv[3]) : 1);
    Seq2seqSource source;
    try {
        const TensorMap inputs = readSafetensors(argv[2]);
        const auto it = inputs.find("input_ids");
        if (it == inputs.end() || it->second.dtype != DType::I64 || it->second.shape.size() != 2 || it->second.shape[0] != 1)
            throw std::runtime_error(std::string(argv[2]) + ": needs input_ids int64 [1, S]");
        const auto *p = it->second.data<std::int64_t>();
        source.ids.assign(p, p + it->second.shape[1]);
    } catch (const std::exception &e) {
        std::cout << "error " << e.what() << std::endl;
        return 1;
    }
    Seq2seqGenerator gen;
    std::string why;
    if (!gen.load(argv[1], &why)) {
        std::cout << "error " << why << std::endl;
        return 1;
    }
    std::cout << "ready " << gen.modelType() << std::endl;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string cmd;
        in >> cmd;
        if (cmd == "quit")
            break;
        if (cmd == "encode") {
            GenerationSettings s;
            s.maxLength = 1;
            const double t0 = folio::bench::seconds();
            const GenerationResult r = gen.generate({source}, s);
            const double t1 = folio::bench::seconds();
            if (!r.ok) {
                std::cout << "error " << r.error << std::endl;
                return 1;
            }
            std::printf("seconds %.6f score 0 tokens %lld\n", t1 - t0, static_cast<long long>(r.rows[0].tokens[0]));
            std::fflush(stdout);
            continue;
        }
        if (cmd != "greedy" && cmd != "beam") {
            if (!cmd.empty())
                std::cout << "error unknown command '" << line << "' (greedy NEW NGRAM, beam K NEW NGRAM, quit)" << std::endl;
            continue;
        }
        int beams = 1, fresh = 0, ngram = 0;
        if (cmd == "beam")
            in >> beams;
        in >> fresh >> ngram;
        if (!in || beams < 1 || fresh < 1 || ngram < 0) {
            std::cout << "error bad arguments in '" << line << "'" << std::endl;
            continue;
        }
        GenerationSettings s;
        s.numBeams = beams;
        s.maxLength = fresh + 1;
        s.minLength = s.maxLength;
        s.noRepeatNgramSize = ngram;
        s.earlyStopping = false;
        s.lengthPenalty = 1.0;
        const double t0 = folio::bench::seconds();
        const GenerationResult r = gen.generate({source}, s);
        const double t1 = folio::bench::seconds();
        if (!r.ok || r.rows.empty()) {
            std::cout << "error " << r.error << std::endl;
            return 1;
        }
        std::vector<std::int64_t> tokens = r.rows[0].tokens;
        if (beams > 1 && static_cast<int>(tokens.size()) > s.maxLength)
            tokens.resize(static_cast<std::size_t>(s.maxLength));
        std::printf("seconds %.6f score %.9g tokens ", t1 - t0, r.rows[0].score);
        for (std::size_t i = 0; i < tokens.size(); ++i)
            std::printf(i ? ",%lld" : "%lld", static_cast<long long>(tokens[i]));
        std::printf("\n");
        std::fflush(stdout);
    }
    return 0;
}
