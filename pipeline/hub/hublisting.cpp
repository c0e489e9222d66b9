#include "pipeline/hub/hublisting.h"

#include "pipeline/hub/huberror.h"
#include "pipeline/hub/hubnames.h"

#include <nlohmann/json.hpp>

#include <QSet>

namespace folio::hub {

RepoListing parseRepoListing(const QByteArray &body, const QString &source)
{
    using nlohmann::json;
    auto bad = [&](const QString &what) { return HubError(HubError::Invalid, source + QStringLiteral(": ") + what); };
    if (body.size() > kMaxListingBytes)
        throw bad(QStringLiteral("answer larger than %1 bytes").arg(kMaxListingBytes));
    json j;
    try {
        const json::parser_callback_t depthLimit = [&](int depth, json::parse_event_t, json &) {
            if (depth > 32)
                throw bad(QStringLiteral("JSON nested deeper than 32"));
            return true;
        };
        j = json::parse(body.constData(), body.constData() + body.size(), depthLimit);
    } catch (const json::exception &e) {
        throw bad(QStringLiteral("not valid JSON (%1)").arg(QString::fromUtf8(e.what())));
    }
    if (!j.is_object())
        throw bad(QStringLiteral("not a JSON object"));
    RepoListing out;
    const auto sha = j.find("sha");
    if (sha == j.end() || !sha->is_string())
        throw bad(QStringLiteral("no 'sha' (the commit of the revision)"));
    out.commit = QString::fromStdString(sha->get<std::string>());
    if (!isCommitHash(out.commit))
        throw bad(QStringLiteral("'sha' is '%1', not a 40-hex commit").arg(out.commit.left(80)));
    const auto siblings = j.find("siblings");
    if (siblings == j.end() || !siblings->is_array())
        throw bad(QStringLiteral("no 'siblings' list (the repo's files)"));
    if (siblings->size() > 100000)
        throw bad(QStringLiteral("%1 files listed (at most 100000)").arg(siblings->size()));
    QSet<QString> seen;
    for (const json &s : *siblings) {
        const auto name = s.is_object() ? s.find("rfilename") : s.end();
        if (!s.is_object() || name == s.end() || !name->is_string())
            throw bad(QStringLiteral("a 'siblings' entry without an 'rfilename' string"));
        const QString file = QString::fromStdString(name->get<std::string>());
        QString why;
        if (!isValidRepoFilename(file, &why))
            throw bad(why);
        if (seen.contains(file))
            throw bad(QStringLiteral("file '%1' listed twice").arg(file));
        seen.insert(file);
        out.files << file;
    }
    return out;
}

bool isWeightsFile(const QString &name)
{
    return name.endsWith(QLatin1String(".safetensors")) || name.endsWith(QLatin1String(".bin"))
           || name.endsWith(QLatin1String(".pt")) || name.endsWith(QLatin1String(".safetensors.index.json"))
           || name.endsWith(QLatin1String(".bin.index.json"));
}

QString missingModelFiles(const QStringList &files)
{
    QStringList missing;
    if (!files.contains(QStringLiteral("config.json")) && !files.contains(QStringLiteral("drafter.json"))
        && !files.contains(QStringLiteral("checkpoint_best.pt")))
        missing << QStringLiteral("config.json");
    bool weights = false;
    for (const char *w : {"model.safetensors", "model.safetensors.index.json", "pytorch_model.bin", "checkpoint_best.pt", "drafter.json"})
        weights = weights || files.contains(QString::fromLatin1(w));
    if (!weights)
        missing << QStringLiteral("a weights file (model.safetensors, model.safetensors.index.json or pytorch_model.bin)");
    return missing.join(QStringLiteral(" and "));
}

} // namespace folio::hub
