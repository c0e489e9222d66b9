#pragma once
// The drafter in folio-cli (cmd_qsdraft.cpp): options shared by `qs generate` and `qs eval`, one
// document -> JSON with evidence, and the `qs train-drafter` / `qs check` subcommands.
#include "pipeline/documentsource.h"
#include "pipeline/qs/qssummarizer.h"
#include "pipeline/qs/draft/drafter.h"

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
// The drafter's --max-items / --max-depth / --summary-words as summarizer settings (unset: the drafter's).
pipeline::QsSettings draftSettings(const DraftCliOptions &o);
// Loads `dir` (empty: the shipped drafter); CliError naming the folder when it cannot.
pipeline::QsDrafter loadDrafter(const std::string &dir);
// Loads `checkpoint` into *qs: a drafter folder (empty: the shipped drafter) with --questions neural's
// question generator, or (unless `drafterOnly`) a seq2seq checkpoint, `int8` as QsSummarizer::load.
// CliError naming the folder when it cannot.
void loadQsSummarizer(const std::string &checkpoint, bool int8, const DraftCliOptions &o, pipeline::QsSummarizer *qs,
                      bool drafterOnly = false);

// A document (scan, PDF, HTML, Folio JSON) or a QMSum meeting file read for the summarizer; the
// loaded document stays here for the text's evidence.
struct QsFile
{
    pipeline::LoadedDocument loaded;
    pipeline::QsText text;
    QStringList warnings; // from loading the document
    QsFile() = default;
    QsFile(const QsFile &) = delete;
    QsFile &operator=(const QsFile &) = delete;
};
// CliError naming the file when it cannot be read. `argument` titles an untitled document.
void readQsFile(const QString &path, const std::string &argument, QsFile *file);
// The summarizer on a file's text with progress on stderr ("draft" / "generate") and cancel on
// SIGINT; CliError "<argument>: <why>" (ExitCancelled when cancelled) when it fails.
pipeline::QsResult runQsFile(const pipeline::QsSummarizer &qs, const pipeline::QsSettings &settings, const QsFile &file,
                             const std::string &argument, bool showProgress);
// A drafter run on one file -> the hierarchy JSON (summary, nested items with question / summary /
// confidence / evidence, notes, checks).
nlohmann::json draftFile(const pipeline::QsSummarizer &qs, const pipeline::QsSettings &settings, const QString &path,
                         const std::string &argument, bool showProgress);

// qs eval on FairytaleQA (cmd_qsevalstories.cpp): section summaries against the answers and questions
// against the reference questions of each section, beside the lead baseline; `drafter` may be null.
nlohmann::json evalSectionedStories(const std::string &data, const std::string &split, int limit,
                                    const pipeline::QsDrafter *drafter, const pipeline::DraftOptions &options);

void registerQsDraftCommands(CLI::App *qs); // qs train-drafter, qs check
void registerQsQuestionCommands(CLI::App *qs); // cmd_qsquestions.cpp: qs train-questions, eval-questions

} // namespace folio::cli
