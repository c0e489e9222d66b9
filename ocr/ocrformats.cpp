#include "ocr/ocrformats.h"

#include <cmath>
#include <string>

namespace folio::ocr {

static std::string boxColumns(const QRectF &r)
{
    const long l = std::lround(r.left()), t = std::lround(r.top());
    const long w = std::lround(r.right()) - l, h = std::lround(r.bottom()) - t;
    return "\t" + std::to_string(l) + "\t" + std::to_string(t) + "\t" + std::to_string(w) + "\t" + std::to_string(h);
}

static void tsvRow(std::string &out, int level, int page, int block, int par, int line, int word, const QRectF &box,
                   const std::string &conf, const QString &text)
{
    out += std::to_string(level) + "\t" + std::to_string(page) + "\t" + std::to_string(block) + "\t" +
           std::to_string(par) + "\t" + std::to_string(line) + "\t" + std::to_string(word);
    out += boxColumns(box);
    out += "\t" + conf + "\t";
    out += text.toStdString();
    out += "\n";
}

QByteArray documentToTsv(const Document &doc)
{
    std::string out = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n";
    if (doc.nodes.empty())
        return QByteArray::fromStdString(out);
    for (int pageNode : doc.nodes[0].children) {
        const Node &pn = doc.nodes[size_t(pageNode)];
        if (pn.kind != NodeKind::Page)
            continue;
        const int pageNum = pn.page + 1; // GetTSVText: 1-based
        tsvRow(out, 1, pageNum, 0, 0, 0, 0, pn.box, "-1", QString());
        int blockNum = 0;
        for (int b : pn.children) {
            const Node &bn = doc.nodes[size_t(b)];
            tsvRow(out, 2, pageNum, ++blockNum, 0, 0, 0, bn.box, "-1", QString());
            int parNum = 0;
            for (int p : bn.children) {
                const Node &parn = doc.nodes[size_t(p)];
                tsvRow(out, 3, pageNum, blockNum, ++parNum, 0, 0, parn.box, "-1", QString());
                int lineNum = 0;
                for (int l : parn.children) {
                    const Node &ln = doc.nodes[size_t(l)];
                    tsvRow(out, 4, pageNum, blockNum, parNum, ++lineNum, 0, ln.box, "-1", QString());
                    int wordNum = 0;
                    for (int w : ln.children) {
                        const Node &wn = doc.nodes[size_t(w)];
                        // Tesseract prints std::to_string(float); our confidence holds that float exactly.
                        tsvRow(out, 5, pageNum, blockNum, parNum, lineNum, ++wordNum, wn.box,
                               std::to_string(float(wn.confidence)), wn.text);
                    }
                }
            }
        }
    }
    return QByteArray::fromStdString(out);
}

static QString bbox(const QRectF &r)
{
    return QStringLiteral("bbox %1 %2 %3 %4")
        .arg(std::lround(r.left())).arg(std::lround(r.top())).arg(std::lround(r.right())).arg(std::lround(r.bottom()));
}

QByteArray documentToHocr(const Document &doc)
{
    QString out = QStringLiteral(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\"\n"
        "    \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd\">\n"
        "<html xmlns=\"http://www.w3.org/1999/xhtml\" xml:lang=\"en\" lang=\"en\">\n <head>\n"
        "  <title>%1</title>\n"
        "  <meta http-equiv=\"Content-Type\" content=\"text/html;charset=utf-8\"/>\n"
        "  <meta name='ocr-system' content='folio (tesseract)'/>\n"
        "  <meta name='ocr-capabilities' content='ocr_page ocr_carea ocr_par ocr_line ocrx_word ocrp_wconf'/>\n"
        " </head>\n <body>\n").arg(doc.sourcePath.toHtmlEscaped());
    if (!doc.nodes.empty()) {
        for (int pageNode : doc.nodes[0].children) {
            const Node &pn = doc.nodes[size_t(pageNode)];
            if (pn.kind != NodeKind::Page)
                continue;
            const int p = pn.page + 1;
            out += QStringLiteral("  <div class='ocr_page' id='page_%1' title='image \"%2\"; %3; ppageno %4'>\n")
                       .arg(p).arg(doc.sourcePath.toHtmlEscaped(), bbox(pn.box)).arg(pn.page);
            int bi = 0, pi = 0, li = 0, wi = 0;
            for (int b : pn.children) {
                const Node &bn = doc.nodes[size_t(b)];
                out += QStringLiteral("   <div class='ocr_carea' id='block_%1_%2' title=\"%3\">\n").arg(p).arg(++bi).arg(bbox(bn.box));
                for (int par : bn.children) {
                    const Node &parn = doc.nodes[size_t(par)];
                    out += QStringLiteral("    <p class='ocr_par' id='par_%1_%2' title=\"%3\">\n").arg(p).arg(++pi).arg(bbox(parn.box));
                    for (int l : parn.children) {
                        const Node &ln = doc.nodes[size_t(l)];
                        out += QStringLiteral("     <span class='ocr_line' id='line_%1_%2' title=\"%3\">").arg(p).arg(++li).arg(bbox(ln.box));
                        for (int w : ln.children) {
                            const Node &wn = doc.nodes[size_t(w)];
                            out += QStringLiteral("\n      <span class='ocrx_word' id='word_%1_%2' title='%3; x_wconf %4'>%5</span>")
                                       .arg(p).arg(++wi).arg(bbox(wn.box))
                                       .arg(std::lround(std::max(0.0, wn.confidence)))
                                       .arg(wn.text.toHtmlEscaped());
                        }
                        out += QStringLiteral("\n     </span>\n");
                    }
                    out += QStringLiteral("    </p>\n");
                }
                out += QStringLiteral("   </div>\n");
            }
            out += QStringLiteral("  </div>\n");
        }
    }
    out += QStringLiteral(" </body>\n</html>\n");
    return out.toUtf8();
}

} // namespace folio::ocr
