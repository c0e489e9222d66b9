// libFuzzer target: a checkpoint folder's config.json checked against its model.safetensors
// header (inference/checkpoint: ModelConfig::fromDirectory, checkConfigSizes; issue 18: sizes
// validated before anything is allocated). Input: config.json, then optionally kFileSeparator and
// the model.safetensors bytes. Must load or throw InferenceError naming the file.
#include "fuzzsupport.h"

#include "inference/checkpoint/configcheck.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/errors.h"

#include <QFile>

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace folio;
    const std::vector<QByteArray> parts =
        fuzz::splitInput(fuzz::inputBytes(data, size), QByteArray(fuzz::kFileSeparator), 2);
    fuzz::writeScratchFile(QStringLiteral("config.json"), parts[0]);
    const QString weights = fuzz::scratchDir() + QStringLiteral("/model.safetensors");
    if (parts[1].isEmpty())
        QFile::remove(weights);
    else
        fuzz::writeScratchFile(QStringLiteral("model.safetensors"), parts[1]);
    try {
        const inference::ModelConfig config = inference::ModelConfig::fromDirectory(fuzz::scratchDir().toStdString());
        // What the loaders read next: every stated size is in range after the check.
        for (const inference::ConfigSizeLimit &limit : inference::configSizeLimits()) {
            const long long v = config.getInt(limit.key, limit.min);
            if (v < limit.min || v > limit.max)
                fuzz::invariantFailed(QStringLiteral("%1 = %2 passed the check (limit %3..%4)")
                                          .arg(QString::fromLatin1(limit.key)).arg(v).arg(limit.min).arg(limit.max));
        }
        (void)config.numLabels();
        (void)config.getStringList("pos_att_type");
        (void)config.getDouble("layer_norm_eps", 1e-5);
        (void)config.getBool("has_relative_attention_bias", false);
        (void)config.getString("hidden_act", "gelu");
        fuzz::note(QStringLiteral("config accepted"));
    } catch (const inference::InferenceError &e) {
        fuzz::note(QStringLiteral("refused: ") + QString::fromUtf8(e.what()));
        if (std::string(e.what()).find("config.json") == std::string::npos &&
            std::string(e.what()).find("model.safetensors") == std::string::npos)
            fuzz::invariantFailed(QStringLiteral("message names no file: ") + QString::fromUtf8(e.what()));
    }
    return 0;
}
