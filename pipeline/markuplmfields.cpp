#include "pipeline/markuplmfields.h"

#include "document/html/htmlxpath.h"
#include "document/html/markupnodes.h"
#include "inference/models/hfmarkuplm.h"
#include "pipeline/hfpagelabeller.h" // checkpointModelType

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>

#include <map>
#include <memory>
#include <mutex>

namespace folio::pipeline {

namespace {

QString documentName(const Document &d)
{
    return d.sourcePath.isEmpty() ? QStringLiteral("document") : d.sourcePath;
}

QString entityLabel(const QString &label)
{
    return label.startsWith(QLatin1String("B-")) || label.startsWith(QLatin1String("I-")) ? label.mid(2) : label;
}

// The model's labels with B-/I- merged and O dropped, in id order.
QStringList entityLabels(const inference::HfMarkupLM &model)
{
    QStringList out;
    for (const std::string &l : model.labels()) {
        const QString label = entityLabel(QString::fromStdString(l));
        if (label != QLatin1String("O") && !out.contains(label))
            out << label;
    }
    return out;
}

// The last MarkupLM loaded, kept while its folder's files are unchanged. Used under cacheMutex().
std::mutex &cacheMutex()
{
    static std::mutex m;
    return m;
}

const inference::HfMarkupLM *cachedMarkupLM(const QString &dir, std::string *error, bool int8 = false)
{
    static std::unique_ptr<inference::HfMarkupLM> model;
    static QString key;
    QString stamp = QFileInfo(dir).canonicalFilePath();
    for (const char *file : {"config.json", "model.safetensors", "pytorch_model.bin", "vocab.json", "merges.txt",
                             "tokenizer.json", "tokenizer_config.json"}) {
        const QFileInfo info(QDir(dir).filePath(QLatin1String(file)));
        stamp += QStringLiteral("|%1:%2").arg(info.size()).arg(info.lastModified().toMSecsSinceEpoch());
    }
    if (int8)
        stamp += QStringLiteral("|int8");
    if (model && key == stamp)
        return model.get();
    model.reset();
    auto fresh = std::make_unique<inference::HfMarkupLM>();
    if (!fresh->load(dir.toStdString(), error) || (int8 && !fresh->quantizeDynamicInt8(error)))
        return nullptr;
    model = std::move(fresh);
    key = stamp;
    return model.get();
}

std::vector<int> wordsOfTextNode(const Document &doc, int node, const std::vector<std::vector<int>> &byNode)
{
    return node >= 0 && node < int(byNode.size()) ? byNode[std::size_t(node)] : std::vector<int>();
}

// The page's nodes as the reference extracts them (from its file), each matched to its Document text
// node: the next unmatched text child of the element at its XPath whose text reads the same (white
// space collapsed). Comments, <script> / <style> text and nodes the loader dropped match nothing.
// Without a readable HTML file (a saved MHTML, a page from a project): the Document's own text nodes.
void pageNodes(const Document &doc, MarkupFieldRun *run)
{
    std::vector<std::vector<int>> byNode(doc.nodes.size());
    for (int w = 0; w < int(doc.words.size()); ++w) {
        const int n = doc.words[std::size_t(w)].node;
        if (n >= 0 && n < int(byNode.size()))
            byNode[std::size_t(n)].push_back(w);
    }
    MarkupNodeList list;
    static const QRegularExpression htmlFile(QStringLiteral("\\.(x?html?)(\\.gz)?$"), QRegularExpression::CaseInsensitiveOption);
    if (htmlFile.match(doc.sourcePath).hasMatch()) // not a saved MHTML: its file is MIME, not the page
        list = extractMarkupNodesFromFile(doc.sourcePath);
    if (list.ok && !list.nodes.isEmpty()) {
        run->nodes = list.nodes;
        run->xpaths = list.xpaths;
        const XPathIndex index(doc);
        QHash<int, std::size_t> cursor; // element -> next child to try
        for (int i = 0; i < list.nodes.size(); ++i) {
            std::vector<int> words;
            const int element = index.find(list.xpaths[i]);
            if (element >= 0 && element < int(doc.nodes.size())) {
                const std::vector<int> &children = doc.nodes[std::size_t(element)].children;
                const QString text = list.nodes[i].simplified();
                for (std::size_t c = cursor.value(element, 0); c < children.size(); ++c) {
                    const Node &child = doc.nodes[std::size_t(children[c])];
                    if (child.kind != NodeKind::Text || child.text.simplified() != text)
                        continue;
                    words = wordsOfTextNode(doc, children[c], byNode);
                    cursor.insert(element, c + 1);
                    break;
                }
            }
            run->nodeWords.push_back(std::move(words));
        }
        return;
    }
    if (!list.error.isEmpty())
        run->notes << QStringLiteral("%1; the page's own text nodes were read instead").arg(list.error);
    for (int n = 0; n < int(doc.nodes.size()); ++n) {
        const Node &node = doc.nodes[std::size_t(n)];
        if (node.kind != NodeKind::Text || node.text.trimmed().isEmpty())
            continue;
        run->nodes << node.text.trimmed();
        run->xpaths << xpathOf(doc, node.parent);
        run->nodeWords.push_back(byNode[std::size_t(n)]);
    }
}

std::vector<std::string> utf8(const QStringList &list)
{
    std::vector<std::string> out;
    out.reserve(std::size_t(list.size()));
    for (const QString &s : list)
        out.push_back(s.toStdString());
    return out;
}

// `nodes` as an answer: their words, and the texts of those that are page text (all of them when
// none is: an answer inside a script or comment still reads as what the model chose).
void fillAnswer(const MarkupFieldRun &run, const std::vector<int> &nodes, MarkupFieldAnswer *a)
{
    QStringList texts, pageTexts;
    for (int n : nodes) {
        a->nodes.push_back(n);
        texts << run.nodes[n];
        const std::vector<int> &w = run.nodeWords[std::size_t(n)];
        if (!w.empty())
            pageTexts << run.nodes[n];
        a->words.insert(a->words.end(), w.begin(), w.end());
    }
    a->text = (pageTexts.isEmpty() ? texts : pageTexts).join(QLatin1Char(' '));
    a->found = !nodes.empty();
}

bool stop(const MarkupRunOptions &o, MarkupFieldRun *run)
{
    if (o.cancel && o.cancel->load())
        run->cancelled = true;
    return run->cancelled;
}

} // namespace

void markupPageNodes(const Document &doc, MarkupFieldRun *run)
{
    pageNodes(doc, run);
}

QString markupQuestion(const QString &field)
{
    QString name = field;
    name.replace(QLatin1Char('_'), QLatin1Char(' ')).replace(QLatin1Char('-'), QLatin1Char(' '));
    return QStringLiteral("What is the %1?").arg(name.simplified());
}

bool isMarkupLMFolder(const QString &dir)
{
    return checkpointModelType(dir) == QLatin1String("markuplm");
}

bool checkMarkupLMFolder(const QString &dir, QString *error)
{
    std::string e;
    bool ok = false;
    try {
        ok = inference::HfMarkupLM::checkFolder(dir.toStdString(), &e);
    } catch (const std::exception &x) {
        e = x.what();
    }
    if (!ok && error)
        *error = e.empty() ? QStringLiteral("%1: not a usable MarkupLM folder").arg(dir) : QString::fromStdString(e);
    return ok;
}

bool markupLMKind(const QString &dir, bool *questionAnswering, QStringList *labels, QString *error)
{
    try {
        if (!checkMarkupLMFolder(dir, error))
            return false;
        const std::lock_guard<std::mutex> lock(cacheMutex());
        std::string e;
        const inference::HfMarkupLM *model = cachedMarkupLM(dir, &e);
        if (!model) {
            *error = QString::fromStdString(e);
            return false;
        }
        *questionAnswering = model->isQuestionAnswering();
        *labels = entityLabels(*model);
        return true;
    } catch (const std::exception &x) {
        *error = QStringLiteral("%1: %2").arg(dir, QString::fromUtf8(x.what()));
        return false;
    }
}

MarkupFieldRun runMarkupLM(const Document &doc, const QString &dir, const QStringList &asked, const MarkupRunOptions &options)
{
    MarkupFieldRun run;
    try {
        if (!checkMarkupLMFolder(dir, &run.error))
            return run;
        const auto report = [&](int done, int total) {
            if (options.progress)
                options.progress(done, total);
        };
        report(0, 1);
        const std::lock_guard<std::mutex> lock(cacheMutex()); // one run at a time uses the cache
        std::string error;
        const inference::HfMarkupLM *model = cachedMarkupLM(dir, &error, options.int8);
        if (!model) {
            run.error = QString::fromStdString(error);
            return run;
        }
        run.questionAnswering = model->isQuestionAnswering();
        pageNodes(doc, &run);
        if (stop(options, &run))
            return run;
        if (run.nodes.isEmpty())
            run.notes << QStringLiteral("%1: the page has no text, so the model has nothing to read").arg(documentName(doc));
        const std::vector<std::string> nodes = utf8(run.nodes), xpaths = utf8(run.xpaths);
        if (run.questionAnswering) {
            for (int i = 0; i < asked.size(); ++i) {
                report(i, int(asked.size()));
                if (stop(options, &run))
                    return run;
                MarkupFieldAnswer a;
                a.field = asked[i];
                if (!nodes.empty()) {
                    const QString question = options.rawQuestions ? asked[i] : markupQuestion(asked[i]);
                    const inference::MarkupAnswer r = model->answer(question.toStdString(), nodes, xpaths);
                    if (!r.ok) {
                        run.error = QStringLiteral("%1: %2").arg(documentName(doc), QString::fromStdString(r.error));
                        return run;
                    }
                    if (r.found && r.firstNode >= 0 && r.lastNode >= r.firstNode && r.lastNode < run.nodes.size()) {
                        std::vector<int> span;
                        for (int n = r.firstNode; n <= r.lastNode; ++n)
                            span.push_back(n);
                        fillAnswer(run, span, &a);
                        a.confidence = r.confidence;
                    }
                }
                run.answers.push_back(a);
            }
            report(int(asked.size()), int(asked.size()));
            run.ok = true;
            return run;
        }
        run.labels = entityLabels(*model);
        report(0, 2);
        inference::MarkupNodeLabelling labelled;
        labelled.ok = true; // no nodes: nothing to label
        if (!nodes.empty())
            labelled = model->label(nodes, xpaths);
        if (!labelled.ok) {
            run.error = QStringLiteral("%1: %2").arg(documentName(doc), QString::fromStdString(labelled.error));
            return run;
        }
        if (stop(options, &run))
            return run;
        std::map<QString, std::pair<std::vector<int>, double>> byLabel; // label -> nodes, confidence sum
        for (int n = 0; n < int(labelled.nodes.size()); ++n) {
            const inference::WordLabel &w = labelled.nodes[std::size_t(n)];
            const QString label = w.labelId >= 0 ? entityLabel(QString::fromStdString(w.label)) : QString();
            run.nodeLabels << label;
            if (label.isEmpty() || label == QLatin1String("O"))
                continue;
            auto &entry = byLabel[label];
            entry.first.push_back(n);
            entry.second += w.confidence;
        }
        for (const QString &label : run.labels) {
            const auto it = byLabel.find(label);
            if (it == byLabel.end())
                continue;
            MarkupFieldAnswer a;
            a.field = label;
            fillAnswer(run, it->second.first, &a);
            a.confidence = it->second.second / double(it->second.first.size());
            run.answers.push_back(a);
        }
        report(2, 2);
        run.ok = true;
    } catch (const std::exception &e) {
        run = MarkupFieldRun{};
        run.error = QStringLiteral("%1: MarkupLM failed: %2").arg(documentName(doc), QString::fromUtf8(e.what()));
    }
    return run;
}

} // namespace folio::pipeline
