#pragma once
// The Hub's answer to GET /api/models/ID/revision/REV, read as hostile input: at most 32 MB, JSON
// nested at most 32 deep, `sha` a 40-hex commit, `siblings` at most 100,000 objects whose
// `rfilename` passes isValidRepoFilename and appears once. Errors name the URL and the problem.

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace folio::hub {

struct RepoListing
{
    QString commit;    // `sha`
    QStringList files; // `siblings[].rfilename`, in the answer's order
};

constexpr qint64 kMaxListingBytes = 32ll * 1024 * 1024;

RepoListing parseRepoListing(const QByteArray &body, const QString &source); // throws HubError(Invalid)

// What a runnable checkpoint needs among the listed files: config.json and a weights file
// (model.safetensors, model.safetensors.index.json, pytorch_model.bin or checkpoint_best.pt) at the
// top of the repo. Empty when present, else what is missing.
QString missingModelFiles(const QStringList &files);
bool isWeightsFile(const QString &name); // weights and their shards (*.safetensors, *.bin, *.pt)

} // namespace folio::hub
