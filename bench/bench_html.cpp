// bench_html FILE... : HTML → Document throughput of folio's loader (libxml2 parse + Document
// nodes, XPaths, words, sections), best of --repeat runs over all files held in memory, plus the
// time to load a synthetic 50,000-node page. Prints one JSON object. bench/bench_html.py runs it
// next to lxml on the same files in the same run and reports the ratio.
#include "document/html/htmlinput.h"
#include "document/html/htmlloader.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include <cstdio>
#include <vector>

static QByteArray syntheticPage(int items)
{
    QByteArray html = "<html><head><title>synthetic</title></head><body><h1>List</h1><ul>";
    for (int i = 0; i < items; ++i)
        html += "<li class=\"row\">item " + QByteArray::number(i) + " <b>bold</b></li>";
    html += "</ul></body></html>";
    return html;
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStringList files = app.arguments().mid(1);
    int repeat = 3;
    if (files.size() >= 2 && files[0] == QLatin1String("--repeat")) {
        repeat = qMax(1, files[1].toInt());
        files = files.mid(2);
    }
    std::vector<QByteArray> pages;
    qint64 bytes = 0;
    for (const QString &f : files) {
        QByteArray b;
        QString error;
        if (!folio::readHtmlSource(f, qint64(256) << 20, &b, &error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        bytes += b.size();
        pages.push_back(std::move(b));
    }
    double best = 1e30;
    qint64 nodes = 0, words = 0;
    for (int r = 0; r < repeat; ++r) {
        QElapsedTimer t;
        t.start();
        nodes = words = 0;
        for (const QByteArray &p : pages) {
            const folio::HtmlLoadResult res = folio::loadHtmlBytes(p, QString());
            nodes += qint64(res.document.nodes.size());
            words += qint64(res.document.words.size());
        }
        best = qMin(best, t.nsecsElapsed() / 1e9);
    }
    // Synthetic page: 25,000 <li> each with a text node, a <b> and its text = 100,000+ nodes;
    // 12,500 items ≈ 50,000 nodes.
    const QByteArray synth = syntheticPage(12500);
    double synthBest = 1e30;
    int synthNodes = 0;
    for (int r = 0; r < repeat; ++r) {
        QElapsedTimer t;
        t.start();
        const folio::HtmlLoadResult res = folio::loadHtmlBytes(synth, QString());
        synthNodes = int(res.document.nodes.size());
        synthBest = qMin(synthBest, t.nsecsElapsed() / 1e9);
    }
    QJsonObject o;
    o.insert(QStringLiteral("files"), int(pages.size()));
    o.insert(QStringLiteral("bytes"), double(bytes));
    o.insert(QStringLiteral("seconds"), best);
    o.insert(QStringLiteral("nodes"), double(nodes));
    o.insert(QStringLiteral("words"), double(words));
    o.insert(QStringLiteral("synthetic_bytes"), double(synth.size()));
    o.insert(QStringLiteral("synthetic_nodes"), synthNodes);
    o.insert(QStringLiteral("synthetic_seconds"), synthBest);
    std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
    return 0;
}
