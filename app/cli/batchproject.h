#pragma once
// --project for folio-cli's per-file commands: results written into a Folio project as each
// input finishes (every write is one durable transaction; in a --jobs batch each worker holds its
// own connection and SQLite's busy timeout serialises them).
//   ocr      adds the document (an input already in the project is left as it is)
//   predict  predicts on the project's copy when the input is already there (so suggestions fit
//            its words), else adds the document; the predictions become suggestions merged as
//            the GUI merges them (mergeModelAnnotations: the user's labels are never touched).
#include "document/annotations.h"
#include "document/document.h"

#include <memory>
#include <string>

namespace folio {
class Project;
}

namespace folio::cli {

class ProjectSink
{
public:
    // Opens it read-write; throws CliError. `createIfEmpty`: an empty PostgreSQL database becomes
    // a project (the first --queue worker, the one given the inputs; the others only join).
    explicit ProjectSink(const std::string &project, bool createIfEmpty = false);
    ~ProjectSink();

    // The stored copy of the file at `path` (matched by its canonical path); id -1 when absent.
    qint64 find(const QString &path, Document *document, Annotations *annotations) const;
    // Adds `document` (source path made canonical) with `annotations`; returns its id.
    qint64 add(Document document, const Annotations &annotations);
    // Document `id`'s annotations as stored now.
    Annotations annotations(qint64 id) const;
    // Merges model suggestions into document `id`'s annotations (user items kept).
    void mergeSuggestions(qint64 id, const Annotations &suggestions);

private:
    std::string m_path;
    std::unique_ptr<Project> m_project;
};

} // namespace folio::cli
