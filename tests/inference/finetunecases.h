#pragma once
// The fine-tuning parity case (tst_parity.cpp, kind FineTune): a folder with train.json, recorded
// by the Hugging Face Trainer (../shared/fixtures/finetune/README.md). HfFineTuner takes the same
// steps on the same batch and every recorded number is compared within the README's tolerances:
// the loss (1e-6 relative), the learning rate of each step, the total norm before clipping, every
// gradient of step 0, which parameters get no gradient, AdamW's no-decay group, the logits before
// and after, and every weight after the last step.
//
// Two refinements of the README's tolerances, both for float32 rounding that Folio's forward (fused
// Q/K/V products, one BiACM softmax for LiLT's two flows, no CogView max shift) cannot share with
// the reference's op-for-op:
//  - gradients: 1e-5 of the tensor's largest magnitude + 1e-7 of the largest gradient of the model.
//    The second term matters only for tensors whose gradient is mathematically zero (the attention
//    key biases: softmax ignores a constant added to a query's scores), which hold rounding noise
//    (|g| < 5e-9 here, against gradients up to ~1) in both implementations.
//  - weights after the steps: 1e-6 absolute for every element whose step-0 gradient is at least
//    1e-4 of its tensor's largest and 1e-7 of the model's largest; AdamW divides by sqrt(v) + 1e-8, so an element whose gradient is
//    rounding-sized (the key biases, a few weights with |g| ~ 1e-7 of a 0.2 tensor) moves by up to
//    the learning rate whichever way its noise points: those are held to twice the summed step
//    learning rates, and counted (qInfo).

#include "inference/checkpoint/safetensors.h"
#include "inference/training/hf/hffinetuner.h"
#include "tensorcompare.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

namespace folio::inference::test {

inline std::vector<std::string> jsonNames(const QJsonArray &a)
{
    std::vector<std::string> out;
    for (const QJsonValue &v : a)
        out.push_back(v.toString().toStdString());
    std::sort(out.begin(), out.end());
    return out;
}

inline double maxAbsOf(const Tensor &t)
{
    double m = 0;
    for (std::int64_t i = 0; i < t.numel(); ++i)
        m = std::max(m, std::fabs(valueAt(t, i)));
    return m;
}

inline QString namesDiff(const std::vector<std::string> &got, const std::vector<std::string> &want)
{
    QStringList extra, missing;
    for (const std::string &g : got)
        if (!std::binary_search(want.begin(), want.end(), g))
            extra << QString::fromStdString(g);
    for (const std::string &w : want)
        if (!std::binary_search(got.begin(), got.end(), w))
            missing << QString::fromStdString(w);
    return QStringLiteral("extra [%1], missing [%2]").arg(extra.join(QLatin1String(", ")), missing.join(QLatin1String(", ")));
}

inline void checkFineTuneCase(const QString &dir)
{
    const QString caseName = QFileInfo(dir).fileName();
    QFile f(dir + QStringLiteral("/train.json"));
    QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(dir + "/train.json: cannot open"));
    QJsonParseError perr;
    const QJsonObject train = QJsonDocument::fromJson(f.readAll(), &perr).object();
    QVERIFY2(perr.error == QJsonParseError::NoError, qPrintable(dir + "/train.json: " + perr.errorString()));
    QCOMPARE(train.value(QLatin1String("optimizer")).toString(), QStringLiteral("adamw"));
    QCOMPARE(train.value(QLatin1String("schedule")).toString(), QStringLiteral("linear"));

    HfFineTuneOptions o;
    o.lr = train.value(QLatin1String("lr")).toDouble();
    o.beta1 = train.value(QLatin1String("betas")).toArray().at(0).toDouble();
    o.beta2 = train.value(QLatin1String("betas")).toArray().at(1).toDouble();
    o.eps = train.value(QLatin1String("eps")).toDouble();
    o.weightDecay = train.value(QLatin1String("weight_decay")).toDouble();
    o.maxGradNorm = train.value(QLatin1String("max_grad_norm")).toDouble();
    o.warmupSteps = train.value(QLatin1String("warmup_steps")).toInt();
    o.totalSteps = train.value(QLatin1String("total_steps")).toInt();
    const int steps = train.value(QLatin1String("steps")).toInt();
    QVERIFY2(steps > 0 && o.lr > 0, qPrintable(dir + "/train.json: no steps or no lr"));

    HfFineTuner tuner;
    std::string error;
    QVERIFY2(tuner.load(dir.toStdString(), &error), error.c_str());
    QVERIFY(tuner.hasHead());
    tuner.setOptions(o);
    tuner.setKeepGradients(true);
    const TensorMap inputs = readSafetensors((dir + "/inputs.safetensors").toStdString());
    const TensorMap expected = readSafetensors((dir + "/outputs.safetensors").toStdString());
    bool ok = true;
    auto check = [&](const std::string &name, const Tensor &got, const Tensor &want, double atol, double rtol) {
        const Diff d = compareTensors(got, want, atol, rtol);
        if (!d.ok) {
            qWarning("%s: %s: %s", qPrintable(caseName), name.c_str(), d.message.c_str());
            ok = false;
        }
        return d.maxAbs;
    };

    // AdamW's groups, chosen by name (the bias tables and both top LayerNorms of LayoutLMv3 included).
    const std::vector<std::string> noDecayWant = jsonNames(train.value(QLatin1String("no_weight_decay_parameters")).toArray());
    const std::vector<std::string> noDecay = tuner.noDecayParameters();
    QVERIFY2(noDecay == noDecayWant, qPrintable(caseName + ": no-decay group differs: " + namesDiff(noDecay, noDecayWant)));

    const RunResult before = tuner.forward(inputs);
    QVERIFY2(before.ok, before.error.c_str());
    qInfo("%s: logits_before max|diff| %.3g", qPrintable(caseName),
          check("logits_before", before.outputs.at("logits"), expected.at("logits_before"), 1e-5, 1e-4));

    const Tensor &loss = expected.at("loss"), &norm = expected.at("grad_norm"), &lr = expected.at("lr");
    double globalMax = 0; // the largest step-0 gradient of the model
    for (const auto &[key, want] : expected)
        if (key.rfind("grad.", 0) == 0)
            globalMax = std::max(globalMax, maxAbsOf(want));
    QCOMPARE(loss.numel(), std::int64_t(steps));
    for (int s = 0; s < steps; ++s) {
        const HfStepResult r = tuner.step(inputs);
        QVERIFY2(r.ok, r.error.c_str());
        const double wl = valueAt(loss, s), wn = valueAt(norm, s), wr = valueAt(lr, s);
        qInfo("%s: step %d loss %.9g (ref %.9g) norm %.7g (ref %.7g) lr %.6g (ref %.6g)", qPrintable(caseName), s, r.loss,
              wl, r.gradNorm, wn, r.lr, wr);
        if (std::fabs(r.loss - wl) > 1e-6 * std::fabs(wl) + 1e-7) {
            qWarning("%s: step %d: loss %.9g, reference %.9g", qPrintable(caseName), s, r.loss, wl);
            ok = false;
        }
        if (std::fabs(r.gradNorm - wn) > 1e-5 * std::fabs(wn) + 1e-7) {
            qWarning("%s: step %d: grad norm %.9g, reference %.9g", qPrintable(caseName), s, r.gradNorm, wn);
            ok = false;
        }
        if (std::fabs(r.lr - wr) > 1e-6 * std::fabs(wr) + 1e-12) {
            qWarning("%s: step %d: lr %.9g, reference %.9g", qPrintable(caseName), s, r.lr, wr);
            ok = false;
        }
        if (s == 0)
            QCOMPARE(r.lr, 0.0); // the schedule's first step
        if (s != 0)
            continue;
        // Every gradient of step 0 (before clipping), and exactly the parameters without one.
        const std::vector<std::string> noGradWant = jsonNames(train.value(QLatin1String("parameters_without_gradient")).toArray());
        std::vector<std::string> noGrad = tuner.parametersWithoutGradient();
        std::sort(noGrad.begin(), noGrad.end());
        QVERIFY2(noGrad == noGradWant, qPrintable(caseName + ": parameters without gradient differ: " + namesDiff(noGrad, noGradWant)));
        const TensorMap &grads = tuner.lastGradients();
        int compared = 0;
        double worst = 0;
        for (const auto &[key, want] : expected) {
            if (key.rfind("grad.", 0) != 0)
                continue;
            const std::string name = key.substr(5);
            const auto it = grads.find(name);
            QVERIFY2(it != grads.end(), qPrintable(caseName + ": no gradient for " + QString::fromStdString(name)));
            const double atol = 1e-5 * maxAbsOf(want) + 1e-7 * globalMax;
            worst = std::max(worst, check(key, it->second, want, atol, 0) / atol);
            ++compared;
        }
        QCOMPARE(std::size_t(compared), grads.size());
        qInfo("%s: %d gradients, worst max|diff| / tolerance %.3g", qPrintable(caseName), compared, worst);
    }

    const TensorMap after = tuner.parameters();
    double lrSum = 0;
    for (int s = 0; s < steps; ++s)
        lrSum += valueAt(lr, s);
    int weights = 0;
    long elements = 0, roundingSized = 0, roundingSizedOff = 0;
    double worstWeight = 0, worstNoise = 0;
    for (const auto &[key, want] : expected) {
        if (key.rfind("after.", 0) != 0)
            continue;
        const std::string name = key.substr(6);
        const auto it = after.find(name);
        QVERIFY2(it != after.end(), qPrintable(caseName + ": no parameter " + QString::fromStdString(name)));
        QVERIFY(it->second.shape == want.shape);
        const auto g = expected.find("grad." + name); // absent: no gradient, the weight must stay as it was
        const double gmax = g == expected.end() ? 0 : maxAbsOf(g->second);
        for (std::int64_t i = 0; i < want.numel(); ++i) {
            const double d = std::fabs(valueAt(it->second, i) - valueAt(want, i));
            const bool noise = g != expected.end() && std::fabs(valueAt(g->second, i)) < std::max(1e-4 * gmax, 1e-7 * globalMax);
            ++elements;
            if (noise) {
                ++roundingSized;
                roundingSizedOff += d > 1e-6 ? 1 : 0;
                worstNoise = std::max(worstNoise, d);
                if (!(d <= 2 * lrSum)) {
                    qWarning("%s: %s[%lld]: %.9g vs %.9g beyond the steps' reach", qPrintable(caseName), key.c_str(),
                             static_cast<long long>(i), valueAt(it->second, i), valueAt(want, i));
                    ok = false;
                }
            } else {
                worstWeight = std::max(worstWeight, d);
                if (!(d <= 1e-6)) {
                    qWarning("%s: %s[%lld]: %.9g vs %.9g (|g0| %.3g of max %.3g)", qPrintable(caseName), key.c_str(),
                             static_cast<long long>(i), valueAt(it->second, i), valueAt(want, i),
                             g == expected.end() ? 0.0 : std::fabs(valueAt(g->second, i)), gmax);
                    ok = false;
                }
            }
        }
        ++weights;
    }
    QCOMPARE(std::size_t(weights), after.size());
    qInfo("%s: %d weights (%ld values) after %d steps: max|diff| %.3g; %ld values with a rounding-sized gradient, "
          "%ld of them off by more than 1e-6 (max %.3g)",
          qPrintable(caseName), weights, elements, steps, worstWeight, roundingSized, roundingSizedOff, worstNoise);
    const RunResult afterRun = tuner.forward(inputs);
    QVERIFY2(afterRun.ok, afterRun.error.c_str());
    qInfo("%s: logits_after max|diff| %.3g", qPrintable(caseName),
          check("logits_after", afterRun.outputs.at("logits"), expected.at("logits_after"), 1e-5, 1e-4));
    QVERIFY2(ok, "fine-tuning steps differ from the Hugging Face Trainer's beyond the README's tolerances");
}

} // namespace folio::inference::test
