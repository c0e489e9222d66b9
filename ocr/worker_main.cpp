// folio-ocr-worker: the child process that runs Tesseract for folio_ocr (see ocr/ocr.h).
//
// Started by OcrJob with OMP_THREAD_LIMIT=1 in its environment:
//     folio-ocr-worker FILE [--lang L] [--psm N] [--dpi N] [--datapath DIR] [--max-pixels N]
//                      [--max-pages N] [--no-text-layer] [--render-dir DIR] [--region X,Y,W,H]
// Protocol: one JSON object per line on stdout.
//   first:  {"type":"probe","pages":N,"format":"png|jpeg|tiff|pdf"[,"outline":[{title,level,page,top}]]}
//           (the outline: PDFs, not for region runs)  or {"type":"error","message":...}
//   then, for each "page K" line read on stdin:
//           {"type":"page","page":K,"textLayer":bool,"document":<one-page Document JSON>}
//        or {"type":"error","page":K,"message":...}
//   EOF or "quit" on stdin ends it. Exit status 0 unless the probe failed (1) or usage (2).
#include "document/documentjson.h"
#include "ocr/detail/pageocr.h"
#include "ocr/detail/pdfoutline.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include <cstdio>
#include <iostream>
#include <string>

using namespace folio;
using namespace folio::ocr;

static void emitLine(const QJsonObject &o)
{
    const QByteArray line = QJsonDocument(o).toJson(QJsonDocument::Compact);
    std::fwrite(line.constData(), 1, size_t(line.size()), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

static const char *formatName(detail::InputFormat f)
{
    switch (f) {
    case detail::InputFormat::Png: return "png";
    case detail::InputFormat::Jpeg: return "jpeg";
    case detail::InputFormat::Tiff: return "tiff";
    case detail::InputFormat::Pdf: return "pdf";
    case detail::InputFormat::Unknown: break;
    }
    return "unknown";
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv); // Poppler and QImage want one
    const QStringList args = app.arguments();
    OcrOptions options;
    QString path;
    for (int i = 1; i < args.size(); ++i) {
        const QString &a = args[i];
        auto next = [&]() -> QString {
            if (i + 1 >= args.size()) {
                emitLine({{"type", "error"}, {"message", QStringLiteral("option %1 needs a value").arg(a)}});
                std::exit(2);
            }
            return args[++i];
        };
        if (a == QLatin1String("--lang")) options.languages = next();
        else if (a == QLatin1String("--psm")) options.psm = next().toInt();
        else if (a == QLatin1String("--dpi")) options.dpi = next().toInt();
        else if (a == QLatin1String("--datapath")) options.dataPath = next();
        else if (a == QLatin1String("--max-pixels")) options.maxPixels = next().toLongLong();
        else if (a == QLatin1String("--max-pages")) options.maxPages = next().toInt();
        else if (a == QLatin1String("--no-text-layer")) options.usePdfTextLayer = false;
        else if (a == QLatin1String("--render-dir")) options.renderDir = next();
        else if (a == QLatin1String("--region")) {
            const QStringList p = next().split(QLatin1Char(','));
            if (p.size() == 4)
                options.region = QRect(p[0].toInt(), p[1].toInt(), p[2].toInt(), p[3].toInt());
        } else if (path.isEmpty()) path = a;
        else {
            emitLine({{"type", "error"}, {"message", QStringLiteral("unexpected argument %1").arg(a)}});
            return 2;
        }
    }
    if (path.isEmpty()) {
        emitLine({{"type", "error"}, {"message", QStringLiteral("usage: folio-ocr-worker FILE [options]")}});
        return 2;
    }

    detail::InputInfo info;
    QString error;
    if (!detail::probeInput(path, options, &info, &error)) {
        emitLine({{"type", "error"}, {"message", error}});
        return 1;
    }
    QJsonObject probe{{"type", "probe"}, {"pages", info.pageCount}, {"format", formatName(info.format)}};
    if (info.format == detail::InputFormat::Pdf && !options.region.isValid())
        probe.insert(QStringLiteral("outline"), detail::outlineToJson(detail::readPdfOutline(path)));
    emitLine(probe);

    detail::PageRecognizer recognizer;
    // Images always need Tesseract: load the model now, while the parent hands out pages.
    if (info.format != detail::InputFormat::Pdf && !recognizer.init(options, &error)) {
        emitLine({{"type", "error"}, {"message", error}});
        return 1;
    }
    std::string command;
    while (std::getline(std::cin, command)) {
        if (command == "quit")
            break;
        if (command.rfind("page ", 0) != 0)
            continue;
        const int page = std::atoi(command.c_str() + 5);
        Document doc;
        bool fromTextLayer = false;
        if (!recognizer.recognizePage(path, info, page, options, &doc, &error, &fromTextLayer)) {
            emitLine({{"type", "error"}, {"page", page}, {"message", error}});
            continue;
        }
        emitLine({{"type", "page"}, {"page", page}, {"textLayer", fromTextLayer},
                  {"document", documentToJsonObject(doc)}});
    }
    return 0;
}
