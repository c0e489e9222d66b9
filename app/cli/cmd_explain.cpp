// folio-cli explain --checkpoint DIR FILE --word N [--ig-steps M] [--top K] [--json]
//                   [--move W:DX,DY] [--resize W:DW,DH] [--delete W] [--edits FILE.json]
// Why a word got its label, from Folio's layout tagger (folio-formtagger): attention rollout and
// gradient x input / integrated gradients over the input words (inference/formtagger/taggerexplain.h
// says exactly what is computed; attention/attributions.h the rollout variant). With edits, the
// model also runs on an edited copy of the document (pipeline/whatif.h) and the words whose label
// changed are listed, before -> after.
#include "app/cli/commands.h"
#include "attention/attributions.h"
#include "inference/formtagger/taggerexplain.h"
#include "pipeline/documentsource.h"
#include "pipeline/modelinputs/taggerpages.h"
#include "pipeline/whatif.h"

#include <CLI/CLI.hpp>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

namespace folio::cli {

namespace {

namespace inf = folio::inference;

struct ExplainArgs
{
    std::string checkpoint, file, label, editsFile;
    int word = -1, igSteps = 128, igPower = 3, top = 15;
    bool json = false, noGradients = false;
    std::vector<std::string> moves, resizes, deletes;
};

struct PageRef
{
    int page = -1, index = -1;
};

// Document word -> (model page, word on it) for the words the tagger sees.
std::vector<PageRef> pageRefs(const Document &doc, const std::vector<pipeline::DocumentTaggerPage> &pages)
{
    std::vector<PageRef> refs(doc.words.size());
    for (std::size_t p = 0; p < pages.size(); ++p)
        for (std::size_t i = 0; i < pages[p].wordIndex.size(); ++i)
            refs[std::size_t(pages[p].wordIndex[i])] = PageRef{int(p), int(i)};
    return refs;
}

QStringList predictDocument(const inf::TaggerExplainer &explainer, const Document &doc,
                            std::vector<pipeline::DocumentTaggerPage> *pagesOut = nullptr)
{
    const auto pages = pipeline::taggerPagesOfDocument(doc, nullptr, explainer.wordOrder() == "layout");
    QStringList labels;
    for (std::size_t i = 0; i < doc.words.size(); ++i)
        labels << QString();
    for (const auto &p : pages) {
        std::vector<std::string> tags;
        std::string why;
        if (!explainer.predict(p.taggerPage, &tags, &why))
            throw CliError(doc.sourcePath.toStdString() + ": " + why);
        for (std::size_t i = 0; i < tags.size() && i < p.wordIndex.size(); ++i)
            labels[p.wordIndex[i]] = QString::fromStdString(tags[i]);
    }
    if (pagesOut)
        *pagesOut = pages;
    return labels;
}

std::vector<pipeline::WordEdit> collectEdits(const ExplainArgs &a)
{
    std::vector<pipeline::WordEdit> edits;
    QString error;
    if (!a.editsFile.empty() && !pipeline::readWordEdits(QString::fromStdString(a.editsFile), &edits, &error))
        throw CliError(error.toStdString());
    const auto add = [&](pipeline::WordEdit::Kind kind, const std::vector<std::string> &specs) {
        for (const std::string &s : specs) {
            pipeline::WordEdit e;
            if (!pipeline::parseWordEdit(kind, QString::fromStdString(s), &e, &error))
                throw CliError(error.toStdString(), ExitUsage);
            edits.push_back(e);
        }
    };
    add(pipeline::WordEdit::Kind::Move, a.moves);
    add(pipeline::WordEdit::Kind::Resize, a.resizes);
    add(pipeline::WordEdit::Kind::Delete, a.deletes);
    return edits;
}

QJsonObject explainWord(inf::TaggerExplainer &explainer, const Document &doc, const QStringList &labels,
                        const std::vector<pipeline::DocumentTaggerPage> &pages, const ExplainArgs &a, QString *table)
{
    const int n = int(doc.words.size());
    if (a.word < 0 || a.word >= n)
        throw CliError("--word " + std::to_string(a.word) + ": the document has " + std::to_string(n) + " words (0.."
                           + std::to_string(n - 1) + ")", ExitUsage);
    const PageRef ref = pageRefs(doc, pages)[std::size_t(a.word)];
    if (ref.page < 0)
        throw CliError("--word " + std::to_string(a.word) + ": the word is blank; the tagger does not see it", ExitUsage);
    const auto &page = pages[std::size_t(ref.page)];
    inf::TaggerExplainOptions options;
    options.igSteps = a.igSteps;
    options.igPower = a.igPower;
    options.gradients = !a.noGradients;
    inf::TaggerExplanation ex;
    std::string why;
    if (!explainer.explain(page.taggerPage, ref.index, a.label, options, &ex, &why))
        throw CliError(a.file + ": " + why);
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<double> rollout = attentionRolloutRow(ex.attentions, ex.layers, ex.heads, ex.wordCount, ex.target - ex.firstWord);
    const double rolloutSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    QJsonArray rows;
    struct Row { int doc; int k; };
    std::vector<Row> order;
    for (int k = 0; k < ex.wordCount; ++k)
        order.push_back(Row{page.wordIndex[std::size_t(ex.firstWord + k)], k});
    const auto value = [&](const std::vector<float> &v, int k) { return v.empty() ? 0.0 : double(v[std::size_t(k)]); };
    const bool hasIg = !ex.integratedGradients.empty();
    std::stable_sort(order.begin(), order.end(), [&](const Row &x, const Row &y) {
        const double vx = hasIg ? std::abs(value(ex.integratedGradients, x.k)) : rollout[std::size_t(x.k)];
        const double vy = hasIg ? std::abs(value(ex.integratedGradients, y.k)) : rollout[std::size_t(y.k)];
        return vx > vy;
    });
    for (const Row &r : order) {
        QJsonObject o{{"word", r.doc}, {"text", doc.words[std::size_t(r.doc)].text}, {"label", labels[r.doc]},
                      {"rollout", rollout[std::size_t(r.k)]}};
        if (!ex.gradInput.empty()) {
            o.insert("grad_x_input", value(ex.gradInput, r.k));
            o.insert("grad_x_input_text", value(ex.gradInputText, r.k));
            o.insert("grad_x_input_position", value(ex.gradInputPosition, r.k));
            o.insert("grad_x_input_box", value(ex.gradInputBox, r.k));
            o.insert("grad_x_input_shift", value(ex.gradInputShift, r.k));
        }
        if (hasIg) {
            o.insert("ig", value(ex.integratedGradients, r.k));
            o.insert("ig_text", value(ex.igText, r.k));
            o.insert("ig_position", value(ex.igPosition, r.k));
            o.insert("ig_box", value(ex.igBox, r.k));
            o.insert("ig_shift", value(ex.igShift, r.k));
        }
        rows.append(o);
    }
    double igSum = 0;
    for (float v : ex.integratedGradients)
        igSum += v;
    QJsonObject out{{"word", a.word},
                    {"text", doc.words[std::size_t(a.word)].text},
                    {"label", QString::fromStdString(ex.label)},
                    {"logit", ex.logit},
                    {"window_words", ex.wordCount},
                    {"layers", ex.layers},
                    {"heads", ex.heads},
                    {"rollout", "Abnar & Zuidema: per layer the head mean plus identity, rows renormalised, "
                                "multiplied from the last layer down; row of the target word"},
                    {"forward_seconds", ex.forwardSeconds},
                    {"rollout_seconds", rolloutSeconds + ex.forwardSeconds},
                    {"attributions", rows}};
    if (!ex.gradInput.empty()) {
        out.insert("gradient", "d logit(label, word) / d input embedding after the embedding LayerNorm; parts: text, position, box, shift (the LayerNorm's beta)");
        out.insert("grad_x_input_seconds", ex.gradientSeconds);
    }
    if (hasIg) {
        out.insert("ig_baseline", "zero input embedding for every word of the window");
        out.insert("ig_steps", ex.igSteps);
        out.insert("ig_rule", QStringLiteral("midpoint rule in u, alpha = u^%1, u = (k - 1/2) / steps").arg(a.igPower));
        out.insert("ig_power", a.igPower);
        out.insert("ig_sum", igSum);
        out.insert("baseline_logit", ex.baselineLogit);
        out.insert("ig_seconds", ex.igSeconds);
    }
    // The text table.
    QString t;
    t += QStringLiteral("word %1 '%2': %3 (logit %4), window of %5 words, %6 layers x %7 heads\n")
             .arg(a.word).arg(doc.words[std::size_t(a.word)].text, QString::fromStdString(ex.label))
             .arg(ex.logit, 0, 'f', 3).arg(ex.wordCount).arg(ex.layers).arg(ex.heads);
    if (hasIg)
        t += QStringLiteral("IG: zero-embedding baseline, %1 midpoint steps (alpha = u^%4); sum %2 vs logit - baseline logit %3\n")
                 .arg(ex.igSteps).arg(igSum, 0, 'f', 4).arg(double(ex.logit) - double(ex.baselineLogit), 0, 'f', 4).arg(a.igPower);
    t += QStringLiteral("%1  %2  %3  %4  %5  %6  %7  %8\n")
             .arg(QStringLiteral("word"), 6).arg(QStringLiteral("text"), -16).arg(QStringLiteral("label"), -10)
             .arg(QStringLiteral("rollout"), 8).arg(QStringLiteral("gradxin"), 9).arg(QStringLiteral("IG"), 9)
             .arg(QStringLiteral("IG box"), 9).arg(QStringLiteral("IG text"), 9);
    const int shown = std::min(int(order.size()), std::max(1, a.top));
    for (int i = 0; i < shown; ++i) {
        const Row &r = order[std::size_t(i)];
        t += QStringLiteral("%1  %2  %3  %4  %5  %6  %7  %8\n")
                 .arg(r.doc, 6).arg(doc.words[std::size_t(r.doc)].text.left(16), -16).arg(labels[r.doc].left(10), -10)
                 .arg(rollout[std::size_t(r.k)], 8, 'f', 4).arg(value(ex.gradInput, r.k), 9, 'f', 4)
                 .arg(value(ex.integratedGradients, r.k), 9, 'f', 4).arg(value(ex.igBox, r.k), 9, 'f', 4)
                 .arg(value(ex.igText, r.k), 9, 'f', 4);
    }
    if (shown < int(order.size()))
        t += QStringLiteral("(%1 more words; --top N or --json for all)\n").arg(int(order.size()) - shown);
    *table = t;
    return out;
}

void runExplain(const ExplainArgs &a)
{
    const QString file = QString::fromStdString(a.file);
    if (!QFileInfo::exists(file))
        throw CliError(a.file + ": no such file");
    if (a.igSteps < 0 || a.igSteps > 4096)
        throw CliError("--ig-steps " + std::to_string(a.igSteps) + ": between 0 and 4096", ExitUsage);
    if (a.igPower < 1 || a.igPower > 4)
        throw CliError("--ig-power " + std::to_string(a.igPower) + ": between 1 and 4", ExitUsage);
    const std::vector<pipeline::WordEdit> edits = collectEdits(a);
    if (a.word < 0 && edits.empty())
        throw CliError("explain: give --word N (attributions) and/or edits (--move, --resize, --delete, --edits)", ExitUsage);
    pipeline::LoadedDocument loaded = pipeline::loadDocumentFile(file);
    if (!loaded.ok)
        throw CliError(loaded.error.toStdString());
    const Document &doc = loaded.document;
    inf::TaggerExplainer explainer;
    std::string why;
    if (!explainer.load(a.checkpoint, &why))
        throw CliError(why);
    std::vector<pipeline::DocumentTaggerPage> pages;
    const QStringList before = predictDocument(explainer, doc, &pages);
    if (pages.empty())
        throw CliError(a.file + ": the document has only blank words");

    QJsonObject result{{"file", file}, {"checkpoint", QString::fromStdString(a.checkpoint)}, {"document_words", int(doc.words.size())}};
    QString text;
    if (edits.empty()) {
        QString table;
        result.insert("explanation", explainWord(explainer, doc, before, pages, a, &table));
        text += table;
    } else {
        const pipeline::EditedDocument edited = pipeline::applyWordEdits(doc, edits);
        if (!edited.ok)
            throw CliError(a.file + ": " + edited.error.toStdString());
        for (const QString &note : edited.notes)
            std::fprintf(stderr, "note: %s\n", qPrintable(note));
        std::vector<pipeline::DocumentTaggerPage> editedPages;
        const QStringList after = predictDocument(explainer, edited.document, &editedPages);
        QJsonArray changed;
        int seen = 0;
        for (int i = 0; i < int(doc.words.size()); ++i) {
            const bool deleted = !doc.words[std::size_t(i)].text.trimmed().isEmpty()
                                 && edited.document.words[std::size_t(i)].text.trimmed().isEmpty();
            if (!before[i].isEmpty())
                ++seen;
            if (before[i] == after[i] && !deleted)
                continue;
            changed.append(QJsonObject{{"word", i}, {"text", doc.words[std::size_t(i)].text}, {"before", before[i]},
                                       {"after", deleted ? QStringLiteral("(deleted)") : after[i]}});
            text += QStringLiteral("%1  %2  %3 -> %4\n").arg(i, 6).arg(doc.words[std::size_t(i)].text.left(16), -16)
                        .arg(before[i], -10).arg(deleted ? QStringLiteral("(deleted)") : after[i]);
        }
        text = QStringLiteral("what-if: %1 edit(s); %2 of %3 labelled words changed\n").arg(edits.size()).arg(changed.size()).arg(seen) + text;
        result.insert("edits", int(edits.size()));
        result.insert("words", seen);
        result.insert("changed", changed);
        QJsonArray notes;
        for (const QString &note : edited.notes)
            notes.append(note);
        result.insert("notes", notes);
        if (a.word >= 0) {
            QString table;
            result.insert("explanation_after", explainWord(explainer, edited.document, after, editedPages, a, &table));
            text += QStringLiteral("after the edits:\n") + table;
        }
    }
    const QByteArray bytes = a.json ? QJsonDocument(result).toJson(QJsonDocument::Indented) : text.toUtf8();
    std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), stdout);
}

} // namespace

void registerExplainCommand(CLI::App &app)
{
    auto *cmd = app.add_subcommand(
        "explain", "Why a word got its label (attention rollout, gradient x input, integrated gradients) with Folio's "
                   "layout tagger, and what-if edits (move / resize / delete word boxes) re-run on an edited copy");
    auto a = std::make_shared<ExplainArgs>();
    cmd->add_option("--checkpoint", a->checkpoint, "A folio-formtagger folder (e.g. resources/models/funsd-layout)")->required();
    cmd->add_option("FILE", a->file, "A document (Folio / FUNSD JSON, HTML, scan, PDF)")->required();
    cmd->add_option("--word", a->word, "Document word index to explain");
    cmd->add_option("--label", a->label, "Explain this label's logit instead of the predicted one");
    cmd->add_option("--ig-steps", a->igSteps,
                    "Integrated-gradient steps (midpoint rule from the zero-embedding baseline; 0 = none; default 128)");
    cmd->add_option("--ig-power", a->igPower,
                    "Integrated-gradient step spacing: alpha = u^P at the midpoints u of equal steps (1 = equal steps; default 3 crowds them near the baseline)");
    cmd->add_flag("--no-gradients", a->noGradients, "Rollout only (one forward pass)");
    cmd->add_option("--top", a->top, "Rows of the text table (largest |IG| first, or rollout without gradients)");
    cmd->add_flag("--json", a->json, "Print JSON with every word of the window");
    cmd->add_option("--move", a->moves, "What-if: move word W by DX,DY page units (W:DX,DY; repeatable)");
    cmd->add_option("--resize", a->resizes, "What-if: change word W's width/height by DW,DH page units (W:DW,DH)");
    cmd->add_option("--delete", a->deletes, "What-if: delete word W (repeatable)");
    cmd->add_option("--edits", a->editsFile, "What-if: a JSON list of {\"op\": move|resize|delete, \"word\", \"dx\", \"dy\" / \"dw\", \"dh\"}");
    cmd->callback([a] { runExplain(*a); });
}

} // namespace folio::cli
