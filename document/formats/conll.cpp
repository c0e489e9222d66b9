#include "document/formats/conll.h"
#include "document/formats/datasetlimits.h"

#include <QRegularExpression>

namespace folio {

using namespace formats;

// A token must not contain the column separator or a line break.
static QString cleanToken(QString t)
{
    static const QRegularExpression ws(QStringLiteral("\\s"));
    return t.replace(ws, QStringLiteral("_"));
}

QByteArray ConllFormat::documentText(const DatasetItem &item, const DatasetExportOptions &options)
{
    const Document &doc = item.document;
    const QStringList tags = wordBioTags(doc, item.annotations, options.includeSuggestions);
    QString out = QStringLiteral("-DOCSTART-\t%1\n").arg(cleanToken(item.name));
    for (int i = 0; i < int(doc.words.size()); ++i) {
        const QString text = doc.words[i].text.trimmed();
        if (text.isEmpty())
            continue;
        if (!options.tokenizer) {
            out += cleanToken(text) + QLatin1Char('\t') + tags[i] + QLatin1Char('\n');
            continue;
        }
        QStringList pieces = options.tokenizer(text);
        if (pieces.isEmpty())
            pieces << text;
        for (int k = 0; k < pieces.size(); ++k) {
            QString tag = tags[i];
            if (k > 0 && tag.startsWith(QLatin1String("B-")))
                tag = QStringLiteral("I-") + tag.mid(2);
            out += cleanToken(pieces[k]) + QLatin1Char('\t') + tag + QLatin1Char('\t') + QString::number(i) + QLatin1Char('\n');
        }
    }
    out += QLatin1Char('\n');
    return out.toUtf8();
}

bool ConllFormat::exportItems(const std::vector<DatasetItem> &items, const QString &outDir,
                              const DatasetExportOptions &options, QStringList *written, QString *error) const
{
    if (!checkDatasetItems(items, QStringLiteral("export"), error) || !ensureDir(outDir, error))
        return false;
    QByteArray out;
    for (const DatasetItem &item : items)
        out += documentText(item, options);
    return writeExportFile(exportFilePath(outDir, options, QStringLiteral(".conll")), out, written, error);
}

static QString joinPiece(const QString &word, QString piece)
{
    if (piece.startsWith(QLatin1String("##")))
        piece = piece.mid(2);
    else if (piece.startsWith(QChar(0x2581)) || piece.startsWith(QChar(0x0120))) // sentencepiece ▁, BPE Ġ
        piece = piece.mid(1);
    return word + piece;
}

bool ConllFormat::importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const
{
    QByteArray bytes;
    if (!readWholeFile(path, &bytes, error, DatasetLimits::maxTextFileBytes))
        return false;
    std::vector<DatasetItem> out;
    QStringList texts, tags;
    QString name;
    int lastWordIndex = -1;
    auto flush = [&]() {
        if (texts.isEmpty() && name.isEmpty())
            return;
        DatasetItem item;
        item.name = name.isEmpty() ? QStringLiteral("doc%1").arg(out.size() + 1) : name;
        item.document = documentFromWords(item.name, texts, std::vector<NormBox>(size_t(texts.size())));
        QStringList ids;
        for (const Word &w : item.document.words)
            ids << w.id;
        item.annotations.entities = entitiesFromBio(ids, tags);
        out.push_back(std::move(item));
        texts.clear();
        tags.clear();
        name.clear();
        lastWordIndex = -1;
    };
    static const QRegularExpression tagPattern(QStringLiteral("^(O|[BI]-\\S+)$"));
    const QStringList lines = QString::fromUtf8(bytes).split(QLatin1Char('\n'));
    for (int ln = 0; ln < lines.size(); ++ln) {
        const QString line = lines[ln].trimmed();
        if (line.isEmpty())
            continue;
        auto fail = [&](const QString &what) {
            *error = QStringLiteral("%1:%2: %3").arg(path).arg(ln + 1).arg(what);
            return false;
        };
        if (line.startsWith(QLatin1String("-DOCSTART-"))) {
            flush();
            name = line.mid(10).trimmed();
            continue;
        }
        QStringList cols = line.split(QLatin1Char('\t'));
        if (cols.size() < 2)
            cols = line.split(QRegularExpression(QStringLiteral("\\s+")));
        if (cols.size() < 2 || cols.size() > 3)
            return fail(QStringLiteral("expected \"token<TAB>tag\" or \"piece<TAB>tag<TAB>word index\", found %1 column(s)")
                            .arg(cols.size()));
        if (!tagPattern.match(cols[1]).hasMatch())
            return fail(QStringLiteral("tag \"%1\" is not O, B-<label> or I-<label>").arg(cols[1]));
        if (cols.size() == 3) {
            bool ok = false;
            const int wi = cols[2].toInt(&ok);
            if (!ok || wi < 0)
                return fail(QStringLiteral("word index \"%1\" is not a non-negative integer").arg(cols[2]));
            if (wi == lastWordIndex && !texts.isEmpty()) {
                texts.last() = joinPiece(texts.last(), cols[0]);
                continue;
            }
            lastWordIndex = wi;
            texts << joinPiece(QString(), cols[0]);
        } else {
            texts << cols[0];
        }
        tags << cols[1];
    }
    flush();
    if (!checkDatasetItems(out, path, error))
        return false;
    *items = std::move(out);
    return true;
}

} // namespace folio
