// folio-spm-train: SentencePieceTrainer::Train(<arguments joined by spaces>) in its own process
// (libsentencepiece cannot share a process with LibTorch; see inference/CMakeLists.txt).
#include <sentencepiece_trainer.h>

#include <cstdio>
#include <string>

int main(int argc, char **argv)
{
    std::string args;
    for (int i = 1; i < argc; ++i)
        args += (i > 1 ? " " : "") + std::string(argv[i]);
    if (args.empty()) {
        std::fprintf(stderr, "usage: folio-spm-train --input=FILE --model_prefix=PREFIX --vocab_size=N ...\n");
        return 2;
    }
    const auto status = sentencepiece::SentencePieceTrainer::Train(args);
    if (!status.ok()) {
        std::fprintf(stderr, "folio-spm-train: %s\n", status.ToString().c_str());
        return 1;
    }
    return 0;
}
