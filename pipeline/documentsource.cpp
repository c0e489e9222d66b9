#include "pipeline/documentsource.h"

#include "common/regularfile.h"
#include "document/formats/qmsumformat.h"

#include "document/documentjson.h"
#include "document/html/htmlinput.h"
#include "document/html/htmlloader.h"
#include "document/html/mhtml.h"
#include "document/html/savedpage.h"
#include "ocr/ocr.h"
#include "pipeline/ocrlanguage.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QStandardPaths>

namespace folio::pipeline {

namespace {

const qint64 kMaxJsonBytes = qint64(1) << 30; // as readDocumentJsonFile
const qint64 kMaxHtmlBytes = HtmlLoadOptions().maxFileBytes;
const qint64 kHeadBytes = 4096;

const char *const kScanSuffixes[] = {"png", "jpg", "jpeg", "tif", "tiff", "bmp", "pnm", "pbm", "pgm", "ppm"};
const char *const kHtmlSuffixes[] = {"html", "htm", "xhtml"};

bool hasHtmlSuffix(QString path)
{
    if (path.endsWith(QLatin1String(".gz"), Qt::CaseInsensitive))
        path.chop(3);
    const QString suffix = QFileInfo(path).suffix().toLower();
    for (const char *s : kHtmlSuffixes)
        if (suffix == QLatin1String(s))
            return true;
    return false;
}

// Scans and PDFs by their magic numbers.
FileKind binaryKind(const QByteArray &head)
{
    auto u = [&](int i) { return i < head.size() ? quint8(head[i]) : 0u; };
    if (head.startsWith("\x89PNG\r\n\x1a\n") || head.startsWith("\xff\xd8\xff") || head.startsWith(QByteArray("II*\0", 4))
        || head.startsWith(QByteArray("MM\0*", 4)))
        return FileKind::Scan;
    if (head.startsWith("BM") && head.size() >= 18) { // BITMAPFILEHEADER, then a known DIB header size
        const quint32 dib = u(14) | (u(15) << 8) | (u(16) << 16) | (u(17) << 24);
        if (dib == 12 || dib == 40 || dib == 52 || dib == 56 || dib == 64 || dib == 108 || dib == 124)
            return FileKind::Scan;
    }
    if (head.size() >= 3 && head[0] == 'P' && head[1] >= '1' && head[1] <= '6' && QByteArray(" \t\r\n").contains(head[2]))
        return FileKind::Scan; // PNM
    if (head.left(1024).contains("%PDF-"))
        return FileKind::Pdf;
    return FileKind::Unknown;
}

// The first character after a UTF-8 BOM and white space, or 0.
char firstTextChar(const QByteArray &bytes)
{
    int i = bytes.startsWith("\xef\xbb\xbf") ? 3 : 0;
    while (i < bytes.size() && QByteArray(" \t\r\n\f").contains(bytes[i]))
        ++i;
    return i < bytes.size() ? bytes[i] : '\0';
}

bool isGzip(const QByteArray &head)
{
    return head.startsWith("\x1f\x8b");
}

struct Probe
{
    FileSniff sniff;
    QByteArray content; // the whole file when it is JSON, the inflated page when it is gzip, the page of an MHTML file
    QByteArray encoding; // an MHTML page's declared charset ("" when none)
    QStringList warnings;
};

Probe fail(const QString &path, const QString &problem)
{
    Probe p;
    p.sniff.error = path + QStringLiteral(": ") + problem;
    return p;
}

// A parsed JSON object: Folio Document or FUNSD, by its keys.
Probe classifyJson(const QString &path, QByteArray bytes)
{
    QJsonParseError parseError;
    const QJsonDocument json = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return fail(path, QStringLiteral("not valid JSON (byte %1: %2)").arg(parseError.offset).arg(parseError.errorString()));
    if (!json.isObject())
        return fail(path, QStringLiteral("JSON is not an object (neither a Folio Document nor a FUNSD annotation file)"));
    const QJsonObject o = json.object();
    Probe p;
    if (o.contains(QStringLiteral("format"))) {
        const QString format = o.value(QStringLiteral("format")).toString();
        if (format != QLatin1String("folio.document"))
            return fail(path, QStringLiteral("JSON \"format\" is \"%1\", not \"folio.document\"").arg(format));
        p.sniff.kind = FileKind::FolioJson;
    } else if (o.value(QStringLiteral("form")).isArray()) {
        p.sniff.kind = FileKind::FunsdJson;
    } else if (o.value(QStringLiteral("meeting_transcripts")).isArray()) {
        p.sniff.kind = FileKind::Transcript;
    } else {
        return fail(path, QStringLiteral("JSON object is neither a Folio Document (\"format\": \"folio.document\") "
                                         "nor a FUNSD annotation file (a \"form\" array) "
                                         "nor a QMSum meeting (a \"meeting_transcripts\" array)"));
    }
    p.content = std::move(bytes);
    return p;
}

Probe probe(const QString &path, const std::atomic_bool *cancel)
{
    if (std::string notAFile; !pathExists(QFile::encodeName(path).toStdString())) {
        return fail(path, QStringLiteral("no such file"));
    } else if (regularFileSize(QFile::encodeName(path).toStdString(), -1, "this document", &notAFile) < 0) {
        // A FIFO, a device, a folder, a link loop: named, never opened (issue 51).
        Probe bad;
        bad.sniff.error = QFile::decodeName(QByteArray::fromStdString(notAFile));
        return bad;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(path, QStringLiteral("cannot open (%1)").arg(file.errorString()));
    const QByteArray head = file.read(kHeadBytes);
    if (head.isEmpty())
        return fail(path, QStringLiteral("empty file"));
    Probe p;
    p.sniff.kind = binaryKind(head);
    if (p.sniff.kind != FileKind::Unknown)
        return p;
    if (isGzip(head)) {
        if (file.size() > kMaxHtmlBytes)
            return fail(path, QStringLiteral("file is %1, the limit is %2").arg(humanBytes(file.size()), humanBytes(kMaxHtmlBytes)));
        QByteArray inflated;
        QString why;
        if (!gunzipBounded(head + file.readAll(), kMaxHtmlBytes, &inflated, &why))
            return fail(path, why);
        const bool html = firstTextChar(inflated) == '<' || (hasHtmlSuffix(path) && binaryKind(inflated) == FileKind::Unknown);
        if (!html)
            return fail(path, QStringLiteral("the gzip content is not an HTML page (only .html.gz / .htm.gz are opened)"));
        p.sniff.kind = FileKind::Html;
        p.sniff.gzip = true;
        p.content = std::move(inflated);
        return p;
    }
    if (hasMhtmlSuffix(path) || looksLikeMhtml(head)) {
        MhtmlLimits limits;
        limits.maxFileBytes = kMaxHtmlBytes;
        limits.cancel = cancel; // the GUI's Cancel stops a long unpacking between parts
        MhtmlArchive archive = readMhtmlFile(path, limits);
        if (!archive.ok) {
            Probe bad;
            bad.sniff.error = archive.error; // names the file already
            return bad;
        }
        p.sniff.kind = FileKind::Html;
        p.sniff.mhtml = true;
        p.content = std::move(archive.parts[size_t(archive.htmlPart)].body);
        p.encoding = archive.parts[size_t(archive.htmlPart)].charset;
        p.warnings = archive.warnings;
        return p;
    }
    const char first = firstTextChar(head);
    if (first == '{' || first == '[') {
        if (file.size() > kMaxJsonBytes)
            return fail(path, QStringLiteral("file is %1, the limit is %2").arg(humanBytes(file.size()), humanBytes(kMaxJsonBytes)));
        return classifyJson(path, head + file.readAll());
    }
    if (first == '<' || hasHtmlSuffix(path)) {
        p.sniff.kind = FileKind::Html;
        return p;
    }
    return fail(path, QStringLiteral("unsupported file type: the content is neither a scan (PNG, JPEG, TIFF, BMP, PNM), "
                                     "a PDF, an HTML page (.html, .htm, .html.gz, .mht) nor a Folio / FUNSD JSON file"));
}

bool cancelled(const LoadOptions &options)
{
    return options.cancel && options.cancel->load();
}

// loadDocumentFile reports kOcrProgressFrom once the file is sniffed; OCR goes on from there.
constexpr double kOcrProgressFrom = 0.05;

ocr::OcrResult runScanOcr(const QString &path, const LoadOptions &options, const QString &languages,
                          double progressFrom, double progressTo)
{
    ocr::OcrOptions ocrOptions;
    ocrOptions.languages = languages;
    ocrOptions.dpi = options.pdfDpi;
    ocrOptions.workers = options.ocrWorkers;
    if (options.renderPages)
        ocrOptions.renderDir = pageRenderCacheDir(path);
    return ocr::runOcr(path, ocrOptions, [&](int done, int total) {
        if (options.progress && total > 0)
            options.progress(progressFrom + (progressTo - progressFrom) * double(done) / total);
        return !cancelled(options);
    });
}

QStringList wordTexts(const Document &document)
{
    QStringList texts;
    texts.reserve(int(document.words.size()));
    for (const Word &w : document.words)
        texts.push_back(w.text);
    return texts;
}

// "auto": English first; a page that reads German (and `deu` installed) is read again in German.
// Pages taken from a PDF's text layer need no OCR language, so they never cause a second pass.
ocr::OcrResult runAutoLanguageOcr(const QString &path, const LoadOptions &options, QStringList *notes)
{
    const bool germanInstalled = ocr::checkLanguages(QStringLiteral("deu")).isEmpty();
    ocr::OcrResult first = runScanOcr(path, options, QStringLiteral("eng"), kOcrProgressFrom, germanInstalled ? 0.5 : 1.0);
    if (!first.ok || first.cancelled || first.pagesFromTextLayer == int(first.document.pages.size()))
        return first;
    const OcrLanguageGuess guess = guessOcrLanguage(wordTexts(first.document));
    if (guess.language != QLatin1String("deu")) {
        if (options.progress)
            options.progress(1.0);
        return first;
    }
    if (!germanInstalled) {
        notes->push_back(QStringLiteral("the text looks German but Tesseract's German data (deu) is not installed: read in "
                                        "English (install tesseract-ocr-deu)"));
        return first;
    }
    ocr::OcrResult second = runScanOcr(path, options, QStringLiteral("deu"), 0.5, 1.0);
    if (!second.ok || second.cancelled)
        return second.cancelled ? second : first;
    notes->push_back(QStringLiteral("OCR language: German (deu), chosen from the text (%1 % German function words, "
                                    "%2 % English)")
                         .arg(qRound(100 * guess.germanShare))
                         .arg(qRound(100 * guess.englishShare)));
    return second;
}

void loadScan(const QString &path, const LoadOptions &options, LoadedDocument *out)
{
    QStringList notes;
    ocr::OcrResult r = options.ocrLanguages == autoOcrLanguages()
                           ? runAutoLanguageOcr(path, options, &notes)
                           : runScanOcr(path, options, options.ocrLanguages, kOcrProgressFrom, 1.0);
    out->cancelled = r.cancelled;
    out->warnings = r.warnings + notes;
    if (r.cancelled)
        out->error = path + QStringLiteral(": cancelled");
    else if (!r.ok)
        out->error = r.error;
    else
        out->document = std::move(r.document);
}

} // namespace

QString fileKindName(FileKind kind)
{
    switch (kind) {
    case FileKind::Scan: return QStringLiteral("scan");
    case FileKind::Pdf: return QStringLiteral("pdf");
    case FileKind::Html: return QStringLiteral("html");
    case FileKind::FunsdJson: return QStringLiteral("funsd-json");
    case FileKind::FolioJson: return QStringLiteral("folio-json");
    case FileKind::Transcript: return QStringLiteral("transcript");
    case FileKind::Unknown: break;
    }
    return QStringLiteral("unknown");
}

FileSniff sniffDocumentFile(const QString &path)
{
    return probe(path, nullptr).sniff;
}

LoadedDocument loadDocumentFile(const QString &given, const LoadOptions &options)
{
    LoadedDocument out;
    QString folderProblem;
    const QString path = savedWebPageFile(given, &folderProblem); // a folder: the saved page in it
    if (path.isEmpty()) {
        out.error = folderProblem;
        return out;
    }
    Probe p = probe(path, options.cancel);
    out.kind = p.sniff.kind;
    if (p.sniff.kind == FileKind::Unknown) {
        out.error = p.sniff.error;
        out.cancelled = cancelled(options); // an MHTML unpacking stopped by Cancel
        return out;
    }
    if (options.progress)
        options.progress(kOcrProgressFrom);
    QString problem;
    switch (p.sniff.kind) {
    case FileKind::Scan:
    case FileKind::Pdf:
        loadScan(path, options, &out);
        break;
    case FileKind::Html: {
        HtmlLoadOptions htmlOptions;
        htmlOptions.encoding = p.encoding;
        // Inflated (gzip) or unpacked (MHTML) once, in probe().
        HtmlLoadResult r = p.sniff.gzip || p.sniff.mhtml ? loadHtmlBytes(p.content, path, htmlOptions) : loadHtmlFile(path);
        out.warnings = p.warnings + r.warnings;
        if (!r.ok)
            out.error = r.error;
        else
            out.document = std::move(r.document);
        break;
    }
    case FileKind::FunsdJson:
        if (!importFunsdFile(path, options.funsdOrder, &out.document, &out.annotations, &out.error) && out.error.isEmpty())
            out.error = path + QStringLiteral(": cannot import the FUNSD file");
        break;
    case FileKind::FolioJson:
        if (!documentFromJson(p.content, &out.document, &out.annotations, &problem))
            out.error = path + QStringLiteral(": ") + problem;
        break;
    case FileKind::Transcript: {
        std::vector<DatasetItem> meeting; // turns, topics as sections, the queries as its hierarchy
        if (!QmsumFormat().importFile(path, &meeting, &out.error))
            break;
        out.document = std::move(meeting.front().document);
        out.document.sourcePath = path;
        out.annotations = std::move(meeting.front().annotations);
        break;
    }
    case FileKind::Unknown:
        break;
    }
    if (out.error.isEmpty() && cancelled(options)) {
        out.cancelled = true;
        out.error = path + QStringLiteral(": cancelled");
    }
    out.ok = out.error.isEmpty();
    if (!out.ok) {
        out.document = Document();
        out.annotations = Annotations();
    } else if (out.document.sourcePath.isEmpty()) {
        out.document.sourcePath = path;
    }
    if (out.ok && options.progress)
        options.progress(1.0);
    return out;
}

QString documentFileDialogFilter()
{
    QStringList scans, web;
    for (const char *s : kScanSuffixes)
        scans << QStringLiteral("*.") + QLatin1String(s);
    scans << QStringLiteral("*.pdf");
    for (const char *s : kHtmlSuffixes)
        web << QStringLiteral("*.") + QLatin1String(s) << QStringLiteral("*.%1.gz").arg(QLatin1String(s));
    web << QStringLiteral("*.mht") << QStringLiteral("*.mhtml");
    const QStringList json{QStringLiteral("*.json")};
    const QStringList all = scans + web + json;
    return QStringList{QStringLiteral("All documents (%1)").arg(all.join(QLatin1Char(' '))),
                       QStringLiteral("Scans and PDFs (%1)").arg(scans.join(QLatin1Char(' '))),
                       QStringLiteral("Web pages (%1)").arg(web.join(QLatin1Char(' '))),
                       QStringLiteral("Folio or FUNSD JSON (%1)").arg(json.join(QLatin1Char(' ')))}
        .join(QStringLiteral(";;"));
}

bool hasDocumentSuffix(const QString &path)
{
    if (hasHtmlSuffix(path) || hasMhtmlSuffix(path))
        return true;
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("pdf") || suffix == QLatin1String("json"))
        return true;
    for (const char *s : kScanSuffixes)
        if (suffix == QLatin1String(s))
            return true;
    return false;
}

QStringList documentFileSuffixes()
{
    QStringList out{QStringLiteral("pdf"), QStringLiteral("json"), QStringLiteral("mht"), QStringLiteral("mhtml")};
    for (const char *s : kHtmlSuffixes)
        out << QLatin1String(s) << QLatin1String(s) + QStringLiteral(".gz");
    for (const char *s : kScanSuffixes)
        out << QLatin1String(s);
    return out;
}

QString pageRenderCacheDir(const QString &path)
{
    const QFileInfo info(path);
    const QByteArray key = QCryptographicHash::hash(
        (info.absoluteFilePath() + QString::number(info.lastModified().toMSecsSinceEpoch())).toUtf8(),
        QCryptographicHash::Sha1).toHex().left(16);
    QString base = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    if (base.isEmpty())
        base = QDir::tempPath() + QStringLiteral("/folio-cache");
    const QString dir = base + QStringLiteral("/pages/") + QString::fromLatin1(key);
    QDir().mkpath(dir);
    return dir;
}

} // namespace folio::pipeline
