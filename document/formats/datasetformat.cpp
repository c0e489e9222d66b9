#include "document/formats/funsdformat.h"
#include "document/formats/datasetformat.h"

#include "common/regularfile.h"
#include "document/formats/conll.h"
#include "document/formats/datasetlimits.h"
#include "document/formats/hfjsonl.h"
#include "document/formats/jsonvalidate.h"
#include "document/formats/labelstudio.h"
#include "document/formats/qshierarchy.h"
#include "document/formats/govreportqs.h"
#include "document/formats/hibridsformat.h"
#include "document/formats/qmsumformat.h"
#include "document/formats/qsoutline.h"
#include "document/formats/swde.h"
#include "document/formats/productbenchmark.h"
#include "document/wordnodes.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSaveFile>

#include <algorithm>
#include <set>

namespace folio {

std::unique_ptr<DatasetFormat> createDatasetFormat(const QString &name)
{
    if (name == QLatin1String("funsd"))
        return std::make_unique<FunsdFormat>();
    if (name == QLatin1String("hfjsonl"))
        return std::make_unique<HfJsonlFormat>();
    if (name == QLatin1String("conll"))
        return std::make_unique<ConllFormat>();
    if (name == QLatin1String("labelstudio"))
        return std::make_unique<LabelStudioFormat>();
    if (name == QLatin1String("qs"))
        return std::make_unique<QsHierarchyFormat>();
    if (name == QLatin1String("swde"))
        return std::make_unique<SwdeFormat>();
    if (name == QLatin1String("product-benchmark"))
        return std::make_unique<ProductBenchmarkFormat>();
    if (name == QLatin1String("govreport-qs"))
        return std::make_unique<GovReportQsFormat>();
    if (name == QLatin1String("hibrids"))
        return std::make_unique<HibridsFormat>();
    if (name == QLatin1String("qmsum"))
        return std::make_unique<QmsumFormat>();
    if (name == QLatin1String("qs-markdown"))
        return std::make_unique<QsMarkdownFormat>();
    if (name == QLatin1String("qs-html"))
        return std::make_unique<QsHtmlFormat>();
    return nullptr;
}

QStringList datasetFormatNames()
{
    return {QStringLiteral("funsd"), QStringLiteral("hfjsonl"), QStringLiteral("conll"), QStringLiteral("labelstudio"), QStringLiteral("qs"),
            QStringLiteral("swde"), QStringLiteral("product-benchmark"), QStringLiteral("govreport-qs"),
            QStringLiteral("hibrids"), QStringLiteral("qmsum"), QStringLiteral("qs-markdown"), QStringLiteral("qs-html")};
}

namespace formats {

std::vector<const Entity *> exportedEntities(const Annotations &a, bool includeSuggestions)
{
    std::vector<const Entity *> out;
    for (const Entity &e : a.entities) {
        if (e.state == ReviewState::Rejected)
            continue;
        if (e.state == ReviewState::Suggested && !includeSuggestions)
            continue;
        out.push_back(&e);
    }
    return out;
}

QStringList collectLabels(const std::vector<DatasetItem> &items, const QStringList &given, bool includeSuggestions)
{
    if (!given.isEmpty())
        return given;
    std::set<QString> labels;
    for (const DatasetItem &item : items)
        for (const Entity *e : exportedEntities(item.annotations, includeSuggestions))
            labels.insert(e->label);
    return QStringList(labels.begin(), labels.end());
}

QStringList wordBioTags(const Document &doc, const Annotations &a, bool includeSuggestions)
{
    QHash<QString, int> index;
    index.reserve(int(doc.words.size()));
    for (int i = 0; i < int(doc.words.size()); ++i)
        index.insert(doc.words[i].id, i);
    QStringList tags(int(doc.words.size()), QStringLiteral("O"));
    for (const Entity *e : exportedEntities(a, includeSuggestions)) {
        // B on the first word in reading order, I on the rest.
        std::vector<int> positions;
        for (const QString &w : e->wordIds) {
            const int i = index.value(w, -1);
            if (i >= 0)
                positions.push_back(i);
        }
        std::sort(positions.begin(), positions.end());
        for (size_t k = 0; k < positions.size(); ++k)
            tags[positions[k]] = (k == 0 ? QStringLiteral("B-") : QStringLiteral("I-")) + e->label;
    }
    return tags;
}

std::vector<Entity> entitiesFromBio(const QStringList &wordIds, const QStringList &tags)
{
    std::vector<Entity> out;
    QString open;
    for (int i = 0; i < tags.size() && i < wordIds.size(); ++i) {
        const QString &t = tags[i];
        if (t == QLatin1String("O") || t.size() < 3) {
            open.clear();
            continue;
        }
        const QString label = t.mid(2);
        const bool continues = t.startsWith(QLatin1String("I-")) && open == label && !out.empty();
        if (continues) {
            out.back().wordIds << wordIds[i];
            continue;
        }
        Entity e;
        e.id = QStringLiteral("e%1").arg(out.size());
        e.label = label;
        e.wordIds << wordIds[i];
        out.push_back(e);
        open = label;
    }
    return out;
}

Document documentFromWords(const QString &source, const QStringList &texts, const std::vector<NormBox> &boxes,
                           const QSizeF &pageSize, const QString &imagePath)
{
    Document doc;
    doc.sourcePath = source;
    doc.kind = SourceKind::Image;
    Page page;
    page.size = pageSize;
    page.imagePath = imagePath;
    doc.pages.push_back(page);
    addRootNode(doc);
    const double sx = pageSize.width() / 1000.0, sy = pageSize.height() / 1000.0;
    for (int i = 0; i < texts.size(); ++i) {
        Word w;
        w.id = QStringLiteral("w%1").arg(i);
        w.text = texts[i];
        w.page = 0;
        const NormBox b = i < int(boxes.size()) ? boxes[i] : NormBox();
        w.box = QRectF(QPointF(b.x0 * sx, b.y0 * sy), QPointF(b.x1 * sx, b.y1 * sy));
        w.norm = b;
        appendWordWithNode(doc, w, 0);
    }
    return doc;
}

bool ensureDir(const QString &dir, QString *error)
{
    if (QDir().mkpath(dir))
        return true;
    *error = QStringLiteral("%1: cannot create the output folder").arg(dir);
    return false;
}

bool writeFileAtomically(const QString &path, const QByteArray &bytes, QString *error)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("%1: cannot write (%2)").arg(path, f.errorString());
        return false;
    }
    if (f.write(bytes) != bytes.size() || !f.commit()) {
        *error = QStringLiteral("%1: write failed (%2)").arg(path, f.errorString());
        return false;
    }
    return true;
}

QString exportFilePath(const QString &outDir, const DatasetExportOptions &options, const QString &suffix)
{
    const QString base = options.baseName.isEmpty() ? QStringLiteral("data") : options.baseName;
    return QDir(outDir).filePath(base + suffix);
}

bool writeExportFile(const QString &path, const QByteArray &bytes, QStringList *written, QString *error)
{
    if (!writeFileAtomically(path, bytes, error))
        return false;
    if (written)
        *written << path;
    return true;
}

bool importJsonLines(const QString &path, JsonValidator &jv, const JsonLineItemReader &readRow,
                     std::vector<DatasetItem> *items, QString *error)
{
    const std::string name = QFile::encodeName(path).toStdString();
    std::string notAFile; // a FIFO, a device: named, never opened (issue 51)
    if (pathExists(name) && regularFileSize(name, -1, "this file", &notAFile) < 0) {
        *error = QFile::decodeName(QByteArray::fromStdString(notAFile));
        return false;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot read (%2)").arg(path, f.errorString());
        return false;
    }
    std::vector<DatasetItem> out;
    const bool ok = forEachJsonLine(f, jv, [&](int line, const QJsonObject &row) {
        DatasetItem item;
        if (!readRow(line, row, item))
            return false;
        if (!checkDatasetItem(item, QStringLiteral("%1:%2").arg(path).arg(line), error))
            return false;
        out.push_back(std::move(item));
        return true;
    }, error, DatasetLimits::maxJsonLineBytes);
    if (ok)
        *items = std::move(out);
    return ok;
}

bool readWholeFile(const QString &path, QByteArray *bytes, QString *error, qint64 maxBytes)
{
    // A regular file only, its size from stat before the open (common/regularfile.h; issue 51): a
    // FIFO drafter.json blocked the open forever, a link to /dev/zero was read to exhaustion.
    const std::string name = QFile::encodeName(path).toStdString();
    std::string notAFile;
    if (pathExists(name) && regularFileSize(name, -1, "this file", &notAFile) < 0) {
        *error = QFile::decodeName(QByteArray::fromStdString(notAFile));
        return false;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot read (%2)").arg(path, f.errorString());
        return false;
    }
    if (f.size() > maxBytes) {
        *error = QStringLiteral("%1: file too large (%2 bytes, limit %3)").arg(path).arg(f.size()).arg(maxBytes);
        return false;
    }
    *bytes = f.readAll();
    return true;
}

} // namespace formats
} // namespace folio
