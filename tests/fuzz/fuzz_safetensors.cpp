// libFuzzer target for the safetensors reader: any byte string must parse or throw
// InferenceError, never crash or read out of bounds (run under ASan/UBSan).
// Build and run: scripts/fuzz.sh (-DFOLIO_FUZZ=ON with clang); replayed by tst_fuzzreplay_safetensors.
#include "fuzzsupport.h"

#include "inference/errors.h"
#include "inference/checkpoint/safetensors.h"

#include <cstdint>
#include <map>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    try {
        std::map<std::string, folio::inference::TensorView> entries;
        std::map<std::string, std::string> metadata;
        folio::inference::SafetensorsFile::parse(data, size, "fuzz.safetensors", &entries, &metadata);
        // Touch every byte of every accepted tensor: must be inside the buffer.
        volatile std::uint8_t sink = 0;
        for (const auto &e : entries)
            for (std::size_t i = 0; i < e.second.byteSize; ++i)
                sink ^= e.second.data[i];
        (void)sink;
    } catch (const folio::inference::InferenceError &) {
    }
    return 0;
}
