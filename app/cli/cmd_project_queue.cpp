// folio-cli project queue status --project URL [--queue NAME] [--items]: progress of the work
// queues that folio-cli workers share (batch.h, --queue), as JSON: per queue the pending /
// claimed (and of those, expired) / done / failed counts, the same per worker, and every failed
// input with its message (--items: every input with its state).
#include "app/cli/commands.h"
#include "document/project/project.h"
#include "document/project/projectqueue.h"

#include <CLI/CLI.hpp>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

namespace folio::cli {

namespace {

QJsonObject itemJson(const QueueItemInfo &item)
{
    QJsonObject o{{QStringLiteral("input"), item.input},
                  {QStringLiteral("state"), item.state},
                  {QStringLiteral("attempts"), item.attempts}};
    if (!item.worker.isEmpty())
        o.insert(QStringLiteral("worker"), item.worker);
    if (!item.error.isEmpty())
        o.insert(QStringLiteral("error"), item.error);
    return o;
}

QJsonObject queueJson(const ProjectQueue &queue, bool allItems)
{
    QueueStatus st;
    QString error;
    if (!queue.status(&st, &error))
        throw CliError(error.toStdString());
    QJsonArray workers;
    for (const QueueWorkerCounts &w : st.workers)
        workers.append(QJsonObject{{QStringLiteral("worker"), w.worker},
                                   {QStringLiteral("claimed"), w.claimed},
                                   {QStringLiteral("done"), w.done},
                                   {QStringLiteral("failed"), w.failed}});
    std::vector<QueueItemInfo> items;
    if (!queue.items(&items, !allItems, &error))
        throw CliError(error.toStdString());
    QJsonArray listed;
    for (const QueueItemInfo &item : items)
        listed.append(itemJson(item));
    return QJsonObject{{QStringLiteral("name"), st.name},
                       {QStringLiteral("command"), st.command},
                       {QStringLiteral("created_by"), st.createdBy},
                       {QStringLiteral("created"), st.created},
                       {QStringLiteral("total"), st.total()},
                       {QStringLiteral("pending"), st.pending},
                       {QStringLiteral("claimed"), st.claimed},
                       {QStringLiteral("expired_claims"), st.expired},
                       {QStringLiteral("done"), st.done},
                       {QStringLiteral("failed"), st.failed},
                       {QStringLiteral("finished"), st.finished()},
                       {QStringLiteral("workers"), workers},
                       {allItems ? QStringLiteral("items") : QStringLiteral("failed_inputs"), listed}};
}

} // namespace

void registerProjectQueueCommand(CLI::App &app)
{
    CLI::App *project = app.get_subcommand("project");
    auto *queueCmd = project->add_subcommand("queue", "Work queues that folio-cli workers share (ocr|predict|extract|qs "
                                                      "generate --project URL --queue NAME)");
    queueCmd->require_subcommand(1);
    struct Args
    {
        std::string project, queue;
        bool items = false;
    };
    auto a = std::make_shared<Args>();
    auto *sub = queueCmd->add_subcommand("status", "Progress of the queues as JSON: pending / claimed / done / failed, "
                                                   "per worker, failed inputs with their message");
    sub->add_option("--project", a->project, "The project (postgresql://..., .folio-pg or .folio)")->required();
    sub->add_option("--queue", a->queue, "Only this queue (default: all)");
    sub->add_flag("--items", a->items, "List every input with its state, not only the failed ones");
    sub->callback([a] {
        QString error;
        auto p = Project::open(QString::fromStdString(a->project), &error, Project::Mode::ReadOnly);
        if (!p)
            throw CliError(error.toStdString());
        QStringList names;
        if (a->queue.empty()) {
            names = ProjectQueue::names(*p, &error);
            if (!error.isEmpty())
                throw CliError(error.toStdString());
        } else {
            names << QString::fromStdString(a->queue);
        }
        QJsonArray queues;
        for (const QString &name : names)
            queues.append(queueJson(ProjectQueue(*p, name), a->items));
        const QByteArray out = QJsonDocument(QJsonObject{{QStringLiteral("project"), p->path()},
                                                         {QStringLiteral("queues"), queues}})
                                    .toJson(QJsonDocument::Indented);
        std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
    });
}

} // namespace folio::cli
