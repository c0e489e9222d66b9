#include "pipeline/labelling/labellingsimulation.h"

#include "document/formats/funsd.h"
#include "document/formats/xfund.h"
#include "document/project/project.h"
#include "inference/formtagger/predictor.h"
#include "pipeline/documentprediction.h"
#include "pipeline/modelinputs/taggerpages.h"
#include "pipeline/taggertraining.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <set>

namespace folio::labelling {

namespace {

bool isProjectPath(const QString &p)
{
    return p.endsWith(QLatin1String(".folio")) || p.startsWith(QLatin1String("postgresql://")) || p.startsWith(QLatin1String("postgres://"));
}

bool hasAcceptedEntity(const Annotations &a)
{
    for (const Entity &e : a.entities)
        if (e.state == ReviewState::Accepted || e.state == ReviewState::Edited)
            return true;
    return false;
}

bool loadProjectPages(const QString &path, std::vector<SimulationPage> *pages, QString *error)
{
    QString openError;
    const std::unique_ptr<Project> project = Project::open(path, &openError, Project::Mode::ReadOnly);
    if (!project) {
        *error = openError.contains(path) ? openError : QStringLiteral("%1: %2").arg(path, openError);
        return false;
    }
    QString listError;
    for (const ProjectDocument &d : project->documents(DocumentOrder::Position, &listError)) {
        SimulationPage p;
        QString loadError;
        if (!project->loadDocument(d.id, &p.document, &p.gold, &loadError)) {
            *error = QStringLiteral("%1: %2").arg(path, loadError);
            return false;
        }
        if (!hasAcceptedEntity(p.gold))
            continue;
        p.id = QStringLiteral("%1").arg(d.id);
        pages->push_back(std::move(p));
    }
    if (!listError.isEmpty()) {
        *error = QStringLiteral("%1: %2").arg(path, listError);
        return false;
    }
    return true;
}

// A FUNSD root's split, an XFUND file (whole) or a project's labelled documents.
bool loadPages(const QString &path, const QString &funsdSplit, std::vector<SimulationPage> *pages, QString *error)
{
    if (isProjectPath(path))
        return loadProjectPages(path, pages, error);
    const QFileInfo info(path);
    if (!info.exists()) {
        *error = QStringLiteral("%1: no such file or folder").arg(path);
        return false;
    }
    if (info.isDir()) {
        const QStringList files = funsdSplitFiles(path, funsdSplit);
        if (files.isEmpty()) {
            *error = QStringLiteral("%1: not a FUNSD dataset root (no %2/annotations/*.json)")
                         .arg(path, funsdSplit == QLatin1String("test") ? QStringLiteral("testing_data") : QStringLiteral("training_data"));
            return false;
        }
        for (const QString &f : files) {
            SimulationPage p;
            if (!importFunsdFile(f, FunsdWordOrder::Annotation, &p.document, &p.gold, error))
                return false;
            p.id = QFileInfo(f).completeBaseName();
            pages->push_back(std::move(p));
        }
        return true;
    }
    std::vector<XfundPage> xfund;
    if (!pipeline::loadXfundSplitDocuments(path, QStringLiteral("train"), FunsdWordOrder::Annotation, &xfund, error))
        return false;
    for (size_t i = 0; i < xfund.size(); ++i) {
        SimulationPage p;
        p.document = std::move(xfund[i].document);
        p.gold = std::move(xfund[i].annotations);
        // The XFUND document id ("de_train_12"); every page of a file shares its sourcePath.
        p.id = !p.document.title.isEmpty() ? p.document.title : QStringLiteral("%1#%2").arg(info.fileName()).arg(i + 1);
        pages->push_back(std::move(p));
    }
    return true;
}

QStringList entityLabelsOfTags(const std::vector<std::string> &tags)
{
    QStringList out;
    for (const std::string &t : tags) {
        const QString tag = QString::fromStdString(t);
        if ((tag.startsWith(QLatin1String("B-")) || tag.startsWith(QLatin1String("I-"))) && !out.contains(tag.mid(2)))
            out << tag.mid(2);
    }
    return out;
}

} // namespace

bool loadSimulationData(const QString &data, const QString &test, SimulationData *out, QString *error)
{
    *out = SimulationData();
    const bool project = isProjectPath(data);
    if (!project && test.isEmpty() && QFileInfo(data).isFile()) {
        *error = QStringLiteral("%1: an XFUND file is one split; name the held-out file with --test (e.g. de.val.json)").arg(data);
        return false;
    }
    if (!loadPages(data, QStringLiteral("train"), &out->pool, error))
        return false;
    if (!test.isEmpty()) {
        if (!loadPages(test, QStringLiteral("test"), &out->test, error))
            return false;
    } else if (project) {
        const int n = int(out->pool.size());
        if (n < kMinHeldOutPages + kMinPoolPages) {
            *error = QStringLiteral("%1: %2 labelled document(s); a simulation needs at least %3 (%4 held out to score each "
                                    "model, %5 to label), or --test with held-out pages")
                         .arg(data).arg(n).arg(kMinHeldOutPages + kMinPoolPages).arg(kMinHeldOutPages).arg(kMinPoolPages);
            return false;
        }
        const int held = std::max(kMinHeldOutPages, n / 5);
        out->test.assign(std::make_move_iterator(out->pool.end() - held), std::make_move_iterator(out->pool.end()));
        out->pool.erase(out->pool.end() - held, out->pool.end());
        out->notes << QStringLiteral("%1: held out the last %2 of %3 labelled documents to score each model").arg(data).arg(held).arg(n);
    } else if (QFileInfo(data).isDir()) {
        if (!loadPages(data, QStringLiteral("test"), &out->test, error))
            return false;
    } else {
        *error = QStringLiteral("%1: an XFUND file is one split; name the held-out file with --test (e.g. de.val.json)").arg(data);
        return false;
    }
    if (out->pool.empty()) {
        *error = QStringLiteral("%1: no labelled pages to simulate").arg(data);
        return false;
    }
    if (out->test.empty()) {
        *error = QStringLiteral("%1: no held-out pages").arg(test.isEmpty() ? data : test);
        return false;
    }
    if (project) {
        std::set<QString> labels;
        for (const SimulationPage &p : out->pool)
            for (const Entity &e : p.gold.entities)
                if ((e.state == ReviewState::Accepted || e.state == ReviewState::Edited) && !e.label.isEmpty()
                    && e.label.compare(QLatin1String("other"), Qt::CaseInsensitive) != 0)
                    labels.insert(e.label);
        for (const QString &l : labels)
            out->labels << l;
    } else {
        out->labels = entityLabelsOfTags(pipeline::formSourceTags(data));
    }
    if (out->labels.isEmpty()) {
        *error = QStringLiteral("%1: the labelled pages use no entity label").arg(data);
        return false;
    }
    return true;
}

bool pageOrderFromName(const QString &name, PageOrder *order)
{
    if (name == QLatin1String("uncertain"))
        *order = PageOrder::Uncertain;
    else if (name == QLatin1String("random"))
        *order = PageOrder::Random;
    else if (name == QLatin1String("document"))
        *order = PageOrder::Document;
    else
        return false;
    return true;
}

QString pageOrderName(PageOrder order)
{
    switch (order) {
    case PageOrder::Uncertain: return QStringLiteral("uncertain");
    case PageOrder::Random: return QStringLiteral("random");
    case PageOrder::Document: return QStringLiteral("document");
    }
    return {};
}

namespace {

Annotations acceptedOnly(const Annotations &a)
{
    Annotations out;
    for (const Entity &e : a.entities)
        if (e.state == ReviewState::Accepted || e.state == ReviewState::Edited)
            out.entities.push_back(e);
    return out;
}

QJsonObject readConfig(const QString &dir)
{
    QFile f(QDir(dir).filePath(QStringLiteral("config.json")));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

struct Suggested
{
    Annotations start;
    int count = 0;
    double uncertainty = -1;
};

} // namespace

bool runLabellingSimulation(const SimulationData &data, const SimulationConfig &config,
                            const std::function<void(const PageRecord &)> &onPage, SimulationSummary *summary,
                            QString *error, const std::function<void(const QString &)> &note)
{
    auto tell = [&](const QString &m) {
        if (note)
            note(m);
    };
    *summary = SimulationSummary();
    pipeline::DocumentTagger tagger;
    bool haveModel = false;
    QString modelDir;
    QJsonObject startConfig;
    if (!config.startModel.isEmpty()) {
        if (!tagger.load(config.startModel, error))
            return false;
        haveModel = true;
        modelDir = config.startModel;
        startConfig = readConfig(config.startModel);
        QStringList unseen;
        const QStringList modelTags = tagger.labels();
        for (const QString &l : data.labels)
            if (!modelTags.contains(QStringLiteral("B-") + l))
                unseen << l;
        if (!unseen.isEmpty())
            tell(QStringLiteral("%1 has never seen the label(s) %2: it suggests none of them until the first retraining, "
                                "whose head grows to the data's labels")
                     .arg(config.startModel, unseen.join(QStringLiteral(", "))));
    }

    std::vector<inference::TaggerPage> testPages;
    for (const SimulationPage &p : data.test) {
        const Annotations target = labellingTarget(p.document, p.gold, data.labels);
        inference::TaggerPage tp = pipeline::taggerPageFromDocument(p.document, &target, p.id.toStdString());
        if (!tp.words.empty())
            testPages.push_back(std::move(tp));
    }
    if (haveModel) {
        QString why;
        summary->startTestF1 = taggerF1On(config.startModel, testPages, &why);
        if (summary->startTestF1 < 0)
            tell(QStringLiteral("%1 not scored on the held-out pages: %2").arg(config.startModel, why));
    }
    summary->finalTestF1 = summary->startTestF1;

    std::vector<int> remaining(data.pool.size());
    for (size_t i = 0; i < remaining.size(); ++i)
        remaining[i] = int(i);
    if (config.order == PageOrder::Random) {
        std::mt19937 rng(config.seed);
        std::shuffle(remaining.begin(), remaining.end(), rng);
    }
    const int total = config.pages > 0 ? std::min<int>(config.pages, int(remaining.size())) : int(remaining.size());

    std::map<int, Suggested> cache; // suggestions of the model in use, per pool page
    auto suggest = [&](int page) -> const Suggested & {
        auto it = cache.find(page);
        if (it != cache.end())
            return it->second;
        Suggested s;
        if (haveModel) {
            Annotations suggestions;
            QString why;
            const SimulationPage &p = data.pool[size_t(page)];
            if (pipeline::predictSuggestions(tagger, p.document, Annotations(), &suggestions, &why)) {
                mergeModelAnnotations(s.start, suggestions); // what the session's applyPredictions does
                double sum = 0;
                for (const Entity &e : s.start.entities)
                    if (e.state == ReviewState::Suggested) {
                        sum += e.confidence;
                        ++s.count;
                    }
                s.uncertainty = s.count > 0 ? 1.0 - sum / s.count : 0.0;
            } else {
                tell(QStringLiteral("page %1: no suggestions: %2").arg(p.id, why));
            }
        }
        return cache.emplace(page, std::move(s)).first->second;
    };

    std::vector<inference::TaggerPage> done;
    int generation = 0;
    for (int n = 1; n <= total; ++n) {
        if (config.cancel && config.cancel->load()) {
            *error = QStringLiteral("cancelled after %1 page(s)").arg(n - 1);
            return false;
        }
        size_t pick = 0;
        if (config.order == PageOrder::Uncertain && haveModel) {
            double best = -2;
            for (size_t i = 0; i < remaining.size(); ++i) {
                const double u = suggest(remaining[i]).uncertainty;
                if (u > best) {
                    best = u;
                    pick = i;
                }
            }
        }
        const int page = remaining[pick];
        remaining.erase(remaining.begin() + long(pick));
        const SimulationPage &p = data.pool[size_t(page)];
        const Suggested s = suggest(page);
        cache.erase(page);

        PageRecord r;
        r.index = n;
        r.pageId = p.id;
        r.suggestions = s.count;
        r.uncertainty = s.uncertainty;
        const Annotations target = labellingTarget(p.document, p.gold, data.labels);
        MemoryEditor editor(p.document, s.start);
        r.edits = correctPage(editor, p.document, target);
        MemoryEditor fromNothing(p.document, Annotations());
        const EditCounts blank = correctPage(fromNothing, p.document, target);
        r.editsWithoutModel = blank.total();
        r.entityEditsWithoutModel = blank.entityEdits();
        QString difference;
        if (editor.steps() != r.edits.total() || !sameLabelling(editor.current(), target, &difference))
            tell(QStringLiteral("page %1: the simulated fixes did not reach the gold labels (%2; %3 steps, %4 counted)")
                     .arg(p.id, difference).arg(editor.steps()).arg(r.edits.total()));
        const Annotations labelled = acceptedOnly(editor.current());
        inference::TaggerPage tp = pipeline::taggerPageFromDocument(p.document, &labelled, p.id.toStdString());
        r.words = int(tp.words.size());
        if (!tp.words.empty())
            done.push_back(std::move(tp));

        if (config.retrainEvery > 0 && n % config.retrainEvery == 0 && done.size() >= 2) {
            r.retrained = true;
            ++generation;
            inference::TrainConfig tc;
            tc.labels = {"O"};
            for (const QString &l : data.labels) {
                tc.labels.push_back(("B-" + l).toStdString());
                tc.labels.push_back(("I-" + l).toStdString());
            }
            const QString out = QDir(config.workDir).filePath(QStringLiteral("model-%1").arg(generation));
            QDir(out).removeRecursively();
            QDir().mkpath(out);
            tc.outputDir = out.toStdString();
            tc.epochs = config.epochs;
            tc.maxSteps = config.maxSteps;
            tc.seed = config.seed;
            tc.threads = config.threads;
            tc.hidden = config.hidden;
            tc.layers = config.layers;
            tc.intermediate = config.hidden * 4;
            tc.heads = std::max(1, config.hidden / 64);
            tc.wordOrder = "annotation";
            tc.command = "simulate-labelling";
            tc.dataDescription = QStringLiteral("%1 simulated pages").arg(done.size()).toStdString();
            if (!config.startModel.isEmpty()) {
                // From the start model: its encoder, its vocabulary; a fresh head over the data's labels.
                tc.initDir = config.startModel.toStdString();
                tc.variant = startConfig.value(QStringLiteral("variant")).toString(QStringLiteral("full")).toStdString();
                tc.architecture = startConfig.value(QStringLiteral("architecture")).toString().toStdString();
                tc.wordOrder = startConfig.value(QStringLiteral("word_order")).toString(QStringLiteral("annotation")).toStdString();
            }
            std::atomic<bool> stop{false};
            QElapsedTimer clock;
            clock.start();
            const auto progress = [&](const inference::TrainProgress &) {
                if ((config.budgetSeconds > 0 && clock.elapsed() > qint64(config.budgetSeconds * 1000))
                    || (config.cancel && config.cancel->load()))
                    stop = true;
            };
            const pipeline::TaggerTrainOutcome o = pipeline::trainTaggerOnPages(tc, done, progress, &stop);
            r.trainSeconds = clock.elapsed() / 1000.0;
            summary->trainSeconds += r.trainSeconds;
            ++summary->retrainings;
            const bool written = QFileInfo::exists(QDir(out).filePath(QStringLiteral("model.safetensors")))
                                 && QFileInfo::exists(QDir(out).filePath(QStringLiteral("config.json")));
            QString loadError;
            if ((o.ok || o.cancelled) && written && tagger.load(out, &loadError)) {
                haveModel = true;
                modelDir = out;
                r.modelUpdated = true;
                cache.clear();
                if (o.cancelled)
                    r.trainNote = QStringLiteral("stopped at the budget; the best epoch so far took over");
            } else {
                r.trainNote = QStringLiteral("the previous model stays: %1")
                                  .arg(!o.error.isEmpty() ? o.error
                                       : !loadError.isEmpty() ? loadError
                                                              : QStringLiteral("the budget ended before the first epoch"));
            }
            if (haveModel) {
                QString why;
                r.testF1 = r.modelUpdated ? taggerF1On(modelDir, testPages, &why) : summary->finalTestF1;
                if (r.testF1 < 0 && !why.isEmpty())
                    r.trainNote += (r.trainNote.isEmpty() ? QString() : QStringLiteral("; ")) + QStringLiteral("not scored: ") + why;
                summary->finalTestF1 = r.testF1;
            }
        }
        ++summary->pages;
        summary->edits += r.edits;
        summary->editsWithoutModel += r.editsWithoutModel;
        summary->entityEditsWithoutModel += r.entityEditsWithoutModel;
        summary->words += r.words;
        if (onPage)
            onPage(r);
    }
    return true;
}

double taggerF1On(const QString &checkpoint, const std::vector<inference::TaggerPage> &pages, QString *why)
{
    inference::Predictor predictor;
    std::string error, json;
    if (!predictor.load(checkpoint.toStdString(), &error) || !predictor.evaluate(pages, &json, &error)) {
        *why = QString::fromStdString(error);
        return -1;
    }
    try {
        return nlohmann::json::parse(json).value("f1", -1.0);
    } catch (const std::exception &e) {
        *why = QString::fromUtf8(e.what());
        return -1;
    }
}

} // namespace folio::labelling
