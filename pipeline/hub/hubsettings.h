#pragma once
// Where the Hub is and where its cache lives, read from the variables huggingface_hub reads, so
// that Folio and Python share one cache and one login:
//   HF_ENDPOINT (default https://huggingface.co), HF_HUB_CACHE (or HUGGINGFACE_HUB_CACHE), else
//   $HF_HOME/hub, HF_HOME defaulting to $XDG_CACHE_HOME/huggingface or ~/.cache/huggingface;
//   the token from HF_TOKEN (or HUGGING_FACE_HUB_TOKEN), else the file `huggingface-cli login`
//   writes ($HF_TOKEN_PATH, default $HF_HOME/token); HF_HUB_OFFLINE=1 (1/ON/YES/TRUE) answers from
//   the cache only.

#include <QString>

namespace folio::hub {

struct HubSettings
{
    QString endpoint;    // no trailing '/'
    QString cacheDir;    // the hub cache root (models--ORG--NAME folders)
    QString token;       // empty when none
    QString tokenSource; // "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN" or the token file's path; empty when none
    QString tokenFile;   // where `huggingface-cli login` writes the token (named in messages)
    QString tokenProblem; // a token refused before use (control characters), named in 401 messages
    bool offline = false;
    // Retries of 5xx / 429 answers and broken connections: attempts in all, first wait (doubled each
    // time, at most 8 s). huggingface_hub's own backoff: 5 retries from 1 s.
    int maxAttempts = 5;
    int retryBaseMs = 500;
    int timeoutMs = 30000; // a connection that sends nothing for this long is dropped (then retried)

    static HubSettings fromEnvironment();
};

} // namespace folio::hub
