#pragma once
// Internal to the project store: the schema as an ordered list of migrations, and the helpers
// that write the normalised annotation rows. Portable SQL only; engine specifics come from the
// dialect. Not for use outside document/project*.cpp.

#include "document/annotations.h"

#include <QString>

#include <vector>

class QSqlDatabase;

namespace folio {
class ProjectDialect;

namespace detail {

struct ProjectMigration
{
    int version;             // the schema version this migration produces
    const char *description;
    bool (*apply)(QSqlDatabase &db, const ProjectDialect &dialect, QString *error);
};

// In ascending version order; the last one is the current schema.
const std::vector<ProjectMigration> &projectMigrations();
int latestProjectSchemaVersion();

// 0 when the schema_version table does not exist yet.
bool readSchemaVersion(QSqlDatabase &db, const ProjectDialect &dialect, int *version, QString *error);
// Applies migrations (from, to] inside the caller's transaction, recording each one.
bool migrateProject(QSqlDatabase &db, const ProjectDialect &dialect, int from, int to, QString *error);

// The stored form of a Document's and an Annotations' JSON (schema 3): zlib-compressed
// (qCompress). The Document JSON repeats every word's text and box in its node and carries pixel
// and 0-1000 boxes, which made a project 8.7x the size of the HF JSONL it was imported from
// (13.5x for CoNLL); compressed: 2.1x (3.1x), measured on the 149 FUNSD training pages. unpackJson also reads the plain
// JSON of older rows (it starts with '{') and refuses a header claiming more than 1 GiB.
QByteArray packJson(const QByteArray &json);
bool unpackJson(const QByteArray &stored, QByteArray *json, QString *error);

// Replaces the annotation_items rows of one document (inside the caller's transaction).
bool writeAnnotationItems(QSqlDatabase &db, const ProjectDialect &dialect, qint64 documentId,
                          const Annotations &annotations, QString *error);

} // namespace detail
} // namespace folio
