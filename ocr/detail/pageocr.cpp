// In-process probing and OCR of one page. Tesseract/Leptonica/Poppler live only in this file.
#include "ocr/detail/pageocr.h"

#include <leptonica/allheaders.h>
#include <poppler/qt6/poppler-qt6.h>
#include <tesseract/baseapi.h>
#include <tesseract/resultiterator.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace folio::ocr::detail {

// ---- RAII for the C resources ----------------------------------------------------------------
struct PixDeleter
{
    void operator()(Pix *pix) const { pixDestroy(&pix); }
};
using PixPtr = std::unique_ptr<Pix, PixDeleter>;

struct TessDeleter
{
    void operator()(tesseract::TessBaseAPI *api) const
    {
        api->End();
        delete api;
    }
};
using TessPtr = std::unique_ptr<tesseract::TessBaseAPI, TessDeleter>;

struct TessTextDeleter // strings from Tesseract "must be freed with the delete [] operator"
{
    void operator()(char *text) const { delete[] text; }
};
using TessText = std::unique_ptr<char, TessTextDeleter>;

struct FileCloser
{
    void operator()(FILE *f) const { std::fclose(f); }
};

// ---- probing ------------------------------------------------------------------------------------
InputFormat sniffFormat(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot open: %1").arg(f.errorString());
        return InputFormat::Unknown;
    }
    if (f.size() == 0) {
        *error = QStringLiteral("the file is empty (0 bytes)");
        return InputFormat::Unknown;
    }
    const QByteArray head = f.read(1024);
    if (head.startsWith("\x89PNG\r\n\x1a\n"))
        return InputFormat::Png;
    if (head.startsWith("\xff\xd8\xff"))
        return InputFormat::Jpeg;
    if (head.startsWith(QByteArray("II*\0", 4)) || head.startsWith(QByteArray("MM\0*", 4)))
        return InputFormat::Tiff;
    if (head.contains("%PDF-"))
        return InputFormat::Pdf;
    *error = head.size() < 8 ? QStringLiteral("the file is too short to be an image or PDF (%1 bytes)").arg(head.size())
                             : QStringLiteral("unsupported format (expected PNG, JPEG, TIFF or PDF)");
    return InputFormat::Unknown;
}

static bool checkPixels(int page, qint64 w, qint64 h, const OcrOptions &options, QString *error)
{
    if (w <= 0 || h <= 0) {
        *error = QStringLiteral("page %1 has an invalid size %2x%3").arg(page + 1).arg(w).arg(h);
        return false;
    }
    if (w * h > options.maxPixels || w > 1'000'000 || h > 1'000'000) {
        *error = QStringLiteral("page %1 is %2x%3 pixels, over the limit of %4 pixels "
                                "(refused before decoding: possible decompression bomb)")
                     .arg(page + 1).arg(w).arg(h).arg(options.maxPixels);
        return false;
    }
    return true;
}

static std::unique_ptr<Poppler::Document> openPdf(const QString &path, QString *error)
{
    std::unique_ptr<Poppler::Document> doc = Poppler::Document::load(path);
    if (!doc) {
        *error = QStringLiteral("damaged or unreadable PDF");
        return nullptr;
    }
    if (doc->isLocked()) {
        *error = QStringLiteral("the PDF is encrypted (password protected)");
        return nullptr;
    }
    if (doc->numPages() <= 0) {
        *error = QStringLiteral("damaged PDF: no pages could be read");
        return nullptr;
    }
    return doc;
}

static QSize pdfPagePixels(const QSizeF &points, int dpi)
{
    return QSize(int(std::ceil(points.width() * dpi / 72.0)), int(std::ceil(points.height() * dpi / 72.0)));
}

bool probeInput(const QString &path, const OcrOptions &options, InputInfo *info, QString *error)
{
    *info = InputInfo();
    if (!QFileInfo::exists(path)) {
        *error = QStringLiteral("no such file");
        return false;
    }
    info->format = sniffFormat(path, error);
    const QByteArray native = QFile::encodeName(path);
    switch (info->format) {
    case InputFormat::Unknown:
        return false;
    case InputFormat::Png:
    case InputFormat::Jpeg: {
        l_int32 format = 0, w = 0, h = 0, bps = 0, spp = 0, cmap = 0;
        if (pixReadHeader(native.constData(), &format, &w, &h, &bps, &spp, &cmap) != 0) {
            *error = QStringLiteral("corrupt %1 header").arg(info->format == InputFormat::Png ? "PNG" : "JPEG");
            return false;
        }
        if (!checkPixels(0, w, h, options, error))
            return false;
        info->pageCount = 1;
        info->pageSizes.push_back(QSize(w, h));
        return true;
    }
    case InputFormat::Tiff: {
        std::unique_ptr<FILE, FileCloser> fp(std::fopen(native.constData(), "rb"));
        l_int32 n = 0;
        if (!fp || tiffGetCount(fp.get(), &n) != 0 || n <= 0) {
            *error = QStringLiteral("corrupt TIFF: cannot read its page directory");
            return false;
        }
        if (n > options.maxPages) {
            *error = QStringLiteral("the TIFF has %1 pages, over the limit of %2").arg(n).arg(options.maxPages);
            return false;
        }
        for (int i = 0; i < n; ++i) {
            l_int32 w = 0, h = 0, bps = 0, spp = 0, res = 0, cmap = 0, format = 0;
            if (readHeaderTiff(native.constData(), i, &w, &h, &bps, &spp, &res, &cmap, &format) != 0) {
                *error = QStringLiteral("corrupt TIFF: cannot read the header of page %1").arg(i + 1);
                return false;
            }
            if (!checkPixels(i, w, h, options, error))
                return false;
            info->pageSizes.push_back(QSize(w, h));
        }
        info->pageCount = n;
        return true;
    }
    case InputFormat::Pdf: {
        std::unique_ptr<Poppler::Document> doc = openPdf(path, error);
        if (!doc)
            return false;
        const int n = doc->numPages();
        if (n > options.maxPages) {
            *error = QStringLiteral("the PDF has %1 pages, over the limit of %2").arg(n).arg(options.maxPages);
            return false;
        }
        for (int i = 0; i < n; ++i) {
            std::unique_ptr<Poppler::Page> page = doc->page(i);
            if (!page) {
                *error = QStringLiteral("damaged PDF: page %1 cannot be read").arg(i + 1);
                return false;
            }
            const QSize px = pdfPagePixels(page->pageSizeF(), options.dpi);
            if (!checkPixels(i, px.width(), px.height(), options, error)) {
                error->append(QStringLiteral(" at %1 dpi; try a lower --dpi").arg(options.dpi));
                return false;
            }
            info->pageSizes.push_back(px);
        }
        info->pageCount = n;
        return true;
    }
    }
    return false;
}

// ---- installed languages ----------------------------------------------------------------------
static QString resolveDataDir(const QString &dataPath)
{
    auto hasData = [](const QString &dir) {
        return !dir.isEmpty() && !QDir(dir).entryList({QStringLiteral("*.traineddata")}, QDir::Files).isEmpty();
    };
    if (!dataPath.isEmpty())
        return dataPath;
    const QString prefix = qEnvironmentVariable("TESSDATA_PREFIX");
    if (!prefix.isEmpty()) {
        if (hasData(prefix))
            return prefix;
        if (hasData(prefix + QStringLiteral("/tessdata")))
            return prefix + QStringLiteral("/tessdata");
        return prefix;
    }
    for (const char *dir : {"/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata",
                            "/usr/share/tessdata", "/usr/local/share/tessdata"})
        if (hasData(QString::fromLatin1(dir)))
            return QString::fromLatin1(dir);
    return QStringLiteral("/usr/share/tesseract-ocr/5/tessdata");
}

} // namespace folio::ocr::detail

namespace folio::ocr {

QStringList installedLanguages(const QString &dataPath, QString *resolvedDir)
{
    const QString dir = detail::resolveDataDir(dataPath);
    if (resolvedDir)
        *resolvedDir = dir;
    QStringList langs;
    for (const QString &file : QDir(dir).entryList({QStringLiteral("*.traineddata")}, QDir::Files, QDir::Name))
        langs << file.chopped(int(qstrlen(".traineddata")));
    return langs;
}

QString checkLanguages(const QString &languages, const QString &dataPath)
{
    QString dir;
    const QStringList installed = installedLanguages(dataPath, &dir);
    QStringList missing;
    const QStringList wanted = languages.split(QLatin1Char('+'), Qt::SkipEmptyParts);
    if (wanted.isEmpty())
        return QStringLiteral("no OCR language given (installed in %1: %2)")
            .arg(dir, installed.isEmpty() ? QStringLiteral("none") : installed.join(QStringLiteral(", ")));
    for (const QString &lang : wanted)
        if (!installed.contains(lang))
            missing << lang;
    if (missing.isEmpty())
        return QString();
    return QStringLiteral("OCR language pack%1 not installed: %2 (installed in %3: %4; on Debian install "
                          "tesseract-ocr-<lang>)")
        .arg(missing.size() > 1 ? "s" : "", missing.join(QStringLiteral(", ")), dir,
             installed.isEmpty() ? QStringLiteral("none") : installed.join(QStringLiteral(", ")));
}

} // namespace folio::ocr

namespace folio::ocr::detail {

// ---- page recognition ---------------------------------------------------------------------------
struct PageRecognizer::Impl
{
    TessPtr api;
    OcrOptions options;
};

PageRecognizer::PageRecognizer() : m_impl(std::make_unique<Impl>()) {}
PageRecognizer::~PageRecognizer() = default;

bool PageRecognizer::isInitialised() const { return bool(m_impl->api); }

bool PageRecognizer::init(const OcrOptions &options, QString *error)
{
    m_impl->api.reset();
    m_impl->options = options;
    if (options.psm < 0 || options.psm > 13) {
        *error = QStringLiteral("page segmentation mode %1 is out of range (0..13)").arg(options.psm);
        return false;
    }
    const QString langError = checkLanguages(options.languages, options.dataPath);
    if (!langError.isEmpty()) {
        *error = langError;
        return false;
    }
    TessPtr api(new tesseract::TessBaseAPI);
    const QByteArray dataPath = QFile::encodeName(options.dataPath);
    const QByteArray lang = options.languages.toUtf8();
    if (api->Init(options.dataPath.isEmpty() ? nullptr : dataPath.constData(), lang.constData(),
                  tesseract::OEM_DEFAULT) != 0) {
        QString dir;
        const QStringList installed = installedLanguages(options.dataPath, &dir);
        *error = QStringLiteral("Tesseract could not load language '%1' from %2 (installed: %3)")
                     .arg(options.languages, dir, installed.join(QStringLiteral(", ")));
        return false;
    }
    api->SetPageSegMode(static_cast<tesseract::PageSegMode>(options.psm));
    m_impl->api = std::move(api);
    return true;
}

static PixPtr pixFromImage(const QImage &image, int dpi)
{
    const QImage grey = image.convertToFormat(QImage::Format_Grayscale8);
    PixPtr pix(pixCreate(grey.width(), grey.height(), 8));
    if (!pix)
        return pix;
    l_uint32 *data = pixGetData(pix.get());
    const l_int32 wpl = pixGetWpl(pix.get());
    for (int y = 0; y < grey.height(); ++y) {
        const uchar *src = grey.constScanLine(y);
        l_uint32 *line = data + y * wpl;
        for (int x = 0; x < grey.width(); ++x)
            SET_DATA_BYTE(line, x, src[x]);
    }
    pixSetResolution(pix.get(), dpi, dpi);
    return pix;
}

static QString pageId(int page) { return QStringLiteral("p%1").arg(page); }

// A fresh one-page Document: root + page node. Returns the page node index.
static int startPageDocument(Document *out, const QString &path, SourceKind kind, int page, const QSize &size,
                             double dpi, const QString &imagePath)
{
    *out = Document();
    out->sourcePath = path;
    out->kind = kind;
    Page p;
    p.size = QSizeF(size);
    p.dpi = dpi;
    p.imagePath = imagePath;
    // Only the page at `page` matters; earlier slots are placeholders removed by mergePages.
    out->pages.resize(size_t(page) + 1);
    for (Page &placeholder : out->pages)
        placeholder.size = QSizeF(0, 0);
    out->pages[size_t(page)] = p;
    Node root;
    root.id = QStringLiteral("root");
    root.kind = NodeKind::Root;
    out->nodes.push_back(root);
    Node pn;
    pn.id = pageId(page);
    pn.kind = NodeKind::Page;
    pn.page = page;
    pn.box = QRectF(QPointF(0, 0), QSizeF(size));
    return out->addNode(pn, 0);
}

static int addOcrNode(Document *doc, int parent, NodeKind kind, const QString &id, int page, const QRectF &box,
                      double confidence)
{
    Node n;
    n.id = id;
    n.kind = kind;
    n.page = page;
    n.box = box;
    n.confidence = confidence;
    return doc->addNode(n, parent);
}

static void finishLineTexts(Document *doc)
{
    for (Node &n : doc->nodes) {
        if (n.kind != NodeKind::Line)
            continue;
        QStringList parts;
        for (int c : n.children)
            parts << doc->nodes[size_t(c)].text;
        n.text = parts.join(QLatin1Char(' '));
    }
}

// Walks the result exactly as TessBaseAPI::GetTSVText does, so our TSV equals `tesseract ... tsv`.
static void collectTesseract(tesseract::TessBaseAPI *api, Document *doc, int pageNode, int page, QPoint offset)
{
    using tesseract::RIL_BLOCK;
    using tesseract::RIL_PARA;
    using tesseract::RIL_SYMBOL;
    using tesseract::RIL_TEXTLINE;
    using tesseract::RIL_WORD;
    const std::unique_ptr<tesseract::ResultIterator> it(api->GetIterator()); // "must be deleted after use"
    if (!it)
        return;
    auto box = [&](tesseract::PageIteratorLevel level) {
        int l = 0, t = 0, r = 0, b = 0;
        it->BoundingBox(level, &l, &t, &r, &b);
        return QRectF(l + offset.x(), t + offset.y(), r - l, b - t);
    };
    int blockNode = -1, parNode = -1, lineNode = -1;
    int blockNo = -1, parNo = -1, lineNo = -1, wordNo = -1;
    const QString pid = pageId(page);
    while (!it->Empty(RIL_BLOCK)) {
        if (it->Empty(RIL_WORD)) {
            it->Next(RIL_WORD);
            continue;
        }
        if (it->IsAtBeginningOf(RIL_BLOCK) || blockNode < 0) {
            ++blockNo;
            parNo = lineNo = wordNo = -1;
            parNode = lineNode = -1;
            blockNode = addOcrNode(doc, pageNode, NodeKind::Block, pid + QStringLiteral("/b%1").arg(blockNo), page,
                                   box(RIL_BLOCK), it->Confidence(RIL_BLOCK));
        }
        if (it->IsAtBeginningOf(RIL_PARA) || parNode < 0) {
            ++parNo;
            lineNo = wordNo = -1;
            lineNode = -1;
            parNode = addOcrNode(doc, blockNode, NodeKind::Paragraph,
                                 doc->nodes[size_t(blockNode)].id + QStringLiteral("/par%1").arg(parNo), page,
                                 box(RIL_PARA), it->Confidence(RIL_PARA));
        }
        if (it->IsAtBeginningOf(RIL_TEXTLINE) || lineNode < 0) {
            ++lineNo;
            wordNo = -1;
            lineNode = addOcrNode(doc, parNode, NodeKind::Line,
                                  doc->nodes[size_t(parNode)].id + QStringLiteral("/l%1").arg(lineNo), page,
                                  box(RIL_TEXTLINE), it->Confidence(RIL_TEXTLINE));
        }
        ++wordNo;
        const QRectF wordBox = box(RIL_WORD);
        // Keep the float exactly: TSV prints std::to_string(float).
        const double conf = double(it->Confidence(RIL_WORD));
        QByteArray text;
        do {
            const TessText symbol(it->GetUTF8Text(RIL_SYMBOL));
            if (symbol)
                text += symbol.get();
            it->Next(RIL_SYMBOL);
        } while (!it->Empty(RIL_BLOCK) && !it->IsAtBeginningOf(RIL_WORD));
        const QString id = doc->nodes[size_t(lineNode)].id + QStringLiteral("/w%1").arg(wordNo);
        const int wn = addOcrNode(doc, lineNode, NodeKind::Word, id, page, wordBox, conf);
        doc->nodes[size_t(wn)].text = QString::fromUtf8(text);
        Word w;
        w.id = id;
        w.text = QString::fromUtf8(text);
        w.page = page;
        w.box = wordBox;
        w.node = wn;
        w.confidence = conf;
        doc->words.push_back(w);
    }
}

// PDF text layer → the same tree: words in the layer's order, lines by vertical overlap,
// a new block where the vertical gap exceeds a line height.
static void collectTextLayer(const std::vector<std::unique_ptr<Poppler::TextBox>> &boxes, double scale,
                             const QRect &region, Document *doc, int pageNode, int page)
{
    const QString pid = pageId(page);
    int blockNode = -1, parNode = -1, lineNode = -1, blockNo = -1, lineNo = -1, wordNo = -1;
    QRectF lineBox, blockBox;
    auto grow = [doc](int node, const QRectF &r) {
        QRectF &b = doc->nodes[size_t(node)].box;
        b = b.isNull() ? r : b.united(r);
    };
    for (const auto &tb : boxes) {
        const QString text = tb->text().trimmed();
        if (text.isEmpty())
            continue;
        const QRectF r(tb->boundingBox().left() * scale, tb->boundingBox().top() * scale,
                       tb->boundingBox().width() * scale, tb->boundingBox().height() * scale);
        if (region.isValid() && !QRectF(region).contains(r.center()))
            continue;
        bool newLine = lineNode < 0;
        bool newBlock = blockNode < 0;
        if (!newLine) {
            const double overlap = std::min(lineBox.bottom(), r.bottom()) - std::max(lineBox.top(), r.top());
            const double minH = std::min(lineBox.height(), r.height());
            newLine = overlap < 0.5 * minH || r.left() < lineBox.left();
            if (newLine)
                newBlock = r.top() - lineBox.bottom() > std::max(lineBox.height(), r.height());
        }
        if (newBlock) {
            ++blockNo;
            lineNo = -1;
            blockNode = addOcrNode(doc, pageNode, NodeKind::Block, pid + QStringLiteral("/b%1").arg(blockNo), page,
                                   QRectF(), -1);
            parNode = addOcrNode(doc, blockNode, NodeKind::Paragraph, doc->nodes[size_t(blockNode)].id + "/par0",
                                 page, QRectF(), -1);
        }
        if (newLine || newBlock) {
            ++lineNo;
            wordNo = -1;
            lineNode = addOcrNode(doc, parNode, NodeKind::Line,
                                  doc->nodes[size_t(parNode)].id + QStringLiteral("/l%1").arg(lineNo), page, QRectF(), -1);
            lineBox = QRectF();
        }
        ++wordNo;
        const QString id = doc->nodes[size_t(lineNode)].id + QStringLiteral("/w%1").arg(wordNo);
        const int wn = addOcrNode(doc, lineNode, NodeKind::Word, id, page, r, -1);
        doc->nodes[size_t(wn)].text = text;
        lineBox = lineBox.isNull() ? r : lineBox.united(r);
        for (int n : {lineNode, parNode, blockNode})
            grow(n, r);
        Word w;
        w.id = id;
        w.text = text;
        w.page = page;
        w.box = r;
        w.node = wn;
        doc->words.push_back(w);
    }
    (void)blockBox;
}

static QString renderedPath(const OcrOptions &options, const QString &path, int page)
{
    return QDir(options.renderDir).filePath(QStringLiteral("%1-p%2.png").arg(QFileInfo(path).completeBaseName()).arg(page + 1));
}

bool PageRecognizer::recognizePage(const QString &path, const InputInfo &info, int page, const OcrOptions &options,
                                   Document *out, QString *error, bool *fromTextLayer)
{
    if (fromTextLayer)
        *fromTextLayer = false;
    if (page < 0 || page >= info.pageCount) {
        *error = QStringLiteral("page %1 does not exist (%2 pages)").arg(page + 1).arg(info.pageCount);
        return false;
    }
    const QByteArray native = QFile::encodeName(path);
    PixPtr pix;
    QString imagePath;
    const bool isPdf = info.format == InputFormat::Pdf;
    if (isPdf) {
        std::unique_ptr<Poppler::Document> pdf = openPdf(path, error);
        if (!pdf)
            return false;
        std::unique_ptr<Poppler::Page> pp = pdf->page(page);
        if (!pp) {
            *error = QStringLiteral("damaged PDF: page %1 cannot be read").arg(page + 1);
            return false;
        }
        const QSize px = pdfPagePixels(pp->pageSizeF(), options.dpi);
        std::vector<std::unique_ptr<Poppler::TextBox>> boxes;
        if (options.usePdfTextLayer)
            boxes = pp->textList();
        const bool hasText = std::any_of(boxes.begin(), boxes.end(),
                                         [](const auto &b) { return !b->text().trimmed().isEmpty(); });
        QImage rendered;
        if (!hasText || !options.renderDir.isEmpty()) {
            pdf->setRenderHint(Poppler::Document::Antialiasing, true);
            pdf->setRenderHint(Poppler::Document::TextAntialiasing, true);
            rendered = pp->renderToImage(options.dpi, options.dpi);
            if (rendered.isNull()) {
                *error = QStringLiteral("page %1 could not be rendered at %2 dpi").arg(page + 1).arg(options.dpi);
                return false;
            }
            if (!options.renderDir.isEmpty()) {
                imagePath = renderedPath(options, path, page);
                QDir().mkpath(options.renderDir);
                if (!rendered.save(imagePath, "PNG"))
                    imagePath.clear();
            }
        }
        if (hasText) {
            const int pageNode = startPageDocument(out, path, SourceKind::Pdf, page, px, options.dpi, imagePath);
            if (options.region.isValid())
                out->nodes[size_t(pageNode)].box = QRectF(options.region);
            collectTextLayer(boxes, options.dpi / 72.0, options.region, out, pageNode, page);
            finishLineTexts(out);
            out->normaliseWordBoxes();
            if (fromTextLayer)
                *fromTextLayer = true;
            return true;
        }
        pix = pixFromImage(rendered, options.dpi);
    } else {
        // Same decoders as the `tesseract` command (pixRead / the n-th TIFF directory).
        pix.reset(info.format == InputFormat::Tiff ? pixReadTiff(native.constData(), page) : pixRead(native.constData()));
        if (info.format == InputFormat::Png || info.format == InputFormat::Jpeg)
            imagePath = QFileInfo(path).absoluteFilePath();
    }
    if (!pix) {
        *error = QStringLiteral("page %1 could not be decoded (truncated or corrupt image data)").arg(page + 1);
        return false;
    }
    const QSize size(pixGetWidth(pix.get()), pixGetHeight(pix.get()));
    if (!checkPixels(page, size.width(), size.height(), options, error))
        return false;
    if (info.format == InputFormat::Tiff && !options.renderDir.isEmpty()) {
        QDir().mkpath(options.renderDir);
        imagePath = renderedPath(options, path, page);
        if (pixWrite(QFile::encodeName(imagePath).constData(), pix.get(), IFF_PNG) != 0)
            imagePath.clear();
    }
    if (!m_impl->api && !init(options, error))
        return false;
    tesseract::TessBaseAPI *api = m_impl->api.get();
    // A region is OCR'd as its own cropped image (SetRectangle on colour input recognised the wrong
    // pixels in Tesseract 5.3), boxes shifted back to page coordinates.
    QPoint offset;
    QRect regionRect;
    if (options.region.isValid()) {
        regionRect = options.region.intersected(QRect(QPoint(0, 0), size));
        if (regionRect.isEmpty()) {
            *error = QStringLiteral("the region lies outside page %1").arg(page + 1);
            return false;
        }
        BOX *box = boxCreate(regionRect.x(), regionRect.y(), regionRect.width(), regionRect.height());
        PixPtr cropped(pixClipRectangle(pix.get(), box, nullptr));
        boxDestroy(&box);
        if (!cropped) {
            *error = QStringLiteral("could not cut the region out of page %1").arg(page + 1);
            return false;
        }
        pix = std::move(cropped);
        offset = regionRect.topLeft();
    }
    // As `tesseract` (ProcessPage): the input name makes PSM 6 pick up a <image>.uzn zone file.
    if (!isPdf)
        api->SetInputName(native.constData());
    api->SetImage(pix.get());
    if (api->Recognize(nullptr) < 0) {
        *error = QStringLiteral("Tesseract failed on page %1").arg(page + 1);
        api->Clear();
        return false;
    }
    double dpi = isPdf ? options.dpi : pixGetXRes(pix.get());
    const int pageNode = startPageDocument(out, path, isPdf ? SourceKind::Pdf : SourceKind::Image, page, size, dpi,
                                           imagePath);
    if (regionRect.isValid())
        out->nodes[size_t(pageNode)].box = QRectF(regionRect);
    collectTesseract(api, out, pageNode, page, offset);
    api->Clear(); // the iterator is gone; free the page results, keep the loaded model
    finishLineTexts(out);
    out->normaliseWordBoxes();
    return true;
}

Document mergePages(std::vector<Document> pages, const QString &sourcePath, SourceKind kind)
{
    Document doc;
    doc.sourcePath = sourcePath;
    doc.kind = kind;
    doc.title = QFileInfo(sourcePath).fileName();
    Node root;
    root.id = QStringLiteral("root");
    root.kind = NodeKind::Root;
    doc.nodes.push_back(root);
    std::sort(pages.begin(), pages.end(), [](const Document &a, const Document &b) {
        return a.pages.size() < b.pages.size();
    });
    for (Document &pd : pages) {
        if (pd.pages.empty() || pd.nodes.size() < 2)
            continue;
        const int pageIndex = int(pd.pages.size()) - 1;
        if (int(doc.pages.size()) <= pageIndex)
            doc.pages.resize(size_t(pageIndex) + 1);
        doc.pages[size_t(pageIndex)] = pd.pages.back();
        // pd.nodes[0] is its root; every other node shifts by offset - 1, the page node hangs on our root.
        const int offset = int(doc.nodes.size()) - 1;
        for (size_t i = 1; i < pd.nodes.size(); ++i) {
            Node n = pd.nodes[i];
            n.parent = n.parent <= 0 ? 0 : n.parent + offset;
            for (int &c : n.children)
                c += offset;
            if (n.parent == 0)
                doc.nodes[0].children.push_back(int(doc.nodes.size()));
            doc.nodes.push_back(std::move(n));
        }
        for (Word w : pd.words) {
            w.node += offset;
            doc.words.push_back(std::move(w));
        }
    }
    return doc;
}

} // namespace folio::ocr::detail
