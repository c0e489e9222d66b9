// folio-cli explain --checkpoint DIR FILE --word N [--ig-steps M] [--top K] [--json]
//                   [--move W:DX,DY] [--resize W:DW,DH] [--delete W] [--edits FILE.json]
// Why a word got its label, from Folio's layout tagger (folio-formtagger): attention rollout and
// gradient x input / integrated gradients over the input words (inference/formtagger/taggerexplain.h
// says exactly what is computed; attention/attributions.h the rollout variant). With edits, the
// model also runs on an edited copy of the document (pipeline/whatif.h) and the words whose label
// changed are listed, before -> after.
// Hugging Face token classifiers (LayoutLMv3, LayoutLMv2 / LayoutXLM, LiLT; model_type in config.json)
// take the same options: attributions over the encoder's input tokens (inference/models/hfexplain.h),
// summed per word, with LayoutLMv3's image patches / LayoutLMv2's visual tokens listed by grid cell
// and LiLT's layout flow beside its text flow; what-if re-labels the edited copy.
#include "app/cli/commands.h"
#include "attention/attributions.h"
#include "inference/formtagger/taggerexplain.h"
#include "inference/models/hfexplain.h"
#include "pipeline/documentsource.h"
#include "pipeline/hfpagelabeller.h"
#include "pipeline/pagepixels.h"
#include "pipeline/modelinputs/taggerpages.h"
#include "pipeline/whatif.h"

#include <CLI/CLI.hpp>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
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

// The what-if's labels before -> after (words deleted by the edits show "(deleted)"): the text
// lines, and "edits", "words", "changed", "notes" in *result.
QString whatIfDiff(const Document &doc, const pipeline::EditedDocument &edited, const QStringList &before, const QStringList &after,
                   int edits, QJsonObject *result)
{
    QString text;
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
    text = QStringLiteral("what-if: %1 edit(s); %2 of %3 labelled words changed\n").arg(edits).arg(changed.size()).arg(seen) + text;
    result->insert("edits", edits);
    result->insert("words", seen);
    result->insert("changed", changed);
    QJsonArray notes;
    for (const QString &note : edited.notes)
        notes.append(note);
    result->insert("notes", notes);
    return text;
}
// ---- Hugging Face token classifiers --------------------------------------------------------------

struct HfRun
{
    inf::HfExplainer explainer;
    pipeline::ImageProcessing image;
};

// The page image as the classifier takes it (HfPageLabeller's rule): none for a checkpoint without
// an image branch, and none for a LayoutLMv2 page without an image (it then runs text + layout).
bool pagePixels(const HfRun &run, const Document &doc, int page, inf::Tensor *pixels)
{
    const bool wants = run.image.visual && (!run.image.bgrUint8 || run.explainer.classifier().takesImage());
    if (!wants)
        return false;
    const QString path = page >= 0 && page < int(doc.pages.size()) ? doc.pages[std::size_t(page)].imagePath : QString();
    if (path.isEmpty()) {
        if (run.image.bgrUint8)
            return false;
        throw CliError(doc.sourcePath.toStdString() + ": the checkpoint has an image branch (visual_embed) but page "
                       + std::to_string(page + 1) + " has no image");
    }
    const QImage img(path);
    if (img.isNull())
        throw CliError(path.toStdString() + ": cannot read the page image");
    QString why;
    *pixels = pipeline::pagePixelValues(img, run.image, &why);
    if (pixels->shape.empty())
        throw CliError(path.toStdString() + ": " + why.toStdString());
    return true;
}

struct HfPage
{
    pipeline::DocumentTaggerPage page;
    inf::WordLabelling labelling;
    inf::Tensor pixels;
    bool hasPixels = false;
};

// Every page labelled; the document's labels ("" for words without one).
QStringList labelHf(const HfRun &run, const Document &doc, std::vector<HfPage> *out)
{
    QStringList labels;
    for (std::size_t i = 0; i < doc.words.size(); ++i)
        labels << QString();
    std::vector<HfPage> pages;
    for (auto &p : pipeline::taggerPagesOfDocument(doc, nullptr, false, true)) {
        HfPage hp;
        hp.page = p;
        hp.hasPixels = pagePixels(run, doc, p.page, &hp.pixels);
        hp.labelling = run.explainer.classifier().label(p.taggerPage.words, p.taggerPage.boxes, inf::HfTokenClassifier::LongPages::Slide,
                                                        {}, hp.hasPixels ? &hp.pixels : nullptr);
        if (!hp.labelling.ok)
            throw CliError(doc.sourcePath.toStdString() + ": " + hp.labelling.error);
        for (std::size_t i = 0; i < hp.labelling.words.size() && i < p.wordIndex.size(); ++i)
            labels[p.wordIndex[i]] = QString::fromStdString(hp.labelling.words[i].label);
        pages.push_back(std::move(hp));
    }
    if (out)
        *out = std::move(pages);
    return labels;
}

QJsonObject explainHfWord(const HfRun &run, const Document &doc, const QStringList &labels, const std::vector<HfPage> &pages,
                          const ExplainArgs &a, QString *table)
{
    const int n = int(doc.words.size());
    if (a.word < 0 || a.word >= n)
        throw CliError("--word " + std::to_string(a.word) + ": the document has " + std::to_string(n) + " words (0.."
                           + std::to_string(n - 1) + ")", ExitUsage);
    const HfPage *page = nullptr;
    int local = -1;
    for (const HfPage &p : pages)
        for (std::size_t i = 0; i < p.page.wordIndex.size(); ++i)
            if (p.page.wordIndex[i] == a.word) {
                page = &p;
                local = int(i);
            }
    if (!page || labels[a.word].isEmpty())
        throw CliError("--word " + std::to_string(a.word) + ": the word has no token (blank, or on a page without text)", ExitUsage);
    inf::HfExplainOptions options;
    options.igSteps = a.igSteps;
    options.igPower = a.igPower;
    options.gradients = !a.noGradients;
    inf::HfExplanation ex;
    std::string why;
    if (!run.explainer.explain(page->labelling, local, a.label, options, page->hasPixels ? &page->pixels : nullptr, &ex, &why))
        throw CliError(a.file + ": " + why);
    const std::vector<double> rollout = attentionRolloutRow(ex.attentions, ex.layers, ex.heads, ex.positions, ex.targetPosition);
    const auto at = [](const std::vector<float> &v, int p) { return v.empty() ? 0.0 : double(v[std::size_t(p)]); };
    // Per word: the sum over its tokens; specials (CLS, SEP, padding) together; image tokens by cell.
    struct Sum { double rollout = 0, gi = 0, ig = 0, giLayout = 0, igLayout = 0; int tokens = 0; };
    std::map<int, Sum> words;
    Sum special;
    std::vector<std::pair<int, Sum>> image;
    for (int p = 0; p < ex.positions; ++p) {
        const int w = ex.positionWord[std::size_t(p)];
        Sum *s = w >= 0 ? &words[page->page.wordIndex[std::size_t(w)]] : w == -1 ? &special : nullptr;
        if (!s) {
            image.push_back({p - ex.textPositions, Sum{}});
            s = &image.back().second;
        }
        s->rollout += rollout.empty() ? 0.0 : rollout[std::size_t(p)];
        s->gi += at(ex.gradInput, p);
        s->ig += at(ex.integratedGradients, p);
        s->giLayout += at(ex.gradInputLayout, p);
        s->igLayout += at(ex.igLayout, p);
        ++s->tokens;
    }
    const bool hasIg = !ex.integratedGradients.empty(), hasGrad = !ex.gradInput.empty(), lilt = !ex.gradInputLayout.empty();
    const auto key = [&](const Sum &s) { return hasIg ? std::abs(s.ig) : s.rollout; };
    std::vector<std::pair<int, Sum>> order(words.begin(), words.end());
    std::stable_sort(order.begin(), order.end(), [&](const auto &x, const auto &y) { return key(x.second) > key(y.second); });
    std::stable_sort(image.begin(), image.end(), [&](const auto &x, const auto &y) { return key(x.second) > key(y.second); });
    const auto row = [&](QJsonObject o, const Sum &s) {
        o.insert("rollout", s.rollout);
        o.insert("tokens", s.tokens);
        if (hasGrad)
            o.insert("grad_x_input", s.gi);
        if (hasIg)
            o.insert("ig", s.ig);
        if (lilt) {
            o.insert("grad_x_input_layout", s.giLayout);
            if (hasIg)
                o.insert("ig_layout", s.igLayout);
        }
        return o;
    };
    QJsonArray rows, imageRows;
    for (const auto &[w, s] : order)
        rows.append(row(QJsonObject{{"word", w}, {"text", doc.words[std::size_t(w)].text}, {"label", labels[w]}}, s));
    // Image token i: LayoutLMv3's CLS patch first (index -1 below), then the grid row by row.
    for (const auto &[i, s] : image) {
        const int cell = ex.imageCls ? i - 1 : i;
        QJsonObject o{{"index", i}};
        if (cell < 0)
            o.insert("cell", "cls");
        else if (ex.imageGrid > 0) {
            o.insert("row", cell / ex.imageGrid);
            o.insert("column", cell % ex.imageGrid);
        }
        imageRows.append(row(o, s));
    }
    double igSum = 0;
    for (float v : ex.integratedGradients)
        igSum += v;
    QJsonObject out{{"word", a.word}, {"text", doc.words[std::size_t(a.word)].text}, {"label", QString::fromStdString(ex.label)},
                    {"logit", ex.logit}, {"model_type", QString::fromStdString(ex.modelType)}, {"window", ex.window},
                    {"target_position", ex.targetPosition}, {"positions", ex.positions}, {"text_positions", ex.textPositions},
                    {"image_tokens", ex.positions - ex.textPositions}, {"image_grid", ex.imageGrid}, {"layers", ex.layers},
                    {"heads", ex.heads}, {"input", QString::fromStdString(ex.input)},
                    {"rollout", "Abnar & Zuidema over every encoder position (text and image tokens): per layer the head mean plus "
                                "identity, rows renormalised, multiplied from the last layer down; row of the word's first token, "
                                "summed per word"},
                    {"forward_seconds", ex.forwardSeconds}, {"attributions", rows},
                    {"special_tokens", row(QJsonObject{}, special)}, {"image", imageRows}};
    if (hasGrad) {
        out.insert("gradient", "d logit(label, first token) / d encoder input, dotted with the input, summed per word");
        out.insert("grad_x_input_seconds", ex.gradientSeconds);
    }
    if (hasIg) {
        out.insert("ig_baseline", "zero encoder input (every text and image token)");
        out.insert("ig_steps", ex.igSteps);
        out.insert("ig_power", a.igPower);
        out.insert("ig_rule", QStringLiteral("midpoint rule in u, alpha = u^%1, u = (k - 1/2) / steps").arg(a.igPower));
        out.insert("ig_sum", igSum);
        out.insert("baseline_logit", ex.baselineLogit);
        out.insert("ig_seconds", ex.igSeconds);
    }
    QString t = QStringLiteral("word %1 '%2': %3 (logit %4), %5 %6 positions (%7 image tokens), %8 layers x %9 heads\n")
                    .arg(a.word).arg(doc.words[std::size_t(a.word)].text, QString::fromStdString(ex.label))
                    .arg(ex.logit, 0, 'f', 3).arg(QString::fromStdString(ex.modelType)).arg(ex.positions)
                    .arg(ex.positions - ex.textPositions).arg(ex.layers).arg(ex.heads);
    if (hasIg)
        t += QStringLiteral("IG: zero encoder input baseline, %1 midpoint steps (alpha = u^%4); sum %2 vs logit - baseline logit %3\n")
                 .arg(ex.igSteps).arg(igSum, 0, 'f', 4).arg(double(ex.logit) - double(ex.baselineLogit), 0, 'f', 4).arg(a.igPower);
    t += QStringLiteral("%1  %2  %3  %4  %5  %6  %7\n").arg(QStringLiteral("word"), 6).arg(QStringLiteral("text"), -16)
             .arg(QStringLiteral("label"), -10).arg(QStringLiteral("rollout"), 8).arg(QStringLiteral("gradxin"), 9)
             .arg(QStringLiteral("IG"), 9).arg(lilt ? QStringLiteral("IG layout") : QString(), 9);
    const int shown = std::min(int(order.size()), std::max(1, a.top));
    for (int i = 0; i < shown; ++i) {
        const auto &[w, s] = order[std::size_t(i)];
        t += QStringLiteral("%1  %2  %3  %4  %5  %6  %7\n").arg(w, 6).arg(doc.words[std::size_t(w)].text.left(16), -16)
                 .arg(labels[w].left(10), -10).arg(s.rollout, 8, 'f', 4).arg(s.gi, 9, 'f', 4).arg(s.ig, 9, 'f', 4)
                 .arg(lilt ? QString::number(s.igLayout, 'f', 4) : QString(), 9);
    }
    if (shown < int(order.size()))
        t += QStringLiteral("(%1 more words; --top N or --json for all)\n").arg(int(order.size()) - shown);
    t += QStringLiteral("special tokens: rollout %1, gradxin %2, IG %3\n").arg(special.rollout, 0, 'f', 4).arg(special.gi, 0, 'f', 4)
             .arg(special.ig, 0, 'f', 4);
    if (!image.empty()) {
        double r = 0, g = 0, ig = 0;
        for (const auto &[i, s] : image) {
            r += s.rollout;
            g += s.gi;
            ig += s.ig;
        }
        t += QStringLiteral("image tokens (%1): rollout %2, gradxin %3, IG %4; largest:").arg(image.size()).arg(r, 0, 'f', 4)
                 .arg(g, 0, 'f', 4).arg(ig, 0, 'f', 4);
        for (int i = 0; i < std::min(5, int(image.size())); ++i) {
            const int cell = ex.imageCls ? image[std::size_t(i)].first - 1 : image[std::size_t(i)].first;
            t += cell < 0 ? QStringLiteral(" cls") : ex.imageGrid > 0 ? QStringLiteral(" (%1,%2)").arg(cell / ex.imageGrid).arg(cell % ex.imageGrid)
                                                                       : QStringLiteral(" #%1").arg(cell);
            t += QStringLiteral(" %1").arg(hasIg ? image[std::size_t(i)].second.ig : image[std::size_t(i)].second.rollout, 0, 'f', 4);
        }
        t += QLatin1Char('\n');
    }
    *table = t;
    return out;
}

void runExplainHf(const ExplainArgs &a, const Document &doc, const std::vector<pipeline::WordEdit> &edits)
{
    HfRun run;
    std::string why;
    if (!run.explainer.load(a.checkpoint, &why))
        throw CliError(why);
    QString error;
    if (!pipeline::readImageProcessing(QString::fromStdString(a.checkpoint), &run.image, &error))
        throw CliError(error.toStdString());
    std::vector<HfPage> pages;
    const QStringList before = labelHf(run, doc, &pages);
    if (pages.empty())
        throw CliError(a.file + ": the document has only blank words");
    QJsonObject result{{"file", QString::fromStdString(a.file)}, {"checkpoint", QString::fromStdString(a.checkpoint)},
                       {"model_type", QString::fromStdString(run.explainer.modelType())}, {"document_words", int(doc.words.size())}};
    QJsonArray warnings;
    for (const std::string &w : pages.front().labelling.warnings)
        warnings.append(QString::fromStdString(w));
    if (!warnings.isEmpty())
        result.insert("warnings", warnings);
    QString text;
    if (edits.empty()) {
        QString table;
        result.insert("explanation", explainHfWord(run, doc, before, pages, a, &table));
        text += table;
    } else {
        const pipeline::EditedDocument edited = pipeline::applyWordEdits(doc, edits);
        if (!edited.ok)
            throw CliError(a.file + ": " + edited.error.toStdString());
        for (const QString &note : edited.notes)
            std::fprintf(stderr, "note: %s\n", qPrintable(note));
        std::vector<HfPage> editedPages;
        const QStringList after = labelHf(run, edited.document, &editedPages);
        text += whatIfDiff(doc, edited, before, after, int(edits.size()), &result);
        if (a.word >= 0) {
            QString table;
            result.insert("explanation_after", explainHfWord(run, edited.document, after, editedPages, a, &table));
            text += QStringLiteral("after the edits:\n") + table;
        }
    }
    const QByteArray bytes = a.json ? QJsonDocument(result).toJson(QJsonDocument::Indented) : text.toUtf8();
    std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), stdout);
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
    if (pipeline::isHfTokenClassifierType(pipeline::checkpointModelType(QString::fromStdString(a.checkpoint)))) {
        runExplainHf(a, doc, edits);
        return;
    }
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
        text += whatIfDiff(doc, edited, before, after, int(edits.size()), &result);
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
                   "layout tagger (any --arch) or a Hugging Face LayoutLMv3 / LayoutLMv2 / LayoutXLM / LiLT token classifier, "
                   "and what-if edits (move / resize / delete word boxes) re-run on an edited copy");
    auto a = std::make_shared<ExplainArgs>();
    cmd->add_option("--checkpoint", a->checkpoint, "A folio-formtagger folder (e.g. resources/models/funsd-layout) or a Hugging Face token-classification folder (layoutlmv3, layoutlmv2, lilt)")->required();
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
