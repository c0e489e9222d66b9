// libFuzzer target for the pytorch_model.bin reader (issue 36): an input starting with "PK" is a
// whole archive (read from a scratch file by readTorchCheckpoint: zip directory, overlaps, entries),
// anything else is data.pkl alone (readStateDictPickle, every storage key holding 256 bytes). Any
// input must give tensors or an InferenceError, never a crash, an out-of-bounds read or runaway
// memory; an accepted tensor's bytes must match its shape and dtype.
// Build and run: scripts/fuzz.sh (-DFOLIO_FUZZ=ON with clang); replayed by tst_fuzzreplay_torchpickle.
#include "fuzzsupport.h"

#include "inference/checkpoint/torchpickle.h"
#include "inference/errors.h"

#include <QFile>

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace folio::inference;
    const std::string input(reinterpret_cast<const char *>(data), size);
    try {
        TensorMap tensors;
        if (input.rfind("PK", 0) == 0) {
            const QString path = folio::fuzz::writeScratchFile(QStringLiteral("pytorch_model.bin"), QByteArray::fromStdString(input));
            tensors = readTorchCheckpoint(QFile::encodeName(path).toStdString());
        } else {
            tensors = readStateDictPickle(input, "fuzz.pkl", [](const std::string &key) {
                std::string bytes(256, '\0');
                for (std::size_t i = 0; i < bytes.size(); ++i)
                    bytes[i] = char(i + key.size());
                return bytes;
            });
        }
        for (const auto &[name, t] : tensors)
            if (!t.isValid())
                folio::fuzz::invariantFailed(QStringLiteral("tensor %1: %2 bytes for shape %3")
                                                 .arg(QString::fromStdString(name))
                                                 .arg(t.bytes.size())
                                                 .arg(QString::fromStdString(shapeString(t.shape))));
        folio::fuzz::note(QStringLiteral("%1 tensors").arg(tensors.size()));
    } catch (const InferenceError &e) {
        folio::fuzz::note(QString::fromUtf8(e.what()));
    }
    return 0;
}
