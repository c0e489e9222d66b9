// libFuzzer target for the pytorch_model.bin reader (issue 36): an input starting with "PK" is a
// whole archive (read from a scratch file by readTorchCheckpoint: zip directory, overlaps, entries),
// anything else is data.pkl alone (readStateDictPickle, every storage key holding 256 bytes). Any
// input must give tensors or an InferenceError, never a crash, an out-of-bounds read or runaway
// memory; an accepted tensor's bytes must match its shape and dtype. Every input is also read as a
// training checkpoint (readTorchTrainingCheckpoint / readTrainingCheckpointPickle: fairseq's
// checkpoint_best.pt, inert classes as data, the "model" entry as tensors, the rest as JSON).
// Build and run: scripts/fuzz.sh (-DFOLIO_FUZZ=ON with clang); replayed by tst_fuzzreplay_torchpickle.
#include "fuzzsupport.h"

#include "inference/checkpoint/fairseq.h"
#include "inference/checkpoint/torchpickle.h"
#include "inference/errors.h"

#include <QFile>

#include <cstdint>
#include <map>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace folio::inference;
    const std::string input(reinterpret_cast<const char *>(data), size);
    try {
        TensorMap tensors;
        const auto storageBytes = [](const std::string &key) {
            std::string bytes(256, '\0');
            for (std::size_t i = 0; i < bytes.size(); ++i)
                bytes[i] = char(i + key.size());
            return bytes;
        };
        const bool archive = input.rfind("PK", 0) == 0;
        const QString path = archive ? folio::fuzz::writeScratchFile(QStringLiteral("pytorch_model.bin"), QByteArray::fromStdString(input))
                                     : QString();
        try { // as a training checkpoint (its own errors are notes: the state dict reading below still runs)
            std::map<std::string, std::string> held;
            const TorchTrainingCheckpoint c =
                archive ? readTorchTrainingCheckpoint(QFile::encodeName(path).toStdString(), "model", true)
                        : readTrainingCheckpointPickle(input, "fuzz.pkl", [&](const std::string &key) -> std::string_view {
                              return held.emplace(key, storageBytes(key)).first->second;
                          }, "model", true);
            for (const auto &[name, t] : c.tensors)
                if (!t.isValid() || c.shapes.at(name) != t.shape)
                    folio::fuzz::invariantFailed(QStringLiteral("training checkpoint tensor %1: bytes or shape").arg(QString::fromStdString(name)));
            const std::size_t described = c.entries.dump().size();
            // The description of the other entries is bounded (issue 51: a list holding references
            // to itself was described into gigabytes): 200,000 values and 16 MiB of text at most.
            if (described > (40u << 20))
                folio::fuzz::invariantFailed(QStringLiteral("training checkpoint described in %1 bytes of JSON").arg(described));
            folio::fuzz::note(QStringLiteral("training checkpoint: %1 tensors, %2 bytes of JSON").arg(c.tensors.size()).arg(described));
        } catch (const InferenceError &e) {
            folio::fuzz::note(QString::fromUtf8(e.what()));
        }
        if (archive) { // as fairseq's checkpoint_best.pt: the description (info) and the read (a load)
            const std::string file = QFile::encodeName(path).toStdString();
            try {
                const FairseqCheckpointInfo info = describeFairseqCheckpoint(file);
                for (const auto &[name, shape] : info.shapes)
                    for (std::int64_t d : shape)
                        if (d < 0)
                            folio::fuzz::invariantFailed(QStringLiteral("fairseq tensor %1 described with a negative size").arg(QString::fromStdString(name)));
                FairseqCheckpointInfo read;
                const TensorMap t = readFairseqCheckpoint(file, &read);
                for (const auto &[name, tensor] : t)
                    if (!tensor.isValid())
                        folio::fuzz::invariantFailed(QStringLiteral("fairseq tensor %1: bytes and shape differ").arg(QString::fromStdString(name)));
            } catch (const InferenceError &e) {
                folio::fuzz::note(QString::fromUtf8(e.what()));
                if (std::string(e.what()).find(file) == std::string::npos)
                    folio::fuzz::invariantFailed(QStringLiteral("fairseq refusal names no file: ") + QString::fromUtf8(e.what()));
            }
        }
        if (archive)
            tensors = readTorchCheckpoint(QFile::encodeName(path).toStdString());
        else
            tensors = readStateDictPickle(input, "fuzz.pkl", storageBytes);
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
