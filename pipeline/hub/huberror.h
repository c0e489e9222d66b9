#pragma once
// The one error the Hub client throws: a message for people (it names the repo, file or URL and
// what to do) and a kind callers can act on (the GUI offers a token for Unauthorized / Gated).

#include <QString>

#include <stdexcept>

namespace folio::hub {

class HubError : public std::runtime_error
{
public:
    enum Kind {
        Invalid,      // a repo id, revision, pattern or answer that is not acceptable
        Unauthorized, // 401: private (or absent) repo and no accepted token
        Gated,        // 401/403 with X-Error-Code GatedRepo
        Forbidden,    // 403 otherwise (a token without read access)
        NotFound,     // 404: repo, revision or file
        Server,       // 5xx (or 429) after the retries
        Network,      // no answer (connection refused, dropped, timed out) after the retries
        Integrity,    // size or sha256 differs from the headers
        Offline,      // HF_HUB_OFFLINE=1 and not in the cache
        NoModel,      // the repo holds no model Folio can run
        Disk,         // the cache cannot be written
        Cancelled,
    };
    HubError(Kind kind, const QString &message) : std::runtime_error(message.toStdString()), m_kind(kind) {}
    Kind kind() const { return m_kind; }
    QString message() const { return QString::fromStdString(what()); }

private:
    Kind m_kind;
};

} // namespace folio::hub
