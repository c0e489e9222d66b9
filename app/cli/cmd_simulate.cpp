// folio-cli simulate-labelling (issue 47): replays the labelling loop on a labelled corpus with a
// simulated annotator (pipeline/labelling/labellingsimulation.h) and prints one JSON line per page:
// the edits the person needed, edits per word, the same page's edits without a model (the baseline
// of the same run), training seconds and, after each retraining, the model's held-out entity F1.
// --plot draws edits per word against pages labelled, one series per order compared (and the
// no-model baseline): SVG written directly, PNG painted with QPainter.
#include "app/cli/commands.h"
#include "pipeline/labelling/labellingsimulation.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <QColor>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QPainterPath>
#include <QTemporaryDir>

#include <fstream>
#include <iostream>

namespace folio::cli {

namespace {

struct Series
{
    QString name;
    std::vector<double> values; // edits per word, page by page
};

const char *const kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};

void plotBounds(const std::vector<Series> &series, int *pages, double *top)
{
    *pages = 1;
    *top = 0.1;
    for (const Series &s : series) {
        *pages = std::max(*pages, int(s.values.size()));
        for (double v : s.values)
            *top = std::max(*top, v);
    }
    *top *= 1.1;
}

QString svgPlot(const std::vector<Series> &series)
{
    const double w = 720, h = 420, left = 60, right = 180, topM = 20, bottom = 50;
    int pages = 1;
    double top = 1;
    plotBounds(series, &pages, &top);
    auto x = [&](int i) { return left + (w - left - right) * (pages > 1 ? double(i) / (pages - 1) : 0.5); };
    auto y = [&](double v) { return topM + (h - topM - bottom) * (1 - v / top); };
    QString s = QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%1\" height=\"%2\" font-family=\"sans-serif\" font-size=\"12\">\n"
                               "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n").arg(w).arg(h);
    s += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\" stroke=\"black\"/>\n").arg(left).arg(h - bottom).arg(w - right);
    s += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%1\" y2=\"%3\" stroke=\"black\"/>\n").arg(left).arg(topM).arg(h - bottom);
    for (int k = 0; k <= 4; ++k) {
        const double v = top * k / 4;
        s += QStringLiteral("<text x=\"%1\" y=\"%2\" text-anchor=\"end\">%3</text>\n").arg(left - 6).arg(y(v) + 4).arg(v, 0, 'f', 2);
    }
    for (int k = 0; k < pages; k += std::max(1, pages / 10))
        s += QStringLiteral("<text x=\"%1\" y=\"%2\" text-anchor=\"middle\">%3</text>\n").arg(x(k)).arg(h - bottom + 16).arg(k + 1);
    s += QStringLiteral("<text x=\"%1\" y=\"%2\" text-anchor=\"middle\">pages labelled</text>\n").arg((left + w - right) / 2).arg(h - 10);
    s += QStringLiteral("<text x=\"14\" y=\"%1\" transform=\"rotate(-90 14 %1)\" text-anchor=\"middle\">edits per word</text>\n").arg(h / 2);
    for (size_t i = 0; i < series.size(); ++i) {
        const char *colour = kColours[i % 6];
        QString points;
        for (size_t k = 0; k < series[i].values.size(); ++k)
            points += QStringLiteral("%1,%2 ").arg(x(int(k)), 0, 'f', 1).arg(y(series[i].values[k]), 0, 'f', 1);
        s += QStringLiteral("<polyline fill=\"none\" stroke=\"%1\" stroke-width=\"1.5\" points=\"%2\"/>\n").arg(QLatin1String(colour), points.trimmed());
        const double ly = topM + 10 + 18 * double(i);
        s += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\" stroke=\"%4\" stroke-width=\"2\"/>\n")
                 .arg(w - right + 10).arg(ly).arg(w - right + 30).arg(QLatin1String(colour));
        s += QStringLiteral("<text x=\"%1\" y=\"%2\">%3</text>\n").arg(w - right + 36).arg(ly + 4).arg(series[i].name.toHtmlEscaped());
    }
    s += QStringLiteral("</svg>\n");
    return s;
}

bool pngPlot(const std::vector<Series> &series, const QString &path)
{
    const int w = 720, h = 420, left = 60, right = 180, topM = 20, bottom = 50;
    int pages = 1;
    double top = 1;
    plotBounds(series, &pages, &top);
    auto x = [&](int i) { return left + (w - left - right) * (pages > 1 ? double(i) / (pages - 1) : 0.5); };
    auto y = [&](double v) { return topM + (h - topM - bottom) * (1 - v / top); };
    QImage image(w, h, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    p.drawLine(left, h - bottom, w - right, h - bottom);
    p.drawLine(left, topM, left, h - bottom);
    for (int k = 0; k <= 4; ++k)
        p.drawText(QRectF(0, y(top * k / 4) - 8, left - 6, 16), Qt::AlignRight | Qt::AlignVCenter, QString::number(top * k / 4, 'f', 2));
    for (int k = 0; k < pages; k += std::max(1, pages / 10))
        p.drawText(QRectF(x(k) - 20, h - bottom + 4, 40, 16), Qt::AlignCenter, QString::number(k + 1));
    p.drawText(QRectF(left, h - 24, w - left - right, 20), Qt::AlignCenter, QStringLiteral("pages labelled"));
    for (size_t i = 0; i < series.size(); ++i) {
        QPen pen{QColor(QLatin1String(kColours[i % 6]))};
        pen.setWidthF(1.5);
        p.setPen(pen);
        QPainterPath path;
        for (size_t k = 0; k < series[i].values.size(); ++k) {
            const QPointF pt(x(int(k)), y(series[i].values[k]));
            k == 0 ? path.moveTo(pt) : path.lineTo(pt);
        }
        p.drawPath(path);
        const double ly = topM + 10 + 18 * double(i);
        p.drawLine(QPointF(w - right + 10, ly), QPointF(w - right + 30, ly));
        p.setPen(Qt::black);
        p.drawText(QPointF(w - right + 36, ly + 4), series[i].name);
    }
    p.end();
    return image.save(path, "PNG");
}

} // namespace

void registerSimulateCommand(CLI::App &app)
{
    auto *cmd = app.add_subcommand("simulate-labelling",
                                   "Replay labelling a corpus with a simulated annotator: edits per page with suggestions and retraining");
    struct Opts
    {
        std::string data, test, start = "none", order = "uncertain", out, plot, workDir;
        int retrainEvery = 5, pages = 0, epochs = 10, maxSteps = 0, hidden = 256, layers = 4, threads = 2;
        double budget = 0;
        unsigned seed = 1;
    };
    auto o = std::make_shared<Opts>();
    cmd->add_option("--data", o->data, "A FUNSD dataset root, an XFUND file or a .folio project (the pages to label)")->required();
    cmd->add_option("--test", o->test, "Held-out pages (FUNSD root: its testing_data; XFUND file; project); default: "
                                       "FUNSD's testing_data, a fifth of a project's labelled documents");
    cmd->add_option("--start", o->start, "A folio-formtagger checkpoint that suggests from the first page, or none");
    cmd->add_option("--order", o->order, "Page order: uncertain | random | document, or several comma-separated (one run each)");
    cmd->add_option("--retrain-every", o->retrainEvery, "Retrain on the pages done every N pages (0: never)");
    cmd->add_option("--pages", o->pages, "Pages to label (0: all)");
    cmd->add_option("--budget-seconds", o->budget, "Time limit of one retraining (the best epoch so far takes over); 0: none");
    cmd->add_option("--seed", o->seed, "Seed of the random order and of training");
    cmd->add_option("--epochs", o->epochs, "Epochs per retraining");
    cmd->add_option("--max-steps", o->maxSteps, "Optimizer steps per retraining at most (0: no limit)");
    cmd->add_option("--hidden", o->hidden, "Hidden size of a model trained from scratch (--start none)");
    cmd->add_option("--layers", o->layers, "Layers of a model trained from scratch (--start none)");
    cmd->add_option("--threads", o->threads, "Training threads");
    cmd->add_option("--work-dir", o->workDir, "Where retrained checkpoints go (default: a temporary folder, removed)");
    cmd->add_option("--out", o->out, "Also write the JSON lines to this file");
    cmd->add_option("--plot", o->plot, "Plot of edits per word against pages labelled (.svg or .png)");
    cmd->callback([o]() {
        std::vector<labelling::PageOrder> orders;
        for (const std::string &name : splitCommaList(o->order)) {
            labelling::PageOrder order;
            if (!labelling::pageOrderFromName(QString::fromStdString(name), &order))
                throw CliError("--order " + name + ": not one of uncertain, random, document", ExitUsage);
            orders.push_back(order);
        }
        if (orders.empty())
            throw CliError("--order: no order given", ExitUsage);
        if (o->retrainEvery < 0 || o->pages < 0 || o->epochs < 1 || o->hidden < 16 || o->layers < 1)
            throw CliError("--retrain-every / --pages must be >= 0, --epochs and --layers >= 1, --hidden >= 16", ExitUsage);
        const QString plot = QString::fromStdString(o->plot);
        if (!plot.isEmpty() && !plot.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)
            && !plot.endsWith(QLatin1String(".png"), Qt::CaseInsensitive))
            throw CliError(o->plot + ": --plot writes .svg or .png", ExitUsage);

        labelling::SimulationData data;
        QString error;
        if (!labelling::loadSimulationData(inputPath(o->data), o->test.empty() ? QString() : inputPath(o->test), &data, &error))
            throw CliError(error.toStdString());
        for (const QString &n : data.notes)
            std::cerr << "simulate-labelling: " << n.toStdString() << "\n";

        std::ofstream jsonl;
        if (!o->out.empty()) {
            jsonl.open(o->out);
            if (!jsonl)
                throw CliError(o->out + ": cannot be written");
        }
        auto writeLine = [&](const nlohmann::json &j) {
            std::cout << j.dump() << std::endl;
            if (jsonl.is_open())
                jsonl << j.dump() << "\n";
        };

        QTemporaryDir tmp;
        const QString workRoot = o->workDir.empty() ? tmp.path() : QString::fromStdString(o->workDir);
        std::vector<Series> series;
        Series baseline{QStringLiteral("no model"), {}};
        CancelScope cancelScope;
        for (labelling::PageOrder order : orders) {
            labelling::SimulationConfig config;
            config.startModel = o->start == "none" ? QString() : inputPath(o->start);
            config.order = order;
            config.retrainEvery = o->retrainEvery;
            config.pages = o->pages;
            config.budgetSeconds = o->budget;
            config.seed = o->seed;
            config.epochs = o->epochs;
            config.maxSteps = o->maxSteps;
            config.hidden = o->hidden;
            config.layers = o->layers;
            config.threads = o->threads;
            config.workDir = QDir(workRoot).filePath(labelling::pageOrderName(order));
            std::atomic<bool> cancel{false};
            config.cancel = &cancel;
            const std::string orderName = labelling::pageOrderName(order).toStdString();
            Series s{labelling::pageOrderName(order) + (config.startModel.isEmpty() ? QString() : QStringLiteral(" (start model)"))
                         + (o->retrainEvery > 0 ? QStringLiteral(", retrain /%1").arg(o->retrainEvery) : QString()),
                     {}};
            std::vector<double> noModel;
            labelling::SimulationSummary summary;
            const auto onPage = [&](const labelling::PageRecord &r) {
                if (cancelRequested())
                    cancel = true;
                nlohmann::json j{{"order", orderName},
                                 {"page", r.index},
                                 {"page_id", r.pageId.toStdString()},
                                 {"words", r.words},
                                 {"suggestions", r.suggestions},
                                 {"edits", r.edits.total()},
                                 {"edits_per_word", r.editsPerWord()},
                                 {"edits_without_model", r.editsWithoutModel},
                                 {"entity_edits", r.edits.entityEdits()},
                                 {"entity_edits_without_model", r.entityEditsWithoutModel},
                                 {"link_edits", r.edits.linkEdits()},
                                 {"edit_kinds", {{"label", r.edits.label}, {"relabel", r.edits.relabel}, {"merge", r.edits.merge},
                                                 {"remove", r.edits.remove}, {"add_link", r.edits.addLink},
                                                 {"remove_link", r.edits.removeLink}, {"accept", r.edits.accept}}},
                                 {"train_seconds", r.trainSeconds}};
                if (r.uncertainty >= 0)
                    j["uncertainty"] = r.uncertainty;
                if (r.retrained) {
                    j["retrained"] = true;
                    j["model_updated"] = r.modelUpdated;
                    if (r.testF1 >= 0)
                        j["test_f1"] = r.testF1;
                    if (!r.trainNote.isEmpty())
                        j["note"] = r.trainNote.toStdString();
                }
                writeLine(j);
                s.values.push_back(r.editsPerWord());
                noModel.push_back(r.words > 0 ? double(r.editsWithoutModel) / r.words : 0);
            };
            const auto note = [&](const QString &m) { std::cerr << "simulate-labelling: " << m.toStdString() << "\n"; };
            if (!labelling::runLabellingSimulation(data, config, onPage, &summary, &error, note))
                throw CliError(error.toStdString(), cancelRequested() ? ExitCancelled : ExitFailure);
            nlohmann::json j{{"summary", true},
                             {"order", orderName},
                             {"start", o->start},
                             {"retrain_every", o->retrainEvery},
                             {"pages", summary.pages},
                             {"held_out_pages", int(data.test.size())},
                             {"words", summary.words},
                             {"edits", summary.edits.total()},
                             {"edits_without_model", summary.editsWithoutModel},
                             {"entity_edits", summary.edits.entityEdits()},
                             {"entity_edits_without_model", summary.entityEditsWithoutModel},
                             {"edits_per_word", summary.words > 0 ? double(summary.edits.total()) / summary.words : 0.0},
                             {"edits_ratio_to_no_model",
                              summary.editsWithoutModel > 0 ? double(summary.edits.total()) / summary.editsWithoutModel : 0.0},
                             {"retrainings", summary.retrainings},
                             {"train_seconds", summary.trainSeconds}};
            if (summary.startTestF1 >= 0)
                j["start_test_f1"] = summary.startTestF1;
            if (summary.finalTestF1 >= 0)
                j["final_test_f1"] = summary.finalTestF1;
            writeLine(j);
            series.push_back(std::move(s));
            if (baseline.values.empty() || order == labelling::PageOrder::Document)
                baseline.values = noModel; // one no-model curve (its pages follow the order it ran in)
        }
        if (!plot.isEmpty()) {
            series.push_back(baseline);
            if (plot.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
                QFile f(plot);
                if (!f.open(QIODevice::WriteOnly) || f.write(svgPlot(series).toUtf8()) < 0)
                    throw CliError(o->plot + ": cannot be written");
            } else if (!pngPlot(series, plot)) {
                throw CliError(o->plot + ": cannot be written");
            }
        }
    });
}

} // namespace folio::cli
