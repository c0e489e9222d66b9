// Picks the dialect of a project store by name or by location.
#include "document/project/projectdialect.h"
#include "document/project/projectlocation.h"

namespace folio {

std::unique_ptr<ProjectDialect> createSqliteProjectDialect();   // projectdialectsqlite.cpp
std::unique_ptr<ProjectDialect> createPostgresProjectDialect(); // projectdialectpostgres.cpp

std::unique_ptr<ProjectDialect> createProjectDialect(const QString &name)
{
    if (name.isEmpty() || name == QLatin1String("sqlite"))
        return createSqliteProjectDialect();
    if (name == QLatin1String("postgresql"))
        return createPostgresProjectDialect();
    return nullptr;
}

std::unique_ptr<ProjectDialect> projectDialectFor(const ProjectLocation &location)
{
    return location.kind == ProjectLocation::Kind::Postgres ? createPostgresProjectDialect()
                                                            : createSqliteProjectDialect();
}

} // namespace folio
