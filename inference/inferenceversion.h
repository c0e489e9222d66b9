#pragma once
// Version and runtime facts of the inference back end (torch-free header).
#include <QString>

namespace folio::inference {
QString torchVersion();        // LibTorch version Folio was built against
QString blasLibrary();         // the OpenBLAS library in use, or a warning that it is not
bool usingOpenBlas();          // true when OpenBLAS serves BLAS calls (else matrix products are ~30x slower)
int computeThreads();          // intra-op threads LibTorch uses
} // namespace folio::inference
