#include "inference/inferenceversion.h"

#include "inference/models/modelrunner.h"

#include <ATen/Parallel.h>
#include <torch/version.h>

namespace folio::inference {

QString torchVersion()
{
    return QStringLiteral(TORCH_VERSION);
}

QString blasLibrary()
{
    const std::string openBlas = openBlasLibraryPath();
    return openBlas.empty() ? QStringLiteral("not OpenBLAS (reference BLAS: matrix products ~30x slower)")
                            : QString::fromStdString(openBlas);
}

bool usingOpenBlas()
{
    return !openBlasLibraryPath().empty();
}

int computeThreads()
{
    return at::get_num_threads();
}

} // namespace folio::inference
