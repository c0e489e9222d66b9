#pragma once
// Exponential moving average of a model's parameters over the optimiser steps (Polyak averaging),
// a checkpoint average that costs nothing at inference: after every step
//   average = d * average + (1 - d) * parameter,  d = min(decay, (1 + t) / (10 + t))
// (t = updates so far; the warm-up term keeps the first steps from dragging the initial weights
// along). swap() exchanges the averaged and the live values in place, so the same model object
// evaluates and saves the average, and a second swap() restores the live weights to train on.
#include <ATen/ATen.h>

#include <map>
#include <string>

namespace folio::inference::detail {

class WeightAverage
{
public:
    WeightAverage(const std::map<std::string, at::Tensor> &params, double decay);

    void update(const std::map<std::string, at::Tensor> &params);
    void swap(std::map<std::string, at::Tensor> &params);
    long updates() const { return m_updates; }

    // Resume state: the averaged values and the update count, in one safetensors file.
    void save(const std::string &path) const;
    void load(const std::string &path); // throws InferenceError naming the file

private:
    std::map<std::string, at::Tensor> m_average;
    double m_decay;
    long m_updates = 0;
};

} // namespace folio::inference::detail
