#include "pipeline/hub/hubsettings.h"

#include <QDir>
#include <QFile>

namespace folio::hub {

namespace {

QString env(const char *name)
{
    return qEnvironmentVariable(name).trimmed();
}

QString expandHome(const QString &path)
{
    if (path == QLatin1String("~"))
        return QDir::homePath();
    if (path.startsWith(QLatin1String("~/")))
        return QDir::homePath() + path.mid(1);
    return path;
}

} // namespace

HubSettings HubSettings::fromEnvironment()
{
    HubSettings s;
    s.endpoint = env("HF_ENDPOINT");
    if (s.endpoint.isEmpty())
        s.endpoint = QStringLiteral("https://huggingface.co");
    while (s.endpoint.endsWith(QLatin1Char('/')))
        s.endpoint.chop(1);

    const QString xdg = env("XDG_CACHE_HOME");
    QString home = env("HF_HOME");
    if (home.isEmpty())
        home = (xdg.isEmpty() ? QDir::homePath() + QStringLiteral("/.cache") : expandHome(xdg)) + QStringLiteral("/huggingface");
    home = expandHome(home);
    s.cacheDir = env("HF_HUB_CACHE");
    if (s.cacheDir.isEmpty())
        s.cacheDir = env("HUGGINGFACE_HUB_CACHE");
    s.cacheDir = s.cacheDir.isEmpty() ? home + QStringLiteral("/hub") : expandHome(s.cacheDir);

    s.tokenFile = env("HF_TOKEN_PATH");
    s.tokenFile = s.tokenFile.isEmpty() ? home + QStringLiteral("/token") : expandHome(s.tokenFile);
    for (const char *name : {"HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"}) {
        if (!env(name).isEmpty()) {
            s.token = env(name);
            s.tokenSource = QString::fromLatin1(name);
            break;
        }
    }
    if (s.token.isEmpty()) {
        QFile f(s.tokenFile);
        if (f.size() <= 4096 && f.open(QIODevice::ReadOnly)) {
            s.token = QString::fromUtf8(f.readAll()).trimmed();
            if (!s.token.isEmpty())
                s.tokenSource = s.tokenFile;
        }
    }
    // A token with a line break or control character would split the Authorization header.
    for (const QChar c : std::as_const(s.token)) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f) {
            s.tokenProblem = s.tokenSource + QStringLiteral(": the token holds a control character; not sent");
            s.token.clear();
            s.tokenSource.clear();
            break;
        }
    }

    const QString offline = env("HF_HUB_OFFLINE").toUpper();
    s.offline = offline == QLatin1String("1") || offline == QLatin1String("ON") || offline == QLatin1String("YES")
                || offline == QLatin1String("TRUE");
    return s;
}

} // namespace folio::hub
