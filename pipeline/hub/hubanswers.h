#pragma once
// The Hub's error answers as messages people can act on (internal to pipeline/hub): 401 / 403 say
// whether the repo is private or gated and how to give a token (HF_TOKEN, or the file
// `huggingface-cli login` writes), 404 says whether the repo, the revision or the file is missing
// (the Hub's X-Error-Code), 5xx / 429 and broken connections say how often they were tried. The
// Hub's own X-Error-Message is quoted, printable and cut to 300 characters.

#include "pipeline/hub/huberror.h"
#include "pipeline/hub/hubhttp.h"
#include "pipeline/hub/hubsettings.h"

#include <QString>
#include <QUrl>

namespace folio::hub {

struct AnswerContext
{
    const HubSettings &settings;
    QString repoId;
    QString revision;
    QString file; // empty for the file list
    QUrl url;
    int attempts = 1;
};

HubError errorForAnswer(const HttpReply &reply, const AnswerContext &context);

// A header value for a message: control characters blanked, at most 300 characters.
QString printableHeader(const QByteArray &value);

} // namespace folio::hub
