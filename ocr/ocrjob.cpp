// OcrJob: hands the pages of one file to folio-ocr-worker child processes and merges the results.
#include "document/documentjson.h"
#include "ocr/detail/pageocr.h"
#include "ocr/detail/pdfoutline.h"
#include "ocr/ocr.h"

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QProcess>
#include <QThread>

#include <map>

namespace folio::ocr {

QString workerExecutable(const QString &hint)
{
    QStringList candidates;
    if (!hint.isEmpty())
        candidates << hint;
    const QString env = qEnvironmentVariable("FOLIO_OCR_WORKER");
    if (!env.isEmpty())
        candidates << env;
    if (QCoreApplication::instance())
        candidates << QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("folio-ocr-worker"));
#ifdef FOLIO_OCR_WORKER_BUILD_PATH
    candidates << QStringLiteral(FOLIO_OCR_WORKER_BUILD_PATH);
#endif
    for (const QString &c : candidates) {
        const QFileInfo fi(c);
        if (fi.isFile() && fi.isExecutable())
            return fi.absoluteFilePath();
    }
    return QString();
}

struct Worker
{
    QProcess *process = nullptr;
    QByteArray buffer;
    int page = -1;     // page being OCR'd, -1 when idle
    bool probed = false;
};

struct OcrJob::Impl
{
    OcrJob *q = nullptr;
    QString path;
    OcrOptions options;
    QString executable;
    std::vector<std::unique_ptr<Worker>> workers;
    std::map<int, Document> done;
    std::vector<OutlineEntry> outline; // PDFs: from the probe line
    int pageCount = -1;
    int nextPage = 0;
    int wanted = 0; // pages to OCR (1 for a region)
    bool running = false;
    OcrResult result;
    SourceKind kind = SourceKind::Image;

    QStringList arguments() const
    {
        QStringList a{path, QStringLiteral("--lang"), options.languages, QStringLiteral("--psm"),
                      QString::number(options.psm), QStringLiteral("--dpi"), QString::number(options.dpi),
                      QStringLiteral("--max-pixels"), QString::number(options.maxPixels),
                      QStringLiteral("--max-pages"), QString::number(options.maxPages)};
        if (!options.dataPath.isEmpty())
            a << QStringLiteral("--datapath") << options.dataPath;
        if (!options.usePdfTextLayer)
            a << QStringLiteral("--no-text-layer");
        if (!options.renderDir.isEmpty())
            a << QStringLiteral("--render-dir") << options.renderDir;
        if (options.region.isValid())
            a << QStringLiteral("--region")
              << QStringLiteral("%1,%2,%3,%4").arg(options.region.x()).arg(options.region.y())
                     .arg(options.region.width()).arg(options.region.height());
        return a;
    }

    void spawn()
    {
        auto w = std::make_unique<Worker>();
        w->process = new QProcess(q);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("OMP_THREAD_LIMIT"), QStringLiteral("1")); // see ocr.h: before the process starts
        w->process->setProcessEnvironment(env);
        w->process->setProcessChannelMode(QProcess::SeparateChannels);
        Worker *raw = w.get();
        QObject::connect(w->process, &QProcess::readyReadStandardOutput, q, [this, raw] { readWorker(raw); });
        QObject::connect(w->process, &QProcess::finished, q,
                         [this, raw](int code, QProcess::ExitStatus status) { workerEnded(raw, code, status); });
        QObject::connect(w->process, &QProcess::errorOccurred, q, [this, raw](QProcess::ProcessError e) {
            if (e == QProcess::FailedToStart)
                fail(QStringLiteral("cannot start the OCR worker %1: %2").arg(executable, raw->process->errorString()));
        });
        workers.push_back(std::move(w));
        raw->process->start(executable, arguments());
    }

    void dispatch(Worker *w)
    {
        if (!running || !w->probed || w->page >= 0)
            return;
        if (nextPage < wanted) {
            w->page = options.region.isValid() ? options.regionPage : nextPage;
            ++nextPage;
            w->process->write(QByteArray("page ") + QByteArray::number(w->page) + '\n');
        } else {
            w->process->closeWriteChannel(); // EOF: the worker exits
        }
    }

    void readWorker(Worker *w)
    {
        w->buffer += w->process->readAllStandardOutput();
        int nl;
        while (running && (nl = int(w->buffer.indexOf('\n'))) >= 0) {
            const QByteArray line = w->buffer.left(nl);
            w->buffer.remove(0, nl + 1);
            handleLine(w, line);
        }
    }

    void handleLine(Worker *w, const QByteArray &line)
    {
        QJsonParseError pe;
        const QJsonObject o = QJsonDocument::fromJson(line, &pe).object();
        if (pe.error != QJsonParseError::NoError)
            return; // stray output from a library: ignore
        const QString type = o.value(QStringLiteral("type")).toString();
        if (type == QLatin1String("error")) {
            fail(o.value(QStringLiteral("message")).toString());
            return;
        }
        if (type == QLatin1String("probe")) {
            w->probed = true;
            if (pageCount < 0) {
                pageCount = o.value(QStringLiteral("pages")).toInt();
                kind = o.value(QStringLiteral("format")).toString() == QLatin1String("pdf") ? SourceKind::Pdf
                                                                                          : SourceKind::Image;
                if (options.region.isValid() && (options.regionPage < 0 || options.regionPage >= pageCount)) {
                    fail(QStringLiteral("page %1 does not exist (%2 pages)").arg(options.regionPage + 1).arg(pageCount));
                    return;
                }
                outline = detail::outlineFromJson(o.value(QStringLiteral("outline")).toArray());
                wanted = options.region.isValid() ? 1 : pageCount;
                Q_EMIT q->started(wanted);
                Q_EMIT q->progress(0, wanted);
                int cores = options.workers > 0 ? options.workers : QThread::idealThreadCount();
                const int more = std::max(0, std::min(cores, wanted) - 1);
                for (int i = 0; i < more; ++i)
                    spawn();
            }
            dispatch(w);
            return;
        }
        if (type == QLatin1String("page")) {
            const int page = o.value(QStringLiteral("page")).toInt();
            Document pd;
            QString error;
            const QByteArray json = QJsonDocument(o.value(QStringLiteral("document")).toObject()).toJson(QJsonDocument::Compact);
            if (!documentFromJson(json, &pd, nullptr, &error)) {
                fail(QStringLiteral("page %1: bad result from the OCR worker: %2").arg(page + 1).arg(error));
                return;
            }
            if (o.value(QStringLiteral("textLayer")).toBool())
                ++result.pagesFromTextLayer;
            done[page] = std::move(pd);
            w->page = -1;
            Q_EMIT q->progress(int(done.size()), wanted);
            if (int(done.size()) == wanted) {
                finish();
                return;
            }
            dispatch(w);
        }
    }

    void workerEnded(Worker *w, int code, QProcess::ExitStatus status)
    {
        if (!running)
            return;
        if (status == QProcess::CrashExit || w->page >= 0 || !w->probed) {
            readWorker(w); // a last error line may be waiting
            if (!running)
                return;
            QString what = status == QProcess::CrashExit ? QStringLiteral("crashed") :
                           QStringLiteral("exited with status %1").arg(code);
            QString err = QString::fromLocal8Bit(w->process->readAllStandardError()).trimmed();
            const QStringList lines = err.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            fail(QStringLiteral("the OCR worker %1%2%3").arg(what,
                 w->page >= 0 ? QStringLiteral(" on page %1").arg(w->page + 1) : QString(),
                 lines.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(lines.last().trimmed())));
        }
    }

    void stopWorkers()
    {
        for (auto &w : workers) {
            w->process->disconnect(q);
            if (w->process->state() != QProcess::NotRunning) {
                w->process->kill();
                w->process->waitForFinished(2000);
            }
            w->process->deleteLater();
        }
        workers.clear();
    }

    void fail(const QString &message)
    {
        if (!running)
            return;
        running = false;
        stopWorkers();
        result.ok = false;
        result.error = QStringLiteral("%1: %2").arg(path, message);
        Q_EMIT q->finished(result);
    }

    void finish()
    {
        running = false;
        for (auto &w : workers)
            w->process->closeWriteChannel();
        // Workers exit on EOF; give them a moment, then make sure none lingers.
        for (auto &w : workers) {
            w->process->disconnect(q);
            if (!w->process->waitForFinished(1000))
                w->process->kill();
            w->process->deleteLater();
        }
        workers.clear();
        std::vector<Document> pages;
        for (auto &kv : done)
            pages.push_back(std::move(kv.second));
        done.clear();
        result.document = detail::mergePages(std::move(pages), path, kind);
        if (options.region.isValid())
            result.document.pages.resize(size_t(std::max(0, pageCount)));
        else if (!outline.empty())
            buildOutlineSections(&result.document, outline);
        else
            buildLayoutSections(&result.document);
        if (result.pagesFromTextLayer > 0)
            result.warnings << QStringLiteral("%1 page(s) taken from the PDF text layer (no OCR)")
                                   .arg(result.pagesFromTextLayer);
        result.ok = true;
        Q_EMIT q->finished(result);
    }
};

OcrJob::OcrJob(QObject *parent) : QObject(parent), m_impl(std::make_unique<Impl>())
{
    m_impl->q = this;
}

OcrJob::~OcrJob()
{
    m_impl->running = false;
    m_impl->stopWorkers();
}

bool OcrJob::isRunning() const { return m_impl->running; }
const OcrResult &OcrJob::result() const { return m_impl->result; }

void OcrJob::start(const QString &path, const OcrOptions &options)
{
    if (m_impl->running)
        cancel();
    m_impl->path = path;
    m_impl->options = options;
    m_impl->done.clear();
    m_impl->pageCount = -1;
    m_impl->nextPage = 0;
    m_impl->wanted = 0;
    m_impl->result = OcrResult();
    m_impl->running = true;
    // Cheap checks in this process (no decoding): the rest happens in the worker.
    const QFileInfo fi(path);
    if (!fi.exists()) {
        m_impl->fail(QStringLiteral("no such file"));
        return;
    }
    if (fi.isFile() && fi.size() == 0) {
        m_impl->fail(QStringLiteral("the file is empty (0 bytes)"));
        return;
    }
    if (options.dpi < 30 || options.dpi > 1200) {
        m_impl->fail(QStringLiteral("--dpi %1 is out of range (30..1200)").arg(options.dpi));
        return;
    }
    if (options.psm < 0 || options.psm > 13) {
        m_impl->fail(QStringLiteral("page segmentation mode %1 is out of range (0..13)").arg(options.psm));
        return;
    }
    m_impl->executable = workerExecutable(options.workerPath);
    if (m_impl->executable.isEmpty()) {
        m_impl->fail(QStringLiteral("the OCR worker executable folio-ocr-worker was not found "
                               "(set FOLIO_OCR_WORKER or install it next to %1)")
                    .arg(QCoreApplication::applicationFilePath()));
        return;
    }
    m_impl->spawn();
}

void OcrJob::cancel()
{
    if (!m_impl->running)
        return;
    m_impl->running = false;
    m_impl->stopWorkers();
    m_impl->result = OcrResult();
    m_impl->result.cancelled = true;
    m_impl->result.error = QStringLiteral("%1: cancelled").arg(m_impl->path);
    Q_EMIT finished(m_impl->result);
}

OcrResult runOcr(const QString &path, const OcrOptions &options, const std::function<bool(int, int)> &progress)
{
    OcrJob job;
    QEventLoop loop;
    bool finished = false;
    QObject::connect(&job, &OcrJob::finished, &loop, [&] {
        finished = true;
        loop.quit();
    });
    if (progress)
        QObject::connect(&job, &OcrJob::progress, &loop, [&](int doneCount, int total) {
            if (!progress(doneCount, total))
                job.cancel();
        });
    job.start(path, options);
    if (!finished)
        loop.exec();
    return job.result();
}

} // namespace folio::ocr
