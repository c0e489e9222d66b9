#include "pipeline/pretraincorpus.h"

#include "document/project/project.h"
#include "document/project/projectlocation.h"
#include "pipeline/folderfiles.h"
#include "pipeline/modelinputs/taggerpages.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <cmath>

namespace folio::pipeline {

namespace {

void addDocument(const QString &name, const Document &doc, PretrainCorpus *corpus)
{
    bool any = false;
    for (const DocumentTaggerPage &p : taggerPagesOfDocument(doc, nullptr)) {
        const bool noLayout = std::all_of(p.taggerPage.boxes.begin(), p.taggerPage.boxes.end(), [](const inference::WordBox &b) {
            return b.x0 == 0 && b.y0 == 0 && b.x1 == 0 && b.y1 == 0;
        });
        if (p.taggerPage.words.empty() || noLayout) // a page without boxes would teach the box head zeros
            continue;
        inference::TaggerPage page = p.taggerPage;
        page.tags.clear();
        page.id = QStringLiteral("%1#%2").arg(name).arg(p.page + 1).toStdString();
        corpus->words += long(page.words.size());
        corpus->pages.push_back(std::move(page));
        any = true;
    }
    if (any) {
        ++corpus->used;
    } else {
        ++corpus->empty;
        if (corpus->skipped.size() < 50)
            corpus->skipped << name + (doc.kind == SourceKind::Html && !doc.words.empty()
                                           ? QStringLiteral(": a web page without rendered word boxes (folio-cli dom --render "
                                                            "writes a Document JSON with them)")
                                           : QStringLiteral(": no words"));
    }
}

void skip(PretrainCorpus *corpus, const QString &why)
{
    if (corpus->skipped.size() < 50)
        corpus->skipped << why;
}

bool isFunsdTestPage(const QString &path)
{
    const QString p = QDir::fromNativeSeparators(QFileInfo(path).absoluteFilePath());
    return p.contains(QLatin1String("/testing_data/")) && p.contains(QLatin1String("funsd"), Qt::CaseInsensitive);
}

} // namespace

bool loadPretrainCorpus(const QString &source, const LoadOptions &options, PretrainCorpus *corpus, QString *error,
                        const std::function<void(int, int)> &progress, const std::atomic_bool *cancel)
{
    *corpus = PretrainCorpus();
    const bool folder = QFileInfo(source).isDir();
    if (!folder) {
        // A project: its documents' words (annotations are not used).
        std::unique_ptr<Project> project = Project::open(source, error, Project::Mode::ReadOnly);
        if (!project)
            return false;
        const std::vector<ProjectDocument> docs = project->documents(DocumentOrder::Position, error);
        int done = 0;
        for (const ProjectDocument &d : docs) {
            if (cancel && cancel->load()) {
                *error = source + QStringLiteral(": cancelled");
                return false;
            }
            ++corpus->files;
            Document doc;
            QString why;
            if (isFunsdTestPage(d.sourcePath)) {
                ++corpus->refused;
                skip(corpus, d.sourcePath + QStringLiteral(": a FUNSD test page is never pretraining data"));
            } else if (!project->loadDocument(d.id, &doc, nullptr, &why)) {
                ++corpus->unreadable;
                skip(corpus, why);
            } else {
                addDocument(d.name, doc, corpus);
            }
            if (progress)
                progress(++done, int(docs.size()));
        }
        return true;
    }
    QStringList suffixes = documentFileSuffixes();
    QStringList files;
    // Only what lies inside the folder (issue 51): links out of it, FIFOs and devices are named, not read.
    for (const FolderFile &f : folderFiles(source, suffixes)) {
        if (f.refused.isEmpty()) {
            files << f.path;
        } else {
            ++corpus->files;
            ++corpus->unreadable;
            skip(corpus, f.refused);
        }
    }
    int done = 0;
    for (const QString &f : files) {
        if (cancel && cancel->load()) {
            *error = source + QStringLiteral(": cancelled");
            return false;
        }
        ++corpus->files;
        if (isFunsdTestPage(f)) {
            ++corpus->refused;
            skip(corpus, f + QStringLiteral(": a FUNSD test page is never pretraining data"));
        } else if (QFileInfo(f).size() == 0) {
            ++corpus->empty;
            skip(corpus, f + QStringLiteral(": empty file"));
        } else {
            LoadOptions o = options;
            o.progress = nullptr;
            o.cancel = cancel;
            const LoadedDocument loaded = loadDocumentFile(f, o);
            if (loaded.cancelled) {
                *error = source + QStringLiteral(": cancelled");
                return false;
            }
            if (!loaded.ok) {
                ++corpus->unreadable;
                skip(corpus, loaded.error);
            } else {
                addDocument(f, loaded.document, corpus);
            }
        }
        if (progress)
            progress(++done, int(files.size()));
    }
    return true;
}

void samplePretrainPages(PretrainCorpus *corpus, double fraction)
{
    if (!(fraction > 0 && fraction < 1) || corpus->pages.empty())
        return;
    const int keep = std::max(1, int(std::lround(fraction * double(corpus->pages.size()))));
    corpus->pages = inference::nestedSample(std::move(corpus->pages), keep);
    corpus->words = 0;
    for (const inference::TaggerPage &p : corpus->pages)
        corpus->words += long(p.words.size());
}

} // namespace folio::pipeline
