#pragma once
// Small writers for test/bench inputs: a multi-page uncompressed greyscale TIFF, and hand-made
// PDFs (encrypted, damaged). Header-only; used by tests/ocr and bench/.

#include <QByteArray>
#include <QFile>
#include <QImage>
#include <QList>
#include <QString>

#include <cstdint>

namespace folio::testfiles {

// Little-endian baseline TIFF, one uncompressed 8-bit greyscale strip per page, 300 dpi.
inline bool writeMultipageTiff(const QString &path, const QList<QImage> &pages, int dpi = 300)
{
    QByteArray out("II*\0", 4);
    auto u16 = [&](quint16 v) { out.append(char(v & 0xff)).append(char(v >> 8)); };
    auto u32 = [&](quint32 v) { for (int i = 0; i < 4; ++i) out.append(char((v >> (8 * i)) & 0xff)); };
    auto patch32 = [&](int at, quint32 v) { for (int i = 0; i < 4; ++i) out[at + i] = char((v >> (8 * i)) & 0xff); };
    int nextIfdField = int(out.size());
    u32(0);
    for (const QImage &page : pages) {
        const QImage g = page.convertToFormat(QImage::Format_Grayscale8);
        const quint32 dataAt = quint32(out.size());
        for (int y = 0; y < g.height(); ++y)
            out.append(reinterpret_cast<const char *>(g.constScanLine(y)), g.width());
        if (out.size() % 2) out.append('\0');
        const quint32 resAt = quint32(out.size());
        u32(quint32(dpi)); u32(1);
        const quint32 ifdAt = quint32(out.size());
        patch32(nextIfdField, ifdAt);
        struct Entry { quint16 tag, type; quint32 count, value; };
        const Entry entries[] = {
            {256, 4, 1, quint32(g.width())}, {257, 4, 1, quint32(g.height())}, {258, 3, 1, 8},
            {259, 3, 1, 1}, {262, 3, 1, 1}, {273, 4, 1, dataAt}, {277, 3, 1, 1},
            {278, 4, 1, quint32(g.height())}, {279, 4, 1, quint32(g.width() * g.height())},
            {282, 5, 1, resAt}, {283, 5, 1, resAt}, {296, 3, 1, 2}};
        u16(quint16(sizeof entries / sizeof *entries));
        for (const Entry &e : entries) {
            u16(e.tag); u16(e.type); u32(e.count);
            if (e.type == 3) { u16(quint16(e.value)); u16(0); } else u32(e.value);
        }
        nextIfdField = int(out.size());
        u32(0);
    }
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(out) == out.size();
}

// A PDF built from object bodies with a correct xref table; `trailerExtra` goes in the trailer.
inline QByteArray makePdf(const QList<QByteArray> &objects, const QByteArray &trailerExtra = QByteArray())
{
    QByteArray pdf("%PDF-1.4\n");
    QList<int> offsets;
    for (int i = 0; i < objects.size(); ++i) {
        offsets << int(pdf.size());
        pdf += QByteArray::number(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
    }
    const int xref = int(pdf.size());
    pdf += "xref\n0 " + QByteArray::number(objects.size() + 1) + "\n0000000000 65535 f \n";
    for (int off : offsets)
        pdf += QByteArray::number(off).rightJustified(10, '0') + " 00000 n \n";
    pdf += "trailer\n<< /Size " + QByteArray::number(objects.size() + 1) + " /Root 1 0 R " + trailerExtra +
           " >>\nstartxref\n" + QByteArray::number(xref) + "\n%%EOF\n";
    return pdf;
}

// Standard security handler with a user password we do not know: Poppler reports it locked.
inline QByteArray encryptedPdf()
{
    const QByteArray hex32(64, 'A');
    return makePdf({"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
                    "<< /Filter /Standard /V 1 /R 2 /O <" + hex32 + "> /U <" + hex32 + "> /P -44 >>"},
                   "/Encrypt 4 0 R /ID [<0123456789ABCDEF0123456789ABCDEF> <0123456789ABCDEF0123456789ABCDEF>]");
}

} // namespace folio::testfiles
