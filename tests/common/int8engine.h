// The int8 tests' engine checks (tests/inference/tst_int8*.cpp): a case that quantizes skips by name
// where this LibTorch has no quantized engine, and the case that checks the refusal without one skips
// where it has one.
#pragma once

#include "inference/layers/detail/int8linear.h"
#include "tests/common/testdata.h"

#include <QString>

#include <string>

// Skips the current test case where no quantized engine exists (the reason is part of the skip message).
#define FOLIO_REQUIRE_INT8_ENGINE()                                                                              \
    do {                                                                                                         \
        std::string why_;                                                                                        \
        if (folio::inference::detail::int8EngineName(&why_).empty())                                             \
            FOLIO_SKIP_CASE(qPrintable(QString::fromStdString("no quantized engine: " + why_)));                 \
    } while (false)

// Skips the current test case where a quantized engine exists; otherwise `why` (a std::string) holds
// the engine check's reason for having none.
#define FOLIO_REQUIRE_NO_INT8_ENGINE(why)                                                                        \
    do {                                                                                                         \
        const std::string engine_ = folio::inference::detail::int8EngineName(&(why));                            \
        if (!engine_.empty())                                                                                    \
            FOLIO_SKIP_CASE(qPrintable(QString::fromStdString("this LibTorch has the quantized engine " + engine_ \
                                                              + ": the refusal without one cannot run here")));  \
    } while (false)
