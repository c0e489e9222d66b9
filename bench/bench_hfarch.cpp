// Benchmark helper: Folio's forward of one checkpoint folder, driven line by line from stdin so that a
// reference process (bench/hfarch_reference.py) can alternate with it, forward for forward, on the
// same weights and inputs (bench/bench_hfarch.sh runs both).
//
//   bench_hfarch <checkpoint-dir> <inputs.safetensors> [threads=1]
// then on stdin, one command a line:
//   run          one forward (inference, no trace); prints "seconds <s>"
//   save <path>  writes the last forward's outputs (float32 ones) as safetensors; prints "saved"
//   int8         loads a second copy with dynamic int8 Linears (issue 35); prints "int8 ready"
//   run8         one forward of that copy; prints "seconds <s>"
//   quit
// Prints "ready <model_type>" once loaded (or "error <message>" and exits 1). Threads: as
// ModelRunner's configureThreads (torch intra-op; OpenBLAS when loaded).
#include "bench/benchclock.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/models/modelrunner.h"
#include "inference/openmpenv.h"

#include <cstdio>
#include <exception>
#include <iostream>
#include <string>

using namespace folio::inference;

// As folio and folio-cli: OMP_WAIT_POLICY=PASSIVE and the forward's malloc thresholds before anything
// allocates (inference/openmpenv.h, inference/mallocenv.h; FOLIO_MALLOC_DEFAULTS=1 for glibc's own).
FOLIO_PASSIVE_OPENMP_AT_LOAD();

int main(int argc, char **argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: bench_hfarch <checkpoint-dir> <inputs.safetensors> [threads=1]\n");
        return 2;
    }
    configureThreads(argc > 3 ? std::atoi(argv[3]) : 1);
    ModelRunner runner;
    std::string why;
    TensorMap inputs;
    try {
        inputs = readSafetensors(argv[2]);
    } catch (const std::exception &e) {
        std::cout << "error " << e.what() << std::endl;
        return 1;
    }
    if (!runner.load(argv[1], &why)) {
        std::cout << "error " << why << std::endl;
        return 1;
    }
    std::cout << "ready " << runner.modelType() << std::endl;
    RunResult last;
    ModelRunner int8;
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line == "int8") {
            if (!int8.load(argv[1], &why) || !int8.quantizeDynamicInt8(&why)) {
                std::cout << "error " << why << std::endl;
                return 1;
            }
            std::cout << "int8 ready" << std::endl;
        } else if (line == "run" || (line == "run8" && int8.isInt8())) {
            const double t0 = folio::bench::seconds();
            last = (line == "run" ? runner : int8).run(inputs);
            const double t1 = folio::bench::seconds();
            if (!last.ok) {
                std::cout << "error " << last.error << std::endl;
                return 1;
            }
            std::printf("seconds %.6f\n", t1 - t0);
            std::fflush(stdout);
        } else if (line.rfind("save ", 0) == 0) {
            TensorMap out;
            for (const auto &[name, t] : last.outputs)
                if (t.dtype == DType::F32)
                    out[name] = t;
            try {
                writeSafetensors(line.substr(5), out);
            } catch (const std::exception &e) {
                std::cout << "error " << e.what() << std::endl;
                return 1;
            }
            std::cout << "saved" << std::endl;
        } else if (line == "quit") {
            break;
        } else if (!line.empty()) {
            std::cout << "error unknown command '" << line << "' (run, save PATH, int8, run8, quit)" << std::endl;
        }
    }
    return 0;
}
