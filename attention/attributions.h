#pragma once
// Attention rollout (Abnar & Zuidema 2020, "Quantifying Attention Flow in Transformers"), the
// variant folio-cli explain prints. Pure functions over plain floats (no Qt objects, no engines).
//
// Per layer l: Ā_l = mean over heads of the post-softmax attention (row = query);
//              Â_l = (Ā_l + I) with every row divided by its sum (the residual connection as
//                    identity; since rows of Ā_l sum to 1 this is 0.5 Ā_l + 0.5 I, unless padding
//                    took some of a row's mass);
// rollout     R = Â_{L-1} · … · Â_1 · Â_0 (the last layer on the left), so R[t, j] is how much of
//                 position t's output flows from input j through every layer; each row sums to 1.

#include <vector>

namespace folio {

// `attentions` holds [layers][heads][n][n]. Returns R as [n][n] row-major; empty when the sizes
// do not fit (layers, heads or n < 1, or attentions.size() != layers*heads*n*n).
std::vector<double> attentionRollout(const std::vector<float> &attentions, int layers, int heads, int n);

// One row of R (target t) without forming the whole product: r = e_t^T Â_{L-1} … Â_0.
std::vector<double> attentionRolloutRow(const std::vector<float> &attentions, int layers, int heads, int n, int target);

} // namespace folio
