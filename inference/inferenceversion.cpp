#include "inference/inferenceversion.h"

#include <ATen/Parallel.h>
#include <torch/version.h>

#include <QFile>

namespace folio::inference {

QString torchVersion()
{
    return QStringLiteral(TORCH_VERSION);
}

QString blasLibrary()
{
    // The BLAS that LibTorch calls is whatever libblas.so.3 resolves to; look at what is mapped.
    QFile maps(QStringLiteral("/proc/self/maps"));
    if (!maps.open(QIODevice::ReadOnly))
        return {};
    const QList<QByteArray> lines = maps.readAll().split('\n');
    QString fallback;
    for (const QByteArray &line : lines) {
        const int slash = line.indexOf('/');
        if (slash < 0)
            continue;
        const QString path = QString::fromLocal8Bit(line.mid(slash));
        if (path.contains(QLatin1String("openblas")))
            return path;
        if (path.contains(QLatin1String("libblas")) && fallback.isEmpty())
            fallback = path;
    }
    return fallback;
}

bool usingOpenBlas()
{
    return blasLibrary().contains(QLatin1String("openblas"));
}

int computeThreads()
{
    return at::get_num_threads();
}

} // namespace folio::inference
