#include "ui/sampleproject.h"

#include "document/formats/datasetformat.h"
#include "pipeline/shippedmodels.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPageSize>
#include <QPdfWriter>
#include <QSaveFile>
#include <QStandardPaths>
#include <QTextDocument>

namespace folio {

namespace {

constexpr qint64 kMaxReadmeBytes = qint64(4) << 20;

bool copyIfMissing(const QString &from, const QString &to, QString *error)
{
    if (QFileInfo(to).isFile())
        return true;
    if (!QFile::copy(from, to)) {
        *error = QStringLiteral("%1: cannot copy the sample to %2").arg(from, to);
        return false;
    }
    QFile::setPermissions(to, QFile::permissions(to) | QFileDevice::WriteOwner);
    return true;
}

// The README as a paginated PDF with a text layer (A4, 11 pt): a manual with numbered pages and
// headings, written through a temporary file so a crash never leaves half a PDF.
bool writeManualPdf(const QString &readme, const QString &pdf, QString *error)
{
    if (QFileInfo(pdf).isFile())
        return true;
    QByteArray markdown;
    if (!formats::readWholeFile(readme, &markdown, error, kMaxReadmeBytes))
        return false;
    const QString partial = pdf + QStringLiteral(".part");
    {
        QPdfWriter writer(partial);
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setResolution(150);
        writer.setTitle(QStringLiteral("Folio — README"));
        writer.setCreator(QStringLiteral("Folio sample project"));
        QTextDocument document;
        QFont font = document.defaultFont();
        font.setPointSizeF(10);
        document.setDefaultFont(font);
        document.setMarkdown(QString::fromUtf8(markdown));
        document.print(&writer);
    }
    QFile::remove(pdf);
    if (!QFileInfo(partial).isFile() || QFileInfo(partial).size() == 0 || !QFile::rename(partial, pdf)) {
        QFile::remove(partial);
        *error = QStringLiteral("%1: cannot write the sample manual").arg(pdf);
        return false;
    }
    return true;
}

} // namespace

QString sampleProjectFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/sample");
}

QString sampleProjectPath(const QString &folder)
{
    return QDir(folder).filePath(QStringLiteral("sample.folio"));
}

QStringList prepareSampleDocuments(const QString &folder, QString *error)
{
    const QString samples = pipeline::shippedSamplesDir();
    const QString readme = pipeline::folioReadmePath();
    if (samples.isEmpty() || readme.isEmpty()) {
        *error = QCoreApplication::translate("folio::SampleProject", "the bundled samples are not installed (share/folio/samples and share/doc/folio/README.md)");
        return {};
    }
    if (!QDir().mkpath(folder)) {
        *error = QStringLiteral("%1: cannot create the folder").arg(folder);
        return {};
    }
    const QDir dir(folder);
    const QString form = dir.filePath(QStringLiteral("sample-form.png"));
    const QString manual = dir.filePath(QStringLiteral("folio-manual.pdf"));
    const QString page = dir.filePath(QStringLiteral("product-page.html"));
    if (!copyIfMissing(QDir(samples).filePath(QStringLiteral("sample-form.png")), form, error)
        || !writeManualPdf(readme, manual, error)
        || !copyIfMissing(QDir(samples).filePath(QStringLiteral("product-page.html")), page, error))
        return {};
    return {form, manual, page};
}

} // namespace folio
