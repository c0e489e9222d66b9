// folio-cli and the question-summary drafter (issue 31):
//   qs generate FILE                       the shipped drafter (resources/models/qs-drafter) by default
//   qs train-drafter --data QMSUM [--data FAIRYTALEQA --data CL-SCISUMM] --out DIR  fits sentence salience on
//                                          the training splits and mines question templates (QMSum train)
//   qs train-drafter --data x.folio --out DIR  moves the shipped drafter towards a project's reviewed items
//   qs check FILE...                       coverage, supported sentences, grounded and duplicate questions
#include "app/cli/batch.h"
#include "app/cli/commands.h"
#include "app/cli/qsdraftcli.h"
#include "pipeline/documentsource.h"
#include "pipeline/qs/qmsum.h"
#include "pipeline/qs/draft/draftchecks.h"
#include "pipeline/qs/draft/draftcorrections.h"
#include "pipeline/qs/draft/saliencedata.h"
#include "pipeline/shippedmodels.h"

#include <QDir>
#include <QFileInfo>

#include <atomic>
#include <chrono>
#include <iostream>

namespace folio::cli {

void addDraftOptions(CLI::App *cmd, DraftCliOptions *o)
{
    cmd->add_option("--max-items", o->maxItems, "Drafter: most questions (default: the drafter's, 40)")->check(CLI::Range(1, 100000));
    cmd->add_option("--max-depth", o->maxDepth, "Drafter: deepest question level (default 3)")->check(CLI::Range(1, 64));
    cmd->add_option("--summary-words", o->summaryWords, "Drafter: words per summary (default 80)")->check(CLI::Range(5, 2000));
    cmd->add_option("--questions", o->questions,
                    "Drafter: how questions are written: templates (mined from QMSum), or neural (the answer-aware "
                    "question generator, templates where it gives nothing new)")
        ->check(CLI::IsMember({"templates", "neural"}));
    cmd->add_option("--question-model", o->questionModel,
                    "Drafter: question generator folder for --questions neural (default: the shipped qs-questions)");
}

pipeline::QsSettings draftSettings(const DraftCliOptions &o)
{
    pipeline::QsSettings s;
    s.maxItems = o.maxItems;
    s.maxDepth = o.maxDepth;
    s.summaryWords = o.summaryWords;
    return s;
}

pipeline::QsDrafter loadDrafter(const std::string &dir)
{
    QString folder = QString::fromStdString(dir);
    if (folder.isEmpty()) {
        folder = pipeline::shippedQsDrafterDir();
        if (folder.isEmpty())
            throw CliError("qs: the shipped drafter resources/models/qs-drafter/drafter.json is missing (give --checkpoint DIR)");
    }
    pipeline::QsDrafter d;
    QString error;
    if (!d.load(folder, &error))
        throw CliError(error.toStdString());
    return d;
}

void loadQsSummarizer(const std::string &checkpoint, bool int8, const DraftCliOptions &o, pipeline::QsSummarizer *qs, bool drafterOnly)
{
    QString folder = QString::fromStdString(checkpoint), error;
    if (folder.isEmpty()) {
        folder = pipeline::shippedQsDrafterDir();
        if (folder.isEmpty())
            throw CliError("qs: the shipped drafter resources/models/qs-drafter/drafter.json is missing (give --checkpoint DIR)");
    }
    if (drafterOnly && !pipeline::QsDrafter::isDrafterFolder(folder)) {
        pipeline::QsDrafter d; // no drafter.json: its own message names the file
        if (!d.load(folder, &error))
            throw CliError(error.toStdString());
    }
    if (!qs->load(folder, &error, int8))
        throw CliError(error.toStdString());
    if (!qs->isDrafter() || o.questions != "neural")
        return;
    QString dir = QString::fromStdString(o.questionModel);
    if (dir.isEmpty())
        dir = pipeline::shippedQsQuestionsDir();
    if (dir.isEmpty())
        throw CliError("qs: --questions neural needs --question-model DIR (no shipped resources/models/qs-questions)");
    if (!qs->setQuestionModel(dir, &error))
        throw CliError(error.toStdString());
}

void readQsFile(const QString &path, const std::string &argument, QsFile *file)
{
    if (pipeline::looksLikeQmsum(path)) {
        pipeline::QmsumMeeting m;
        QString error;
        if (!pipeline::readQmsumMeeting(path, &m, &error))
            throw CliError(error.toStdString());
        file->text = pipeline::qsTextOfMeeting(m);
        return;
    }
    file->loaded = pipeline::loadDocumentFile(path);
    if (!file->loaded.ok)
        throw CliError(file->loaded.error.toStdString());
    file->warnings += file->loaded.warnings;
    pipeline::QsInput input = pipeline::qsInputFromDocument(file->loaded.document);
    input.id = path;
    file->text = pipeline::qsTextOfDocument(file->loaded.document, input);
    if (file->text.draft.title.isEmpty())
        file->text.draft.title = QString::fromStdString(argument);
}

pipeline::QsResult runQsFile(const pipeline::QsSummarizer &qs, const pipeline::QsSettings &settings, const QsFile &file,
                             const std::string &argument, bool showProgress)
{
    std::atomic_bool stop{false};
    const std::string label = qs.isDrafter() ? "draft" : "generate";
    pipeline::QsResult r = qs.generate(
        file.text, settings,
        [&](int done, int total) {
            if (showProgress)
                reportProgress(label, done, total);
            if (cancelRequested())
                stop = true;
        },
        &stop);
    if (!r.ok)
        throw CliError(argument + ": " + r.error.toStdString(), r.cancelled ? ExitCancelled : ExitFailure);
    return r;
}

namespace {

nlohmann::json refsJson(const pipeline::DraftSource &src, const std::vector<std::pair<int, int>> &refs)
{
    nlohmann::json a = nlohmann::json::array();
    for (const auto &[s, i] : refs) {
        const pipeline::DraftSentence &t = src.sections[std::size_t(s)].sentences[std::size_t(i)];
        nlohmann::json e{{"section", s}, {"text", t.text.toStdString()}};
        if (t.firstWord >= 0)
            e["words"] = {t.firstWord, t.lastWord};
        if (t.unit >= 0)
            e["turn"] = t.unit;
        a.push_back(e);
    }
    return a;
}

nlohmann::json checkJson(const pipeline::DraftCheck &c)
{
    return {{"top_level_sections", c.topLevelSections},      {"top_level_with_content", c.topLevelWithContent},
            {"top_level_covered", c.topLevelCovered},        {"items", c.items},
            {"summary_sentences", c.summarySentences},       {"supported_sentences", c.supportedSentences},
            {"questions", c.questions},                      {"grounded_questions", c.groundedQuestions},
            {"duplicate_questions", c.duplicateQuestions}};
}

} // namespace

nlohmann::json draftFile(const pipeline::QsSummarizer &qs, const pipeline::QsSettings &settings, const QString &path,
                         const std::string &argument, bool showProgress)
{
    QsFile file;
    readQsFile(path, argument, &file);
    const pipeline::QsResult result = runQsFile(qs, settings, file, argument, showProgress);
    const pipeline::DraftSource &src = file.text.draft;
    const pipeline::QsDraft &draft = result.draft;
    const QStringList &warnings = file.warnings;
    // Nested items from the pre-order depths.
    nlohmann::json roots = nlohmann::json::array();
    std::vector<nlohmann::json *> open; // open[d-1]: the last item at depth d
    for (const pipeline::DraftItem &i : draft.items) {
        const pipeline::DraftSection &sec = src.sections[std::size_t(i.section)];
        nlohmann::json node{{"question", i.question.toStdString()},
                            {"summary", i.summary.toStdString()},
                            {"confidence", std::round(i.confidence * 1000.0) / 1000.0},
                            {"evidence", {{"section", i.section}, {"section_title", sec.title.toStdString()},
                                          {"sentences", refsJson(src, i.evidence)}}},
                            {"children", nlohmann::json::array()}};
        if (sec.documentSection >= 0)
            node["evidence"]["document_section"] = sec.documentSection;
        const std::size_t depth = std::size_t(std::max(1, i.depth));
        open.resize(std::min(open.size(), depth - 1));
        nlohmann::json &list = open.empty() ? roots : (*open.back())["children"];
        list.push_back(std::move(node));
        open.push_back(&list.back());
    }
    nlohmann::json sections = nlohmann::json::array();
    for (const pipeline::DraftSection &s : src.sections)
        sections.push_back({{"title", s.title.toStdString()}, {"parent", s.parent}, {"segmented", s.segmented}});
    nlohmann::json notes = nlohmann::json::array(), warn = nlohmann::json::array();
    for (const QString &n : draft.notes)
        notes.push_back(n.toStdString());
    for (const QString &w : warnings)
        warn.push_back(w.toStdString());
    return {{"file", argument},
            {"generator", "folio-qs-drafter"},
            {"summary", draft.rootSummary.toStdString()},
            {"summary_evidence", refsJson(src, draft.rootEvidence)},
            {"hierarchy", roots},
            {"sections", sections},
            {"notes", notes},
            {"warnings", warn},
            {"checks", checkJson(pipeline::checkDraft(src, draft))}};
}

namespace {

nlohmann::json weightsJson(const pipeline::SalienceModel &m)
{
    nlohmann::json weights;
    const QStringList names = pipeline::salienceFeatureNames();
    for (int i = 0; i < names.size() && i < int(m.weights.size()); ++i)
        weights[names.at(i).toStdString()] = m.weights[std::size_t(i)];
    return weights;
}

// One training source's salience sums (its training split only).
struct SalienceSource
{
    std::string path, kind, licence;
    pipeline::SalienceFitter fitter;
    long documents = 0;
    int skipped = 0;
};

SalienceSource readSalienceSource(const std::string &path, bool withinSection, std::vector<pipeline::QmsumMeeting> *qmsumTrain)
{
    SalienceSource src;
    src.fitter = pipeline::SalienceFitter(withinSection);
    src.path = path;
    const QString dir = QString::fromStdString(path);
    QString error;
    std::vector<pipeline::ReferencedDocument> docs;
    if (pipeline::looksLikeFairytaleQa(dir)) {
        src.kind = "FairytaleQA train";
        src.licence = "Apache-2.0";
        if (!pipeline::readFairytaleQaDocuments(dir, QStringLiteral("train"), &docs, &error))
            throw CliError(error.toStdString());
    } else if (pipeline::looksLikeClSciSumm(dir)) {
        src.kind = "CL-SciSumm/ScisummNet";
        src.licence = "CC BY 4.0";
        if (!pipeline::readClSciSummDocuments(dir, &docs, &error, -1, &src.skipped))
            throw CliError(error.toStdString());
    } else {
        src.kind = "QMSum train";
        src.licence = "MIT, transcripts CC BY 4.0";
        std::vector<pipeline::QmsumMeeting> train;
        if (!pipeline::readQmsumSplit(dir, QStringLiteral("train"), &train, &error))
            throw CliError(error.toStdString());
        for (const pipeline::QmsumMeeting &m : train)
            src.fitter.addMeeting(m);
        src.documents = long(train.size());
        qmsumTrain->insert(qmsumTrain->end(), train.begin(), train.end());
    }
    for (const pipeline::ReferencedDocument &d : docs)
        src.fitter.addDocument(d.source, d.references);
    src.documents += long(docs.size());
    if (src.fitter.sentences() == 0)
        throw CliError(path + ": no training sentences with a reference (" + src.kind + ")");
    return src;
}

// The salience fit on every source (balanced: each source weighs as much as the others together
// divided by their number) and templates mined from QMSum train, or `init`'s without QMSum.
nlohmann::json trainOnSources(const std::vector<std::string> &paths, double l2, int minCount, bool balance,
                              bool withinSection, const std::string &init, pipeline::QsDrafter *d)
{
    std::vector<pipeline::QmsumMeeting> qmsumTrain;
    std::vector<SalienceSource> sources;
    long total = 0;
    for (const std::string &p : paths) {
        sources.push_back(readSalienceSource(p, withinSection, &qmsumTrain));
        total += sources.back().fitter.sentences();
    }
    pipeline::SalienceFitter all(withinSection);
    nlohmann::json used = nlohmann::json::array();
    QStringList described;
    for (const SalienceSource &s : sources) {
        const double w = balance ? double(total) / double(sources.size()) / double(s.fitter.sentences()) : 1.0;
        all.merge(s.fitter, w);
        const pipeline::SalienceFit alone = s.fitter.solve(l2);
        used.push_back({{"data", s.path}, {"kind", s.kind}, {"documents", s.documents}, {"sentences", s.fitter.sentences()},
                        {"skipped_documents", s.skipped}, {"weight", w}, {"mean_target", alone.meanTarget}});
        described << QStringLiteral("%1 (%2 documents, %3 sentences%4; %5)")
                         .arg(QString::fromStdString(s.kind))
                         .arg(s.documents)
                         .arg(s.fitter.sentences())
                         .arg(balance ? QStringLiteral(", weight %1").arg(w, 0, 'g', 3) : QString())
                         .arg(QString::fromStdString(s.licence));
    }
    const pipeline::SalienceFit fit = all.solve(l2);
    d->salience = fit.model;
    if (!qmsumTrain.empty()) {
        d->questions = pipeline::mineQuestionTemplates(qmsumTrain, minCount);
    } else {
        d->questions = loadDrafter(init).questions;
        described << QStringLiteral("question templates from %1").arg(init.empty() ? QStringLiteral("the shipped drafter") : QString::fromStdString(init));
    }
    d->trainedOn = described.join(QStringLiteral("; "));
    return {{"sources", used},
            {"meetings", qmsumTrain.size()},
            {"sentences", fit.sentences},
            {"balanced", balance},
            {"within_section", withinSection},
            {"mean_target", fit.meanTarget},
            {"section_templates", d->questions.section.size()},
            {"speaker_templates", d->questions.speaker.size()},
            {"questions_seen", d->questions.questionsSeen},
            {"questions_matched", d->questions.questionsMatched}};
}

// A project's reviewed items move a drafter (`init`) towards what its users accepted.
nlohmann::json trainOnProject(const std::string &project, double l2, int minCount, pipeline::QsDrafter *d)
{
    pipeline::SalienceFitter fitter;
    QHash<QString, int> templates;
    pipeline::CorrectionStats stats;
    QString error;
    if (!pipeline::addProjectCorrections(QString::fromStdString(project), &fitter, &templates, &stats, &error))
        throw CliError(error.toStdString());
    if (stats.accepted + stats.rejected == 0)
        throw CliError(project + ": no accepted, edited or rejected question-summary item with evidence to learn from (" +
                       std::to_string(stats.documents) + " documents with a hierarchy, " + std::to_string(stats.withoutEvidence) +
                       " reviewed items without evidence)");
    const std::vector<double> prior = d->salience.weights;
    d->salience = fitter.solve(l2, prior).model;
    pipeline::mergeTemplates(&d->questions.written, templates, minCount);
    d->trainedOn = d->trainedOn + QStringLiteral("; then corrections of %1 (%2 accepted / edited, %3 rejected items)")
                                      .arg(QString::fromStdString(project))
                                      .arg(stats.accepted)
                                      .arg(stats.rejected);
    return {{"documents", stats.documents},       {"accepted_items", stats.accepted},
            {"rejected_items", stats.rejected},   {"items_without_evidence", stats.withoutEvidence},
            {"sentences", stats.sentences},       {"question_forms_found", stats.templatesFound},
            {"written_templates", d->questions.written.size()}, {"first_written_template", d->questions.written.front().text.toStdString()}};
}

void registerTrainDrafter(CLI::App *qs)
{
    struct Opts
    {
        std::vector<std::string> data{"../shared/data/qmsum"};
        std::string out, init;
        double l2 = -1.0;
        int minCount = -1;
        bool balance = false, withinSection = false;
    };
    auto o = std::make_shared<Opts>();
    auto *cmd = qs->add_subcommand("train-drafter", "Fit the drafter on QMSum's train split, or move one towards the items a project's users "
                                                    "accepted, edited and rejected");
    cmd->add_option("--data", o->data,
                    "Training data, repeatable: a QMSum folder (its train split), a FairytaleQA folder (train split), "
                    "a CL-SciSumm folder (every paper with a human summary); or one project (.folio, postgresql://)");
    cmd->add_flag("--within-section", o->withinSection,
                  "Data folders: fit salience to rank sentences within their section (differences from the section's means)");
    cmd->add_flag("--balance", o->balance, "Data folders: every source weighs the same in the salience fit, whatever its sentence count");
    cmd->add_option("--out", o->out, "Folder for drafter.json")->required();
    cmd->add_option("--init", o->init, "Project data: the drafter to start from (default: the shipped one)");
    cmd->add_option("--l2", o->l2, "Ridge penalty (default 1 for QMSum; 10 for a project, towards --init's weights)")->check(CLI::Range(0.0, 1e6));
    cmd->add_option("--min-template-count", o->minCount, "Keep question forms seen this often (default 3 for QMSum, 2 for a project)")
        ->check(CLI::Range(1, 1000));
    cmd->callback([o]() {
        int folders = 0;
        for (const std::string &p : o->data)
            folders += QFileInfo(QString::fromStdString(p)).isDir() ? 1 : 0;
        if (folders != int(o->data.size()) && o->data.size() > 1)
            throw CliError("qs train-drafter: a project (" + o->data.front() + " ...) is trained on alone; data folders can be combined");
        const auto t0 = std::chrono::steady_clock::now();
        pipeline::QsDrafter d;
        nlohmann::json report;
        if (folders > 0) {
            report = trainOnSources(o->data, o->l2 >= 0 ? o->l2 : 1.0, o->minCount > 0 ? o->minCount : 3, o->balance, o->withinSection,
                                    o->init, &d);
        } else {
            d = loadDrafter(o->init);
            report = trainOnProject(o->data.front(), o->l2 >= 0 ? o->l2 : 10.0, o->minCount > 0 ? o->minCount : 2, &d);
        }
        QString error;
        if (!d.save(QString::fromStdString(o->out), &error))
            throw CliError(error.toStdString());
        report["out"] = o->out;
        report["weights"] = weightsJson(d.salience);
        report["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::cout << report.dump(2) << std::endl;
    });
}

void registerCheck(CLI::App *qs)
{
    struct Opts
    {
        std::string checkpoint;
        DraftCliOptions draft;
        BatchOptions batch;
    };
    auto o = std::make_shared<Opts>();
    auto *cmd = qs->add_subcommand("check", "Draft each document and report coverage, supported summary sentences, grounded and duplicate questions, time");
    cmd->add_option("--checkpoint", o->checkpoint, "Drafter folder (default: the shipped one)");
    cmd->add_option("file", o->batch.inputs, "Documents")->required();
    addDraftOptions(cmd, &o->draft);
    cmd->callback([o]() {
        pipeline::QsSummarizer drafter;
        loadQsSummarizer(o->checkpoint, false, o->draft, &drafter, true);
        const pipeline::QsSettings settings = draftSettings(o->draft);
        nlohmann::json rows = nlohmann::json::array();
        pipeline::DraftCheck total;
        bool failed = false;
        for (const std::string &file : o->batch.inputs) {
            const auto t0 = std::chrono::steady_clock::now();
            nlohmann::json j;
            try {
                j = draftFile(drafter, settings, inputPath(file), file, false);
            } catch (const CliError &e) { // one unreadable document is a row, not the end of the check
                if (e.code() == ExitCancelled)
                    throw;
                rows.push_back({{"file", file}, {"error", e.what()}});
                failed = true;
                continue;
            }
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            nlohmann::json row = j["checks"];
            row["file"] = file;
            row["seconds"] = s;
            row["notes"] = j["notes"];
            rows.push_back(row);
            const nlohmann::json &c = j["checks"];
            total.topLevelSections += c["top_level_sections"].get<int>();
            total.topLevelWithContent += c["top_level_with_content"].get<int>();
            total.topLevelCovered += c["top_level_covered"].get<int>();
            total.items += c["items"].get<int>();
            total.summarySentences += c["summary_sentences"].get<int>();
            total.supportedSentences += c["supported_sentences"].get<int>();
            total.questions += c["questions"].get<int>();
            total.groundedQuestions += c["grounded_questions"].get<int>();
            total.duplicateQuestions += c["duplicate_questions"].get<int>();
        }
        std::cout << nlohmann::json{{"documents", rows}, {"total", checkJson(total)}}.dump(2) << std::endl;
        if (failed)
            throw CliError("qs check: some documents could not be read (their rows say why)");
    });
}

} // namespace

void registerQsDraftCommands(CLI::App *qs)
{
    registerTrainDrafter(qs);
    registerCheck(qs);
}

} // namespace folio::cli
