#pragma once
// Version and runtime facts of the inference back end (torch-free header).
#include <QString>

namespace folio::inference {
QString torchVersion();        // LibTorch version Folio was built against
QString blasLibrary();         // the BLAS shared library mapped into this process ("" if none found)
bool usingOpenBlas();          // true when OpenBLAS serves BLAS calls (else matrix products are ~30x slower)
int computeThreads();          // intra-op threads LibTorch uses
} // namespace folio::inference
