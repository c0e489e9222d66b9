// folio-cli dom PAGE [--render]: a web page as a Folio Document (JSON on stdout).
// Without --render: the libxml2 HTML loader only (no boxes). With --render: the page is rendered
// offline by the folio-websnapshot helper (a child process, so this CLI needs no display and no
// WebEngine) and its node/word boxes are merged in (page size = the page's scroll size).
// An MHTML archive (.mht / .mhtml, or a MIME header naming a multipart) is unpacked first and its
// page loaded, as every other path that opens documents does (pipeline/documentsource).
#include "app/cli/commands.h"
#include "document/documentjson.h"
#include "document/html/domsnapshot.h"
#include "document/html/htmlloader.h"
#include "document/html/mhtml.h"

#include <CLI/CLI.hpp>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QProcess>

#include <cstdio>

namespace folio::cli {

static QString snapshotHelper()
{
    const QString env = qEnvironmentVariable("FOLIO_WEBSNAPSHOT");
    if (!env.isEmpty())
        return env;
    return QCoreApplication::applicationDirPath() + QStringLiteral("/folio-websnapshot");
}

// The page as the loader sees it: an MHTML archive's HTML part (its charset unless --encoding
// forces one), any other file as it is.
static HtmlLoadResult loadPage(const QString &page, HtmlLoadOptions options)
{
    QByteArray head;
    {
        QFile f(page);
        if (QFileInfo(page).isFile() && f.open(QIODevice::ReadOnly))
            head = f.read(8192);
    }
    if (!hasMhtmlSuffix(page) && !looksLikeMhtml(head))
        return loadHtmlFile(page, options);
    MhtmlLimits limits;
    limits.maxFileBytes = options.maxFileBytes;
    MhtmlArchive archive = readMhtmlFile(page, limits);
    if (!archive.ok) {
        HtmlLoadResult failed;
        failed.error = archive.error; // names the file
        return failed;
    }
    MhtmlPart &html = archive.parts[size_t(archive.htmlPart)];
    if (options.encoding.isEmpty())
        options.encoding = html.charset;
    const QByteArray body = std::move(html.body);
    const QStringList notes = archive.warnings;
    archive = MhtmlArchive(); // the other parts are not needed
    HtmlLoadResult result = loadHtmlBytes(body, page, options);
    result.warnings = notes + result.warnings;
    return result;
}

static DomSnapshot renderSnapshot(const QString &page, bool scripts, int width, int timeoutS)
{
    const QString helper = snapshotHelper();
    if (!QFileInfo(helper).isExecutable())
        throw CliError(QStringLiteral("%1: --render needs the folio-websnapshot helper, not found at %2 "
                                      "(build with FOLIO_BUILD_GUI=ON or set FOLIO_WEBSNAPSHOT)")
                           .arg(page, helper).toStdString());
    QStringList args{page, QStringLiteral("--width"), QString::number(width), QStringLiteral("--timeout"), QString::number(timeoutS)};
    if (scripts)
        args << QStringLiteral("--scripts");
    QProcess proc;
    proc.setProcessChannelMode(QProcess::SeparateChannels);
    proc.start(helper, args);
    if (!proc.waitForStarted(10000))
        throw CliError(QStringLiteral("%1: cannot start %2 (%3)").arg(page, helper, proc.errorString()).toStdString());
    if (!proc.waitForFinished((timeoutS + 30) * 1000)) {
        proc.kill();
        proc.waitForFinished(5000);
        throw CliError(QStringLiteral("%1: rendering timed out").arg(page).toStdString());
    }
    if (proc.exitStatus() != QProcess::NormalExit || proc.exitCode() != 0) {
        const QString err = QString::fromUtf8(proc.readAllStandardError()).trimmed();
        throw CliError(QStringLiteral("%1: rendering failed: %2").arg(page, err.isEmpty() ? QStringLiteral("renderer crashed") : err.right(500)).toStdString());
    }
    DomSnapshot snapshot;
    QString error;
    if (!parseDomSnapshotJson(proc.readAllStandardOutput(), &snapshot, &error))
        throw CliError(QStringLiteral("%1: %2").arg(page, error).toStdString());
    return snapshot;
}

void registerDomCommand(CLI::App &app)
{
    auto *cmd = app.add_subcommand("dom", "A web page (.html/.htm/.xhtml, or .gz) as a Folio Document JSON: DOM nodes with XPaths, words, sections");
    struct Options { std::string path; bool render = false; bool scripts = false; bool compact = false; int width = 1280; int timeout = 60; std::string encoding; };
    auto o = std::make_shared<Options>();
    cmd->add_option("PAGE", o->path, "Saved web page")->required();
    cmd->add_flag("--render", o->render, "Render offline (QtWebEngine helper) and add node/word boxes");
    cmd->add_flag("--scripts", o->scripts, "With --render: let the page run its own JavaScript (network stays blocked)");
    cmd->add_option("--width", o->width, "With --render: viewport width in CSS px")->check(CLI::Range(320, 8192));
    cmd->add_option("--timeout", o->timeout, "With --render: seconds to wait for the page")->check(CLI::Range(1, 3600));
    cmd->add_option("--encoding", o->encoding, "Force a charset instead of detecting it");
    cmd->add_flag("--compact", o->compact, "One line instead of indented JSON");
    cmd->callback([o] {
        const QString page = inputPath(o->path);
        HtmlLoadOptions options;
        options.encoding = QByteArray::fromStdString(o->encoding);
        HtmlLoadResult result = loadPage(page, options);
        if (!result.ok)
            throw CliError(result.error.toStdString());
        if (!quiet())
            for (const QString &w : result.warnings)
                std::fprintf(stderr, "folio-cli: warning: %s\n", qPrintable(w));
        if (o->render) {
            const DomSnapshot snapshot = renderSnapshot(page, o->scripts, o->width, o->timeout);
            const SnapshotMergeStats s = mergeDomSnapshot(&result.document, snapshot);
            if (!quiet())
                std::fprintf(stderr, "folio-cli: dom: %d nodes boxed by XPath, %d by text, %d unmatched; %d words boxed; "
                                     "%d requests blocked\n",
                             s.nodesMatchedByXPath, s.textNodesMatchedByText, s.nodesUnmatched, s.wordsBoxed,
                             snapshot.blockedRequests);
        }
        // Streamed one node / word at a time: no second, JSON-shaped copy of a large page.
        QFile out;
        if (!out.open(stdout, QIODevice::WriteOnly) || !writeDocumentJson(&out, result.document, nullptr, !o->compact))
            throw CliError(o->path + ": cannot write the Document JSON to stdout");
        if (o->compact)
            out.write("\n");
        out.flush();
    });
}

} // namespace folio::cli
