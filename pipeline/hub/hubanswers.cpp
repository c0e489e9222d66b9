#include "pipeline/hub/hubanswers.h"

#include <QRegularExpression>

namespace folio::hub {

QString printableHeader(const QByteArray &value)
{
    QString s = QString::fromUtf8(value.left(300));
    s.replace(QRegularExpression(QStringLiteral("[\\x00-\\x1f\\x7f]")), QStringLiteral(" "));
    return s.trimmed();
}

HubError errorForAnswer(const HttpReply &r, const AnswerContext &c)
{
    const HubSettings &settings = c.settings;
    QString tokenAdvice = QStringLiteral("give a token: set HF_TOKEN, or run `huggingface-cli login` (it writes %1)").arg(settings.tokenFile);
    if (!settings.tokenProblem.isEmpty())
        tokenAdvice += QStringLiteral("; ") + settings.tokenProblem;
    const QString tokenSent = settings.token.isEmpty() ? QStringLiteral("no token was sent")
                                                       : QStringLiteral("the token from %1 was sent").arg(settings.tokenSource);
    const QString where = c.repoId + (c.file.isEmpty() ? QString() : QStringLiteral(": ") + c.file);
    const QString code = printableHeader(r.header("X-Error-Code"));
    const QString hubSays = printableHeader(r.header("X-Error-Message"));
    const QString said = hubSays.isEmpty() ? QString() : QStringLiteral(" (the Hub said: %1)").arg(hubSays);
    const QString page = settings.endpoint + QLatin1Char('/') + c.repoId;
    if (r.status == 0 || (!r.networkError.isEmpty() && r.status < 300))
        return HubError(HubError::Network, QStringLiteral("%1: %2 after %3 attempt(s) (%4)")
                                               .arg(where, r.networkError).arg(c.attempts).arg(c.url.toString()));
    if (code == QLatin1String("GatedRepo") && (r.status == 401 || r.status == 403))
        return HubError(HubError::Gated,
                        r.status == 401 || settings.token.isEmpty()
                            ? QStringLiteral("%1: a gated model (%2): accept its conditions at %3, then %4; %5%6")
                                  .arg(where).arg(r.status).arg(page, tokenAdvice, tokenSent, said)
                            : QStringLiteral("%1: a gated model (403) and %2 has no access to it yet: request access at %3%4")
                                  .arg(where, settings.tokenSource, page, said));
    if (r.status == 401)
        return HubError(HubError::Unauthorized,
                        settings.token.isEmpty()
                            ? QStringLiteral("%1: private or missing (401): the Hub answers 401 for a private repo when no token "
                                             "is given and for a repo that does not exist; check the repo id, and for a private "
                                             "repo %2; no token was sent%3").arg(where, tokenAdvice, said)
                            : QStringLiteral("%1: private or missing (401) and the token from %2 was not accepted (expired, "
                                             "revoked or without access to this repo): check the repo id, or %3%4")
                                  .arg(where, settings.tokenSource, tokenAdvice, said));
    if (r.status == 403)
        return HubError(HubError::Forbidden, QStringLiteral("%1: forbidden (403): %2 does not allow reading this repo (a "
                                                            "fine-grained token needs read access to it); %3%4")
                                                 .arg(where, tokenSent, tokenAdvice, said));
    if (r.status == 404) {
        if (code == QLatin1String("RevisionNotFound"))
            return HubError(HubError::NotFound, QStringLiteral("%1: revision '%2' not found (404): no such branch, tag or commit%3")
                                                    .arg(c.repoId, c.revision, said));
        if (code == QLatin1String("EntryNotFound"))
            return HubError(HubError::NotFound, QStringLiteral("%1: file not found at revision '%2' (404)%3").arg(where, c.revision, said));
        return HubError(HubError::NotFound, QStringLiteral("%1: repo not found (404); check the repo id%2").arg(where, said));
    }
    if (r.status == 429 || r.status >= 500)
        return HubError(HubError::Server, QStringLiteral("%1: the Hub answered %2 %3 time(s) (%4); try again later%5")
                                              .arg(where).arg(r.status).arg(c.attempts).arg(c.url.toString(), said));
    return HubError(HubError::Invalid, QStringLiteral("%1: unexpected HTTP %2 from %3%4").arg(where).arg(r.status).arg(c.url.toString(), said));
}

} // namespace folio::hub
