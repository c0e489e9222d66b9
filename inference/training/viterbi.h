#pragma once
// Constrained BIO Viterbi decoding (hard constraints, no learned transitions): I-X may only follow
// B-X or I-X, and a sequence may not start with I-X. Every other transition scores 0. Torch-free.

#include <string>
#include <vector>

namespace folio::inference {

// allowed[prev * L + cur] for the label names (e.g. "O", "B-HEADER", "I-HEADER", ...).
std::vector<char> bioTransitions(const std::vector<std::string> &labels, std::vector<char> *allowedStart);

// scores: n x L row-major log-probabilities. Returns the best allowed label index per position
// (empty for n == 0). Throws InferenceError (inference/errors.h) when scores.size() != n * L.
std::vector<int> viterbiDecode(const std::vector<float> &scores, int n, const std::vector<std::string> &labels);

// Argmax per position (for comparison).
std::vector<int> argmaxDecode(const std::vector<float> &scores, int n, int numLabels);

} // namespace folio::inference
