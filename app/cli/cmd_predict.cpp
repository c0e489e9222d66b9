// folio-cli predict --checkpoint DIR FILE: labelled entities of one document as JSON. FILE is a
// FUNSD annotation JSON (its gold words and boxes), a Folio document JSON, an HTML file (the
// loader's words; no rendering, so no boxes) or an image / PDF (through the OCR workers).
#include "app/cli/commands.h"
#include "app/cli/trainingdata.h"
#include "inference/models/modelrunner.h"
#include "inference/formtagger/trainer.h"
#include "inference/formtagger/trainpages.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <QFileInfo>

#include <iostream>

namespace folio::cli {

void registerPredictCommand(CLI::App &app)
{
    auto *cmd = app.add_subcommand("predict", "Label the entities of a document with a checkpoint (JSON on stdout)");
    struct Opts
    {
        std::string checkpoint, file, order = "annotation";
        bool argmax = false;
        int threads = 2;
    };
    auto o = std::make_shared<Opts>();
    cmd->add_option("--checkpoint", o->checkpoint, "Checkpoint folder")->required();
    cmd->add_option("file", o->file, "FUNSD JSON, Folio document JSON, HTML, image or PDF")->required();
    cmd->add_option("--order", o->order, "Word order for FUNSD input: annotation or reading");
    cmd->add_option("--threads", o->threads, "Torch / BLAS threads");
    cmd->add_flag("--argmax", o->argmax, "Argmax decoding instead of constrained Viterbi");
    cmd->callback([o]() {
        inference::Predictor pred;
        std::string err;
        if (!pred.load(o->checkpoint, &err)) // before OCR: a broken checkpoint fails fast
            throw CliError(err);
        Document doc;
        Annotations gold;
        const QString path = QString::fromStdString(o->file);
        loadAnyDocument(path, parseWordOrder(o->order), &doc, &gold);
        inference::configureThreads(o->threads);
        QStringList ids;
        const inference::TrainPage page = inference::trainPageFromDocument(doc, nullptr, o->file, &ids);
        if (page.words.empty())
            throw CliError(o->file + ": empty document (no words to label)");
        inference::PagePrediction out;
        if (!pred.predict(page, &out, &err, !o->argmax))
            throw CliError(o->file + ": " + err);
        nlohmann::json entities = nlohmann::json::array();
        for (const auto &e : out.entities) {
            nlohmann::json words = nlohmann::json::array();
            std::string text;
            for (int i = e.firstWord; i <= e.lastWord; ++i) {
                words.push_back(ids[i].toStdString());
                text += (text.empty() ? "" : " ") + page.words[size_t(i)];
            }
            const auto &b0 = page.boxes[size_t(e.firstWord)];
            nlohmann::json box = {b0.x0, b0.y0, b0.x1, b0.y1};
            for (int i = e.firstWord; i <= e.lastWord; ++i) {
                const auto &b = page.boxes[size_t(i)];
                box = {std::min(box[0].get<int>(), b.x0), std::min(box[1].get<int>(), b.y0),
                       std::max(box[2].get<int>(), b.x1), std::max(box[3].get<int>(), b.y1)};
            }
            entities.push_back({{"label", e.label}, {"text", text}, {"words", words}, {"box_norm", box},
                                {"confidence", e.confidence}});
        }
        nlohmann::json j{{"file", o->file}, {"checkpoint", o->checkpoint}, {"words", page.words.size()},
                         {"decode", o->argmax ? "argmax" : "viterbi"}, {"entities", entities}};
        std::cout << j.dump(2) << std::endl;
    });
}

} // namespace folio::cli
