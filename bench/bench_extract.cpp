// Benchmark: product extraction on the Zyte benchmark pages, pages per second.
//   extraction = gunzip + HTML parse (Document) + schema.org reader + WebFormer (shipped product
//                model, candidates prepended) + the price / sku rankers beside it (candidates +
//                features + linear scores) + normalised values;
//   baseline   = gunzip + the schema.org reader alone (document/structured), same pages, same run.
// Also reports the parse share (gunzip + Document + WebPage), the model share, and what one more
// field with a text-node ranker (a model from Train Field Extractor) would add. Plain timers.
//   bench_extract [--model DIR] [--threads 1] [--pages N] [--reps 1]
#include "document/html/htmlinput.h"
#include "document/html/htmlloader.h"
#include "document/structured/fieldrankers.h"
#include "document/structured/structureddata.h"
#include "inference/models/modelrunner.h"
#include "inference/webformer/webformer.h"
#include "pipeline/modelinputs/productpages.h"
#include "pipeline/modelinputs/webpages.h"

#include <QDir>
#include <QStringList>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

using namespace folio;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

} // namespace

int main(int argc, char **argv)
{
    std::string model = FOLIO_SOURCE_DIR "/resources/models/product-fields";
    int threads = 1, maxPages = 0, reps = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--model")
            model = argv[i + 1];
        else if (a == "--threads")
            threads = std::atoi(argv[i + 1]);
        else if (a == "--pages")
            maxPages = std::atoi(argv[i + 1]);
        else if (a == "--reps")
            reps = std::max(1, std::atoi(argv[i + 1]));
    }
    const QString dir = QStringLiteral(FOLIO_SHARED_DIR "/data/product-extraction-benchmark/dataset/html");
    QStringList files = QDir(dir).entryList({"*.html.gz"}, QDir::Files, QDir::Name);
    if (files.isEmpty()) {
        std::fprintf(stderr, "bench_extract: no pages under %s\n", qPrintable(dir));
        return 1;
    }
    if (maxPages > 0 && files.size() > maxPages)
        files = files.mid(0, maxPages);
    std::vector<QByteArray> gz;
    qint64 bytes = 0;
    for (const QString &f : files) {
        QFile file(dir + "/" + f);
        file.open(QIODevice::ReadOnly);
        gz.push_back(file.readAll());
        bytes += gz.back().size();
    }
    inference::configureThreads(threads);
    inference::WebFormerExtractor ex;
    std::string error;
    if (!ex.load(model, &error)) {
        std::fprintf(stderr, "bench_extract: %s\n", error.c_str());
        return 1;
    }
    std::map<std::string, structured::CandidateRanker> rankers;
    for (const std::string &field : structured::rankedFields()) {
        const std::string file = structured::rankerFile(model, field);
        if (QFile::exists(QString::fromStdString(file))
            && !rankers[field].load(file, field, structured::candidateFeatureNames(field), &error)) {
            std::fprintf(stderr, "bench_extract: %s\n", error.c_str());
            return 1;
        }
    }
    const int n = int(files.size());
    double baseline = 1e9, full = 1e9, parse = 1e9, modelTime = 1e9, rankerTime = 1e9, textTime = 1e9;
    long textCandidates = 0;
    long found = 0, sdFound = 0;
    for (int r = 0; r < reps; ++r) {
        auto t0 = Clock::now();
        long sdValues = 0;
        for (const QByteArray &g : gz) {
            QByteArray html;
            QString err;
            gunzipBounded(g, qint64(256) << 20, &html, &err);
            sdValues += long(structured::productFields(structured::readStructuredData(html, "page")).size());
        }
        baseline = std::min(baseline, seconds(t0));
        sdFound = sdValues;
        double parseSum = 0, modelSum = 0, rankerSum = 0, textSum = 0;
        long texts = 0;
        long values = 0;
        t0 = Clock::now();
        for (int i = 0; i < n; ++i) {
            const auto p0 = Clock::now();
            QByteArray html;
            QString err;
            gunzipBounded(gz[i], qint64(256) << 20, &html, &err);
            const HtmlLoadResult loaded = loadHtmlBytes(html, files[i]);
            inference::WebPage page = pipeline::webPageFromDocument(loaded.document, files[i].toStdString());
            parseSum += seconds(p0);
            const structured::StructuredData sd = structured::readStructuredData(html, files[i]);
            const int prefix = pipeline::prependStructuredCandidates(&page, sd);
            const auto m0 = Clock::now();
            std::vector<inference::FieldSpan> spans;
            ex.extract(page, {}, &spans, &error);
            modelSum += seconds(m0);
            std::vector<pipeline::ProductValue> v = pipeline::productValues(spans, prefix, sd, true);
            const auto r0 = Clock::now();
            for (const auto &[field, ranker] : rankers) {
                std::vector<pipeline::ProductValue> ranked;
                if (const auto best = structured::rankCandidates(ranker, structured::findCandidates(field, loaded.document, sd)))
                    ranked = pipeline::rankedValues(field, *best, {}, -1, -1);
                pipeline::chooseRankedValue(&v, sd, field, ranked, ranker.structuredFirst());
            }
            rankerSum += seconds(r0);
            values += long(v.size());
            // what a project's text-node ranker adds for one field (candidates + features), kept out of the total
            const auto x0 = Clock::now();
            texts += long(structured::findCandidates("brand", loaded.document, sd).size());
            textSum += seconds(x0);
        }
        full = std::min(full, seconds(t0) - textSum);
        textTime = std::min(textTime, textSum);
        textCandidates = texts;
        parse = std::min(parse, parseSum);
        modelTime = std::min(modelTime, modelSum);
        rankerTime = std::min(rankerTime, rankerSum);
        found = values;
    }
    std::printf("%d benchmark pages (%.1f MB gzip), %d torch thread(s), best of %d\n\n", n, bytes / 1e6, threads, reps);
    std::printf("| pipeline | seconds | pages/s | ratio to the schema.org reader | values |\n|---|---:|---:|---:|---:|\n");
    std::printf("| schema.org reader alone (gunzip + libxml2 + JSON-LD/microdata/RDFa/meta) | %.2f | %.1f | 1.0x | %ld |\n", baseline,
                n / baseline, sdFound);
    std::printf("| extraction (gunzip + Document + reader + WebFormer + rankers + values) | %.2f | %.1f | %.1fx slower | %ld |\n", full, n / full,
                full / baseline, found);
    std::printf("| of which parse (gunzip + Document + WebPage) | %.2f | | | |\n", parse);
    std::printf("| of which WebFormer forward + decoding | %.2f | | | |\n", modelTime);
    std::printf("| of which price + sku rankers (%zu loaded: candidates, features, scores) | %.2f | | %.2fx the reader | |\n",
                rankers.size(), rankerTime, rankerTime / baseline);
    std::printf("| a project's text-node ranker, one more field (\"brand\": %ld text-node candidates, features) | %.2f | | %.2fx the reader | |\n",
                textCandidates, textTime, textTime / baseline);
    return 0;
}
