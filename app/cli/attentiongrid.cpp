#include "app/cli/attentiongrid.h"

#include "app/cli/commands.h"
#include "attention/headgrid.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace folio::cli {

void writeAttentionGrid(const AttentionTrace &trace, const Document *document, const AttentionGridArgs &a)
{
    HeadGridOptions o;
    o.size = a.size;
    o.biasRows = a.biasRows;
    if (a.sort == QLatin1String("distance")) o.sort = HeadSort::Distance;
    else if (a.sort == QLatin1String("entropy")) o.sort = HeadSort::Entropy;
    else if (a.sort != QLatin1String("none") && !a.sort.isEmpty())
        throw CliError("--sort: '" + a.sort.toStdString() + "' is not one of none, distance, entropy", ExitUsage);

    // Token boxes (0-1000) from the words the tokens belong to.
    const std::vector<QRectF> boxes = headGridTokenBoxes(trace, document);
    QString what = QStringLiteral("the whole matrix");
    if (a.word >= 0) {
        if (!document)
            throw CliError("--word: prepared inputs have no words", ExitUsage);
        const int n = int(document->words.size());
        if (a.word >= n)
            throw CliError("--word " + std::to_string(a.word) + ": the document has " + std::to_string(n) + " words (0.."
                               + std::to_string(n - 1) + ")", ExitUsage);
        if (!headGridTokenOfWord(trace, a.word, &o.selectedToken, &o.window))
            throw CliError("--word " + std::to_string(a.word) + ": the model saw no token of it (a blank word?)", ExitUsage);
        what = QStringLiteral("word %1 '%2'").arg(a.word).arg(document->words[std::size_t(a.word)].text);
    }
    o.title = QStringLiteral("%1: %2 layers x %3 heads, %4, window %5 of %6%7")
                  .arg(trace.modelType).arg(trace.layerCount).arg(trace.headCount).arg(what).arg(o.window + 1)
                  .arg(trace.windows.size()).arg(o.sort == HeadSort::None ? QString() : QStringLiteral(", heads sorted by ") + a.sort);
    QString error;
    const QString outSuffix = QFileInfo(a.out).suffix().toLower();
    const bool html = outSuffix == QLatin1String("html") || outSuffix == QLatin1String("htm");
    if (!(html ? saveHeadGridHtml(trace, boxes, o, a.out, &error) : saveHeadGrid(trace, boxes, o, a.out, &error)))
        throw CliError(error.toStdString());

    std::vector<HeadStatistics> stats = headStatistics(trace, o.window, boxes);
    if (o.sort != HeadSort::None)
        std::stable_sort(stats.begin(), stats.end(), [&](const HeadStatistics &x, const HeadStatistics &y) {
            const auto key = [&](const HeadStatistics &s) {
                const double v = o.sort == HeadSort::Distance ? s.meanDistance : s.entropy;
                return std::isnan(v) ? 1e300 : v;
            };
            return x.layer != y.layer ? x.layer < y.layer : key(x) < key(y);
        });
    QByteArray bytes;
    if (a.json) {
        QJsonArray heads;
        for (const HeadStatistics &s : stats)
            heads.append(QJsonObject{{"layer", s.layer}, {"head", s.head},
                                     {"mean_distance", std::isnan(s.meanDistance) ? QJsonValue() : QJsonValue(s.meanDistance)},
                                     {"entropy", s.entropy}});
        QJsonArray bias;
        if (o.biasRows && !trace.windows.empty())
            for (const auto &kv : trace.windows[std::size_t(o.window)].biasTerms)
                bias.append(kv.first);
        bytes = QJsonDocument(QJsonObject{{"out", a.out}, {"model_type", trace.modelType}, {"layers", trace.layerCount},
                                          {"heads", trace.headCount}, {"window", o.window}, {"bias_rows", bias},
                                          {"head_statistics", heads}})
                    .toJson(QJsonDocument::Compact) + '\n';
    } else {
        QString t = QStringLiteral("%1 -> %2\n%3  %4  %5  %6\n").arg(o.title, a.out)
                        .arg(QStringLiteral("layer"), 5).arg(QStringLiteral("head"), 4)
                        .arg(QStringLiteral("mean 2-D distance"), 17).arg(QStringLiteral("entropy (nats)"), 14);
        for (const HeadStatistics &s : stats)
            t += QStringLiteral("%1  %2  %3  %4\n").arg(s.layer, 5).arg(s.head, 4)
                     .arg(std::isnan(s.meanDistance) ? QStringLiteral("-") : QString::number(s.meanDistance, 'f', 1), 17)
                     .arg(s.entropy, 14, 'f', 3);
        bytes = t.toUtf8();
    }
    std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), stdout);
}

} // namespace folio::cli
