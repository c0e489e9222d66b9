#pragma once
// The Hub-shaped HTTP server the hub tests start on 127.0.0.1 (tests/pipeline/hubserver.py run by
// /usr/bin/python3; no test reaches the internet). The test writes its configuration (repos, files,
// tokens, faults) with setConfig(); the server reads it again on every request whose file changed.
// Header-only; needs FOLIO_SOURCE_DIR.

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

namespace folio::test {

class HubTestServer
{
public:
    ~HubTestServer() { stop(); }

    // Starts the server; false with *why when it cannot (no python3, the script failing).
    bool start(const QJsonObject &config, QString *why)
    {
        if (!m_dir.isValid()) {
            *why = QStringLiteral("no temporary folder");
            return false;
        }
        setConfig(config);
        m_process.setProgram(QStringLiteral("/usr/bin/python3"));
        m_process.setArguments({QStringLiteral(FOLIO_SOURCE_DIR "/tests/pipeline/hubserver.py"), configPath()});
        m_process.setProcessChannelMode(QProcess::SeparateChannels);
        m_process.start();
        if (!m_process.waitForStarted(10000)) {
            *why = QStringLiteral("cannot start /usr/bin/python3: ") + m_process.errorString();
            return false;
        }
        QByteArray line;
        while (!line.contains('\n') && m_process.waitForReadyRead(10000))
            line += m_process.readAllStandardOutput();
        if (!line.startsWith("PORT ")) {
            *why = QStringLiteral("hubserver.py did not start: ") + QString::fromUtf8(line + m_process.readAllStandardError());
            return false;
        }
        m_port = line.mid(5).trimmed().toInt();
        return m_port > 0;
    }

    void stop()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();
            if (!m_process.waitForFinished(3000)) {
                m_process.kill();
                m_process.waitForFinished(3000);
            }
        }
    }

    // The configuration as hubserver.py documents it; "log" is added (requestLog() reads it).
    void setConfig(QJsonObject config)
    {
        config[QStringLiteral("log")] = logPath();
        QFile f(configPath());
        if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            f.write(QJsonDocument(config).toJson());
    }

    QString endpoint() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_port); }
    QString configPath() const { return m_dir.filePath(QStringLiteral("hub.json")); }
    QString logPath() const { return m_dir.filePath(QStringLiteral("requests.log")); }
    // One line per request so far: "METHOD PATH RANGE AUTH" (RANGE and AUTH "-" when absent).
    QStringList requestLog() const
    {
        QFile f(logPath());
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    }
    void clearLog() const { QFile::remove(logPath()); }

private:
    QTemporaryDir m_dir;
    QProcess m_process;
    int m_port = 0;
};

// A repo entry for the server: the files (name -> source path) at `commit`, with refs/main.
inline QJsonObject hubRepo(const QString &commit, const QJsonObject &files)
{
    return QJsonObject{{QStringLiteral("sha"), commit},
                       {QStringLiteral("refs"), QJsonObject{{QStringLiteral("main"), commit}}},
                       {QStringLiteral("files"), files}};
}

// The tiny LayoutLMv3 token classifier of the parity fixtures (a Hugging Face folder: config,
// safetensors weights, byte-level BPE tokenizer files) as a repo's files.
inline QJsonObject tinyLayoutLMv3Files(const QString &checkpointDir)
{
    QJsonObject files;
    for (const QString &name : QDir(checkpointDir).entryList(QDir::Files))
        files[name] = QDir(checkpointDir).filePath(name);
    return files;
}

} // namespace folio::test
