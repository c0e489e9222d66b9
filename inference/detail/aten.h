#pragma once
// The one torch include of folio_inference (precompiled when FOLIO_ENABLE_PCH is on).
// Narrow on purpose: ATen only, no <torch/torch.h>.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/util/Exception.h>
