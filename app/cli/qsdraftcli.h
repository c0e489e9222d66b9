#pragma once
// The drafter in folio-cli (cmd_qsdraft.cpp): options shared by `qs generate` and `qs eval`, one
// document -> JSON with evidence, and the `qs train-drafter` / `qs check` subcommands.
#include "pipeline/qsdraft/drafter.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <QString>

#include <string>

namespace folio::cli {

struct DraftCliOptions
{
    int maxItems = -1, maxDepth = -1, summaryWords = -1;
    std::string questions = "templates"; // templates | neural (questiongen.h, template fallback)
    std::string questionModel;           // neural: the generator folder (default: the shipped one)
};

void addDraftOptions(CLI::App *cmd, DraftCliOptions *o);
pipeline::DraftOptions draftOptions(const pipeline::QsDrafter &drafter, const DraftCliOptions &o);
// Loads `dir` (empty: the shipped drafter); CliError naming the folder when it cannot.
pipeline::QsDrafter loadDrafter(const std::string &dir);
// --questions neural: loads the question generator and sets drafter->questionWriter (CliError naming
// the folder when it cannot); templates: nothing.
void useQuestionOptions(pipeline::QsDrafter *drafter, const DraftCliOptions &o);
// A document (scan, PDF, HTML, Folio JSON) or a QMSum meeting file -> the hierarchy JSON
// (summary, nested items with question / summary / confidence / evidence, notes, checks).
nlohmann::json draftFile(const pipeline::QsDrafter &drafter, const pipeline::DraftOptions &options, const QString &path,
                         const std::string &argument, bool showProgress);

// qs eval on FairytaleQA (cmd_qsevalstories.cpp): section summaries against the answers and questions
// against the reference questions of each section, beside the lead baseline; `drafter` may be null.
nlohmann::json evalSectionedStories(const std::string &data, const std::string &split, int limit,
                                    const pipeline::QsDrafter *drafter, const pipeline::DraftOptions &options);

void registerQsDraftCommands(CLI::App *qs); // qs train-drafter, qs check
void registerQsQuestionCommands(CLI::App *qs); // cmd_qsquestions.cpp: qs train-questions, eval-questions

} // namespace folio::cli
