// folio-cli project users|assign|claim|review|history|agreement|save: several annotators on one
// project (issue 17). Who acts is --user, else $FOLIO_USER, else $USER. Results are JSON on stdout;
// refusals (roles, someone else's document, a stale save) exit 1 with the store's message.
#include "app/cli/commands.h"
#include "document/documentjson.h"
#include "document/project/project.h"
#include "document/project/projectagreement.h"

#include <CLI/CLI.hpp>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

namespace folio::cli {

namespace {

struct TeamOptions
{
    std::string project;
    std::string user;
    long long doc = -1;
};

void addCommon(CLI::App *sub, const std::shared_ptr<TeamOptions> &o, bool needsDoc)
{
    sub->add_option("PROJECT", o->project, "The project: a .folio file, a postgresql:// URL or a .folio-pg file")->required();
    sub->add_option("--user", o->user, "Who acts (default: $FOLIO_USER, else $USER)");
    if (needsDoc)
        sub->add_option("--doc", o->doc, "Document id (see 'project list')")->required();
}

std::unique_ptr<Project> openAs(const TeamOptions &o, bool readOnly)
{
    QString error;
    auto p = Project::open(QString::fromStdString(o.project), &error,
                           readOnly ? Project::Mode::ReadOnly : Project::Mode::ReadWrite);
    if (!p)
        throw CliError(error.toStdString());
    if (!o.user.empty())
        p->setUser(QString::fromStdString(o.user));
    return p;
}

void print(const QJsonDocument &doc)
{
    const QByteArray out = doc.toJson(QJsonDocument::Indented);
    std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
}

void check(bool ok, const QString &error)
{
    if (!ok)
        throw CliError(error.toStdString());
}

QJsonObject agreementJson(const Agreement &a)
{
    return {{QStringLiteral("documents"), a.documents},
            {QStringLiteral("entities_a"), a.entitiesA},
            {QStringLiteral("entities_b"), a.entitiesB},
            {QStringLiteral("matched_entities"), a.matchedEntities},
            {QStringLiteral("entity_f1"), a.entityF1},
            {QStringLiteral("tokens"), a.tokens},
            {QStringLiteral("observed_agreement"), a.observed},
            {QStringLiteral("kappa"), a.kappa}};
}

void registerUsers(CLI::App *project)
{
    auto *sub = project->add_subcommand("users", "List the project's users; --add NAME --role R or --remove NAME (admins)");
    auto o = std::make_shared<TeamOptions>();
    auto add = std::make_shared<std::string>();
    auto role = std::make_shared<std::string>("annotator");
    auto remove = std::make_shared<std::string>();
    addCommon(sub, o, false);
    sub->add_option("--add", *add, "Add a user (or change a user's role); the first user must be an admin");
    sub->add_option("--role", *role, "annotator (default), reviewer or admin")
        ->check(CLI::IsMember({"annotator", "reviewer", "admin"}));
    sub->add_option("--remove", *remove, "Remove a user");
    sub->callback([o, add, role, remove] {
        auto p = openAs(*o, add->empty() && remove->empty());
        QString error;
        if (!add->empty())
            check(p->addUser(QString::fromStdString(*add), userRoleFromName(QString::fromStdString(*role)), &error), error);
        if (!remove->empty())
            check(p->removeUser(QString::fromStdString(*remove), &error), error);
        const auto users = p->users(&error);
        check(error.isEmpty(), error);
        QJsonArray out;
        for (const ProjectUser &u : users) {
            QJsonArray docs;
            for (qint64 id : p->documentsOf(u.name))
                docs.append(id);
            out.append(QJsonObject{{QStringLiteral("name"), u.name},
                                   {QStringLiteral("role"), userRoleName(u.role)},
                                   {QStringLiteral("documents"), docs}});
        }
        print(QJsonDocument(out));
    });
}

void registerAssignAndClaim(CLI::App *project)
{
    {
        auto *sub = project->add_subcommand("assign", "Assign a document to a user (admins and reviewers)");
        auto o = std::make_shared<TeamOptions>();
        auto to = std::make_shared<std::string>();
        auto none = std::make_shared<bool>(false);
        addCommon(sub, o, true);
        sub->add_option("--to", *to, "The user who gets the document");
        sub->add_flag("--none", *none, "Take the document from whoever has it");
        sub->callback([o, to, none] {
            if (to->empty() == !*none)
                throw CliError("give either --to USER or --none", ExitUsage);
            auto p = openAs(*o, false);
            QString error;
            check(p->assignDocument(o->doc, QString::fromStdString(*to), &error), error);
            std::printf("{\"document\": %lld, \"assigned\": \"%s\"}\n", o->doc, to->c_str());
        });
    }
    {
        auto *sub = project->add_subcommand("claim", "Take a document nobody has (you become its annotator)");
        auto o = std::make_shared<TeamOptions>();
        addCommon(sub, o, true);
        sub->callback([o] {
            auto p = openAs(*o, false);
            QString error;
            check(p->claimDocument(o->doc, &error), error);
            std::printf("{\"document\": %lld, \"claimed\": \"%s\"}\n", o->doc, qPrintable(p->user()));
        });
    }
}

void registerReview(CLI::App *project)
{
    auto *sub = project->add_subcommand("review", "Show a document's review state; --set submitted|accepted|sent-back");
    auto o = std::make_shared<TeamOptions>();
    auto set = std::make_shared<std::string>();
    auto note = std::make_shared<std::string>();
    addCommon(sub, o, true);
    sub->add_option("--set", *set, "submitted (annotators), accepted or sent-back (reviewers, admins)")
        ->check(CLI::IsMember({"submitted", "accepted", "sent-back"}));
    sub->add_option("--note", *note, "A note for the annotator (why it was sent back)");
    sub->callback([o, set, note] {
        auto p = openAs(*o, set->empty());
        QString error;
        if (!set->empty())
            check(p->setReview(o->doc, reviewStatusFromName(QString::fromStdString(*set)), QString::fromStdString(*note),
                               &error),
                  error);
        DocumentReview r;
        ProjectDocument info;
        check(p->documentInfo(o->doc, &info, &error) && p->documentReview(o->doc, &r, &error), error);
        DocumentAssignment who;
        check(p->documentAssignment(o->doc, &who, &error), error);
        print(QJsonDocument(QJsonObject{{QStringLiteral("document"), o->doc},
                                        {QStringLiteral("review"), reviewStatusName(r.status)},
                                        {QStringLiteral("by"), r.by},
                                        {QStringLiteral("note"), r.note},
                                        {QStringLiteral("at"), r.at.toString(Qt::ISODate)},
                                        {QStringLiteral("assigned"), who.user},
                                        {QStringLiteral("revision"), info.annotationRevision}}));
    });
}

void registerHistory(CLI::App *project)
{
    auto *sub = project->add_subcommand("history", "Who changed what in a document, oldest first");
    auto o = std::make_shared<TeamOptions>();
    addCommon(sub, o, true);
    sub->callback([o] {
        auto p = openAs(*o, true);
        QString error;
        ProjectDocument info;
        check(p->documentInfo(o->doc, &info, &error), error);
        const auto entries = p->history(o->doc, &error);
        check(error.isEmpty(), error);
        QJsonArray out;
        for (const HistoryEntry &h : entries) {
            QJsonObject line{{QStringLiteral("at"), h.at.toString(Qt::ISODateWithMs)},
                             {QStringLiteral("user"), h.user},
                             {QStringLiteral("action"), h.action},
                             {QStringLiteral("detail"), h.detail}};
            if (h.revision > 0)
                line.insert(QStringLiteral("revision"), h.revision);
            out.append(line);
        }
        print(QJsonDocument(out));
    });
}

void registerAgreement(CLI::App *project)
{
    auto *sub = project->add_subcommand(
        "agreement", "Inter-annotator agreement on documents two users both saved: entity F1 and Cohen's kappa on token labels");
    auto o = std::make_shared<TeamOptions>();
    auto users = std::make_shared<std::vector<std::string>>();
    auto perDocument = std::make_shared<bool>(false);
    sub->add_option("PROJECT", o->project, "The project: a .folio file, a postgresql:// URL or a .folio-pg file")->required();
    sub->add_option("--users", *users, "The two annotators, A,B")->delimiter(',')->required()->expected(2);
    sub->add_flag("--per-document", *perDocument, "Also one entry per document");
    sub->callback([o, users, perDocument] {
        if (users->size() != 2 || (*users)[0] == (*users)[1])
            throw CliError("--users needs two different annotators, A,B", ExitUsage);
        auto p = openAs(*o, true);
        Agreement total;
        std::vector<std::pair<qint64, Agreement>> per;
        QString error;
        check(projectAgreement(*p, QString::fromStdString((*users)[0]), QString::fromStdString((*users)[1]), &total, &per,
                               &error),
              error);
        QJsonObject out = agreementJson(total);
        out.insert(QStringLiteral("users"), QJsonArray{QString::fromStdString((*users)[0]), QString::fromStdString((*users)[1])});
        if (*perDocument) {
            QJsonArray docs;
            for (const auto &[id, a] : per) {
                QJsonObject d = agreementJson(a);
                d.remove(QStringLiteral("documents"));
                d.insert(QStringLiteral("document"), id);
                docs.append(d);
            }
            out.insert(QStringLiteral("per_document"), docs);
        }
        if (total.documents == 0)
            std::fprintf(stderr, "folio-cli: no document was saved by both %s and %s\n", (*users)[0].c_str(),
                         (*users)[1].c_str());
        print(QJsonDocument(out));
    });
}

void registerSave(CLI::App *project)
{
    auto *sub = project->add_subcommand(
        "save", "Save a document's annotations (Folio annotations JSON) against the revision they were edited from");
    auto o = std::make_shared<TeamOptions>();
    auto file = std::make_shared<std::string>();
    auto base = std::make_shared<int>(-1);
    addCommon(sub, o, true);
    sub->add_option("--annotations", *file, "Annotations JSON (the \"annotations\" object of a Folio document)")->required();
    sub->add_option("--base-revision", *base, "The revision the edit started from (project list shows it); a "
                                              "newer stored revision refuses the save")
        ->required()
        ->check(CLI::NonNegativeNumber);
    sub->callback([o, file, base] {
        const QString path = QString::fromStdString(*file);
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            throw CliError((path + QStringLiteral(": cannot read (") + f.errorString() + QStringLiteral(")")).toStdString());
        if (f.size() > (qint64(256) << 20))
            throw CliError(*file + ": larger than 256 MiB");
        QJsonParseError pe;
        const QJsonDocument json = QJsonDocument::fromJson(f.readAll(), &pe);
        if (!json.isObject())
            throw CliError(*file + ": not a JSON object (" + pe.errorString().toStdString() + ")");
        QJsonObject object = json.object();
        if (object.contains(QStringLiteral("annotations")) && object.value(QStringLiteral("annotations")).isObject())
            object = object.value(QStringLiteral("annotations")).toObject();
        Annotations annotations;
        QString error;
        if (!annotationsFromJsonObject(object, &annotations, &error))
            throw CliError(*file + ": " + error.toStdString());
        auto p = openAs(*o, false);
        SaveConflict conflict;
        check(p->saveAnnotations(o->doc, annotations, *base, &conflict, &error), error);
        ProjectDocument info;
        check(p->documentInfo(o->doc, &info, &error), error);
        std::printf("{\"document\": %lld, \"revision\": %d}\n", o->doc, info.annotationRevision);
    });
}

} // namespace

void registerProjectTeamCommand(CLI::App &app)
{
    CLI::App *project = app.get_subcommand("project");
    registerUsers(project);
    registerAssignAndClaim(project);
    registerReview(project);
    registerHistory(project);
    registerAgreement(project);
    registerSave(project);
}

} // namespace folio::cli
