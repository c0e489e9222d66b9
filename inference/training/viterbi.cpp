#include "inference/training/viterbi.h"

#include "inference/errors.h"

#include <limits>

namespace folio::inference {

std::vector<char> bioTransitions(const std::vector<std::string> &labels, std::vector<char> *allowedStart)
{
    const int L = int(labels.size());
    std::vector<char> allowed(size_t(L) * size_t(L), 1);
    if (allowedStart)
        allowedStart->assign(size_t(L), 1);
    for (int c = 0; c < L; ++c) {
        const std::string &cur = labels[size_t(c)];
        if (cur.size() < 2 || cur.compare(0, 2, "I-") != 0)
            continue;
        const std::string type = cur.substr(2);
        if (allowedStart)
            (*allowedStart)[size_t(c)] = 0;
        for (int p = 0; p < L; ++p) {
            const std::string &prev = labels[size_t(p)];
            allowed[size_t(p) * size_t(L) + size_t(c)] = (prev == "B-" + type || prev == "I-" + type) ? 1 : 0;
        }
    }
    return allowed;
}

std::vector<int> viterbiDecode(const std::vector<float> &scores, int n, const std::vector<std::string> &labels)
{
    const int L = int(labels.size());
    if (n < 0 || L == 0 || scores.size() != size_t(n) * size_t(L))
        throw InferenceError("viterbiDecode: expected " + std::to_string(n) + " x " + std::to_string(L) +
                                    " scores, got " + std::to_string(scores.size()));
    if (n == 0)
        return {};
    std::vector<char> start;
    const std::vector<char> allowed = bioTransitions(labels, &start);
    const double ninf = -std::numeric_limits<double>::infinity();
    std::vector<double> cur(static_cast<size_t>(L)), nxt(static_cast<size_t>(L));
    std::vector<int> back(size_t(n) * size_t(L), 0);
    for (int c = 0; c < L; ++c)
        cur[size_t(c)] = start[size_t(c)] ? double(scores[size_t(c)]) : ninf;
    for (int t = 1; t < n; ++t) {
        for (int c = 0; c < L; ++c) {
            double best = ninf;
            int arg = 0;
            for (int p = 0; p < L; ++p) {
                if (!allowed[size_t(p) * size_t(L) + size_t(c)])
                    continue;
                if (cur[size_t(p)] > best) {
                    best = cur[size_t(p)];
                    arg = p;
                }
            }
            nxt[size_t(c)] = best + double(scores[size_t(t) * size_t(L) + size_t(c)]);
            back[size_t(t) * size_t(L) + size_t(c)] = arg;
        }
        cur.swap(nxt);
    }
    int last = 0;
    for (int c = 1; c < L; ++c)
        if (cur[size_t(c)] > cur[size_t(last)])
            last = c;
    std::vector<int> path(static_cast<size_t>(n));
    path[size_t(n - 1)] = last;
    for (int t = n - 1; t > 0; --t)
        path[size_t(t - 1)] = back[size_t(t) * size_t(L) + size_t(path[size_t(t)])];
    return path;
}

std::vector<int> argmaxDecode(const std::vector<float> &scores, int n, int numLabels)
{
    std::vector<int> out(size_t(n), 0);
    for (int t = 0; t < n; ++t)
        for (int c = 1; c < numLabels; ++c)
            if (scores[size_t(t) * size_t(numLabels) + size_t(c)] > scores[size_t(t) * size_t(numLabels) + size_t(out[size_t(t)])])
                out[size_t(t)] = c;
    return out;
}

} // namespace folio::inference
