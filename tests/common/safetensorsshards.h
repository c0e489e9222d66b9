#pragma once
// Splits a model.safetensors into N shards plus model.safetensors.index.json, as Hugging Face's
// save_pretrained(max_shard_size=...) lays out a large checkpoint (tests of sharded loading and of
// the Hub client). Torch-free: the header is rewritten with Qt's JSON, the tensor bytes copied.
// Header-only.

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <cstring>
#include <vector>

namespace folio::test {

// The shard file names it writes: model-00001-of-0000N.safetensors ...
inline QString shardFileName(int index, int count)
{
    return QStringLiteral("model-%1-of-%2.safetensors").arg(index + 1, 5, 10, QLatin1Char('0')).arg(count, 5, 10, QLatin1Char('0'));
}

// Writes the shards and the index into `outDir` (tensors in file order, split into `count` runs of
// about equal tensor counts). False with *why on a read or write failure.
inline bool writeShardedCopy(const QString &safetensors, const QString &outDir, int count, QString *why)
{
    QFile in(safetensors);
    if (!in.open(QIODevice::ReadOnly)) {
        *why = safetensors + QStringLiteral(": cannot open");
        return false;
    }
    const QByteArray bytes = in.readAll();
    quint64 headerLen = 0;
    std::memcpy(&headerLen, bytes.constData(), 8); // little-endian host (x86-64, aarch64)
    const QJsonObject header = QJsonDocument::fromJson(bytes.mid(8, int(headerLen))).object();
    const char *data = bytes.constData() + 8 + headerLen;
    struct Entry
    {
        QString name;
        QJsonObject info;
        qint64 begin, end;
    };
    std::vector<Entry> entries;
    for (auto it = header.begin(); it != header.end(); ++it) {
        if (it.key() == QLatin1String("__metadata__"))
            continue;
        const QJsonObject info = it.value().toObject();
        const QJsonArray offsets = info[QStringLiteral("data_offsets")].toArray();
        entries.push_back({it.key(), info, qint64(offsets[0].toDouble()), qint64(offsets[1].toDouble())});
    }
    std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) { return a.begin < b.begin; });
    QJsonObject weightMap;
    qint64 total = 0;
    const std::size_t per = (entries.size() + std::size_t(count) - 1) / std::size_t(count);
    for (int s = 0; s < count; ++s) {
        QJsonObject shardHeader{{QStringLiteral("__metadata__"), QJsonObject{{QStringLiteral("format"), QStringLiteral("pt")}}}};
        QByteArray body;
        for (std::size_t i = std::size_t(s) * per; i < std::min(entries.size(), std::size_t(s + 1) * per); ++i) {
            QJsonObject info = entries[i].info;
            info[QStringLiteral("data_offsets")] = QJsonArray{double(body.size()), double(body.size() + entries[i].end - entries[i].begin)};
            body.append(data + entries[i].begin, int(entries[i].end - entries[i].begin));
            shardHeader[entries[i].name] = info;
            weightMap[entries[i].name] = shardFileName(s, count);
        }
        total += body.size();
        QByteArray json = QJsonDocument(shardHeader).toJson(QJsonDocument::Compact);
        while (json.size() % 8)
            json.append(' ');
        const quint64 len = quint64(json.size());
        QFile out(QDir(outDir).filePath(shardFileName(s, count)));
        if (!out.open(QIODevice::WriteOnly) || out.write(reinterpret_cast<const char *>(&len), 8) != 8 || out.write(json) != json.size()
            || out.write(body) != body.size()) {
            *why = out.fileName() + QStringLiteral(": cannot write");
            return false;
        }
    }
    QFile index(QDir(outDir).filePath(QStringLiteral("model.safetensors.index.json")));
    const QJsonObject indexJson{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("total_size"), double(total)}}},
                                {QStringLiteral("weight_map"), weightMap}};
    if (!index.open(QIODevice::WriteOnly) || index.write(QJsonDocument(indexJson).toJson()) < 0) {
        *why = index.fileName() + QStringLiteral(": cannot write");
        return false;
    }
    return true;
}

} // namespace folio::test
