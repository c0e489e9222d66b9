#include "fuzzsupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace folio::fuzz {

QByteArray inputBytes(const std::uint8_t *data, std::size_t size)
{
    return QByteArray(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
}

std::vector<QByteArray> splitInput(const QByteArray &input, const QByteArray &separator, int maxParts)
{
    std::vector<QByteArray> parts;
    qsizetype from = 0;
    while (static_cast<int>(parts.size()) + 1 < maxParts) {
        const qsizetype at = input.indexOf(separator, from);
        if (at < 0)
            break;
        parts.push_back(input.mid(from, at - from));
        from = at + separator.size();
    }
    parts.push_back(input.mid(from));
    while (static_cast<int>(parts.size()) < maxParts)
        parts.emplace_back();
    return parts;
}

QString scratchDir()
{
    // Leaked on purpose until exit: the fuzzer never returns from its loop normally.
    static const std::unique_ptr<QTemporaryDir> dir = [] {
        auto d = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/folio-fuzz-XXXXXX"));
        if (!d->isValid()) {
            std::fprintf(stderr, "fuzz: cannot create a scratch folder in %s\n", qPrintable(QDir::tempPath()));
            std::abort();
        }
        return d;
    }();
    return dir->path();
}

QString writeScratchFile(const QString &name, const QByteArray &bytes)
{
    const QString path = scratchDir() + QLatin1Char('/') + name;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(bytes) != bytes.size()) {
        std::fprintf(stderr, "fuzz: cannot write %s\n", qPrintable(path));
        std::abort();
    }
    return path;
}

void ensureCoreApplication()
{
    if (QCoreApplication::instance())
        return;
    static int argc = 1;
    static char name[] = "folio-fuzz";
    static char *argv[] = {name, nullptr};
    new QCoreApplication(argc, argv); // lives until exit
}

void note(const QString &what)
{
    static const bool verbose = qEnvironmentVariableIsSet("FOLIO_FUZZ_VERBOSE");
    if (verbose)
        std::fprintf(stderr, "fuzz: %s\n", qPrintable(what));
}

void invariantFailed(const QString &what)
{
    std::fprintf(stderr, "fuzz: invariant broken: %s\n", qPrintable(what));
    std::fflush(stderr);
    std::abort();
}

} // namespace folio::fuzz
