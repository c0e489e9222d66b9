#pragma once
// folio-cli subcommands. Each subcommand lives in its own file (cmd_<name>.cpp) and registers
// itself on the root CLI11 app; main.cpp calls every register function below.
//
// Contract for a subcommand:
//  - results go to stdout as JSON (or the format asked for), progress and messages to stderr;
//  - failures throw folio::cli::CliError (or any std::exception) with a message that names the
//    file and the problem: main.cpp prints "folio-cli: <message>" and exits with its code.

#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <filesystem>

namespace CLI {
class App;
}
class QString;
namespace folio::inference {
struct PageLevelScore;
}

namespace folio::cli {

// Exit codes scripts can rely on.
enum ExitCode : int {
    ExitOk = 0,        // success
    ExitFailure = 1,   // bad input or a failed operation (message on stderr)
    ExitUsage = 2,     // wrong arguments (CLI11 prints the usage)
    ExitCancelled = 3, // interrupted (SIGINT) before finishing
};

class CliError : public std::runtime_error
{
public:
    explicit CliError(const std::string &message, int code = ExitFailure)
        : std::runtime_error(message), m_code(code) {}
    int code() const { return m_code; }

private:
    int m_code;
};

// "a,b,,c" -> {"a", "b", "c"} (empty items dropped): comma-separated option values.
std::vector<std::string> splitCommaList(const std::string &list);
// `j` pretty-printed (2 spaces) into `path`; CliError naming the file when it cannot be written.
void writeJsonFile(const std::filesystem::path &path, const nlohmann::json &j);

// Progress on stderr ("label: 12/50" lines, or a percentage), silent when --quiet.
void reportProgress(const std::string &label, long done, long total);
// The dataset format names (document/formats: one list), for --format choices. In cmd_import.cpp.
std::vector<std::string> datasetFormatChoices();
bool quiet();
void setQuiet(bool q);

// Cancelling (cancel.cpp; main.cpp calls installCancelHandlers first). SIGINT/SIGTERM end folio-cli
// with ExitCancelled: at once, unless a CancelScope is alive, in which case the first signal only
// sets cancelRequested() for the work to poll (it then stops cleanly, e.g. kills its OCR workers,
// and throws CliError(..., ExitCancelled)); a second signal exits at once.
void installCancelHandlers();
bool cancelRequested();
class CancelScope
{
public:
    CancelScope();
    ~CancelScope();
    CancelScope(const CancelScope &) = delete;
    CancelScope &operator=(const CancelScope &) = delete;
};

// A FILE argument as a Qt path: its local 8-bit decoding, or, for a name that is not valid UTF-8
// (which QString cannot hold), a symlink with a UTF-8 name to it that lives until exit
// (inputpath.cpp). Returns a QString; declared with a forward declaration to keep Qt out of here.
QString inputPath(const std::string &argument);

// Register functions, one per subcommand file.
void registerInfoCommand(CLI::App &app);      // cmd_info.cpp: versions of linked libraries
void registerDocCommand(CLI::App &app);       // cmd_doc.cpp: validate / pretty-print Document JSON
void registerDomCommand(CLI::App &app);       // cmd_dom.cpp: a web page as Document JSON (--render: with boxes)
void registerOcrCommand(CLI::App &app);       // cmd_ocr.cpp: OCR an image/PDF into a Document (json|tsv|hocr)
void registerTrainCommand(CLI::App &app);     // cmd_train.cpp: train the layout tagger on FUNSD
void registerEvalCommand(CLI::App &app);      // cmd_eval.cpp: entity P/R/F1 of a checkpoint on a split
void registerTrainLinksCommand(CLI::App &app); // cmd_links.cpp: the key -> value link head of a tagger checkpoint
void registerPretrainCommand(CLI::App &app);  // cmd_pretrain.cpp: self-supervised pretraining on unlabelled documents
void registerQsCommand(CLI::App &app);        // cmd_qs.cpp: question-summary hierarchies (generate, eval, train)
void registerQsTrainCommand(CLI::App &qs);    // cmd_qstrain.cpp: `qs train`, registered by registerQsCommand
void registerPredictCommand(CLI::App &app);   // cmd_predict.cpp: labelled entities of a document as JSON
void registerVocabCommand(CLI::App &app);     // cmd_vocab.cpp: train a SentencePiece vocabulary
void registerRunCommand(CLI::App &app);       // cmd_run.cpp: run a checkpoint on prepared tensors
void registerExtractCommand(CLI::App &app);   // cmd_extract.cpp: WebFormer field values of a web page as JSON
void registerExtractScoreCommand(CLI::App &app); // cmd_extract_score.cpp: product benchmark P/R/F1 per attribute
void registerTrainRankersCommand(CLI::App &app); // cmd_train_rankers.cpp: price / sku rankers (site-grouped CV, then all pages)
void registerRankSwdeCommand(CLI::App &app);     // cmd_rank_swde.cpp: text-node rankers on SWDE's unseen-site protocol
void registerTrainProductCommand(CLI::App &app); // cmd_train_product.cpp: product-field WebFormer (site-grouped CV or all pages)
void registerTrainWebFormerCommand(CLI::App &app); // cmd_train_webformer.cpp: train WebFormer on SWDE, page-level F1
void registerProjectCommand(CLI::App &app);   // cmd_project.cpp: project create|add|list|status
void registerProjectFieldsCommand(CLI::App &app); // cmd_project_fields.cpp: project fields (after registerProjectCommand)
void registerProjectTeamCommand(CLI::App &app);   // cmd_project_team.cpp: project users|assign|claim|review|history|agreement|save (after registerProjectCommand)
void registerProjectQueueCommand(CLI::App &app);  // cmd_project_queue.cpp: project queue status (after registerProjectCommand)
void registerImportCommand(CLI::App &app);    // cmd_import.cpp: dataset files into a project
void registerExportCommand(CLI::App &app);    // cmd_export.cpp: a project as a dataset
void registerExplainCommand(CLI::App &app); // cmd_explain.cpp: attributions and what-if edits (layout tagger)
void registerAttentionCommand(CLI::App &app); // cmd_attention.cpp: attention/bias heatmap or matrices of a checkpoint
void registerSimulateCommand(CLI::App &app);  // cmd_simulate.cpp: simulate-labelling (issue 47: the labelling loop replayed)
void registerHubCommand(CLI::App &app);       // cmd_hub.cpp: hub download / hub list (the Hugging Face Hub cache Python shares)

// SWDE page-level scores as JSON: precision / recall / f1 and per field (cmd_train_webformer.cpp).
nlohmann::json pageLevelScoreJson(const inference::PageLevelScore &score);

} // namespace folio::cli
