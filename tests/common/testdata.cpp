#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryFile>
#include <QXmlStreamReader>

#include <cstdio>
#include <vector>

#ifndef FOLIO_SHARED_DIR
#error "FOLIO_SHARED_DIR must be defined (folio_add_test does it)"
#endif

namespace folio::test {

namespace {

QStringList &missingLog()
{
    static QStringList log;
    return log;
}

// Outcome of one run, read back from the XML log.
struct RunTally
{
    int passed = 0;  // test functions (or data rows) that passed, set-up/tear-down functions excluded
    int skipped = 0;
    int failed = 0;
};

bool isSetUpOrTearDown(const QStringView name)
{
    return name == u"initTestCase" || name == u"cleanupTestCase" || name == u"init" || name == u"cleanup";
}

// Reads Qt Test's "xml" logger output. Returns false when the file cannot be read or parsed
// (then the caller keeps Qt Test's own return code).
bool readTally(const QString &path, RunTally *tally)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    QXmlStreamReader xml(&f);
    QString function;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == u"TestFunction") {
            function = xml.attributes().value(QLatin1String("name")).toString();
        } else if (xml.name() == u"Incident") {
            const QStringView type = xml.attributes().value(QLatin1String("type"));
            if (type == u"skip")
                ++tally->skipped;
            else if (type == u"fail" || type == u"xpass" || type == u"bfail" || type == u"bxpass")
                ++tally->failed;
            else if (!isSetUpOrTearDown(function) && (type == u"pass" || type == u"xfail"))
                ++tally->passed;
        }
    }
    return !xml.hasError();
}

// Output options that replace Qt Test's default stdout logger; with any of them we add nothing.
bool hasOutputOption(int argc, char **argv)
{
    static const char *const options[] = {"-o", "-txt", "-csv", "-xml", "-lightxml", "-junitxml", "-teamcity", "-tap"};
    for (int i = 1; i < argc; ++i)
        for (const char *o : options)
            if (qstrcmp(argv[i], o) == 0)
                return true;
    return false;
}

} // namespace

QString sharedDir()
{
    const QString env = qEnvironmentVariable("FOLIO_SHARED_DIR");
    return QDir::cleanPath(env.isEmpty() ? QStringLiteral(FOLIO_SHARED_DIR) : env);
}

QString sharedPath(const QString &relative)
{
    return sharedDir() + QLatin1Char('/') + relative;
}

bool isCi()
{
    const QString ci = qEnvironmentVariable("CI").trimmed().toLower();
    return ci == QLatin1String("true") || ci == QLatin1String("1") || ci == QLatin1String("yes");
}

QStringList parityRoots()
{
    const QString env = qEnvironmentVariable("FOLIO_PARITY_DIR");
    if (!env.isEmpty()) {
        QStringList roots;
        for (const QString &r : env.split(QLatin1Char(':'), Qt::SkipEmptyParts))
            roots << QDir::cleanPath(r);
        return roots;
    }
    return {sharedPath(QStringLiteral("fixtures/parity")), sharedPath(QStringLiteral("fixtures/parity-next")),
            sharedPath(QStringLiteral("fixtures/parity-new")), sharedPath(QStringLiteral("fixtures/finetune"))};
}

QString missingDataMessage(const QString &path)
{
    if (QFileInfo::exists(path))
        return {};
    return QStringLiteral("data not found: %1 (shared folder %2; set FOLIO_SHARED_DIR to move it)")
        .arg(QDir::cleanPath(path), sharedDir());
}

void recordMissingData(const QString &message)
{
    missingLog() << message;
}

int missingDataCount()
{
    return int(missingLog().size());
}

QString writeTestFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
        qFatal("cannot write the test file %s: %s", qPrintable(path), qPrintable(f.errorString()));
    return path;
}

int runTests(int argc, char **argv, int (*exec)(int, char **))
{
    if (hasOutputOption(argc, argv))
        return exec(argc, argv);

    QTemporaryFile log(QDir::tempPath() + QStringLiteral("/folio-testlog-XXXXXX.xml"));
    if (!log.open()) {
        std::fprintf(stderr, "folio test: cannot create a temporary log file; skips will count as passes\n");
        return exec(argc, argv);
    }
    log.close();
    const QByteArray xmlTarget = QFile::encodeName(log.fileName()) + ",xml";
    std::vector<QByteArray> extra{"-o", "-,txt", "-o", xmlTarget};
    std::vector<char *> args(argv, argv + argc);
    for (QByteArray &a : extra)
        args.push_back(a.data());
    args.push_back(nullptr);

    const int failures = exec(int(args.size()) - 1, args.data());
    if (failures != 0)
        return failures == kSkipReturnCode ? kSkipReturnCode + 1 : failures;

    RunTally tally;
    if (!readTally(log.fileName(), &tally))
        return 0;
    for (const QString &m : missingLog())
        std::fprintf(stderr, "folio test: skipped for missing data: %s\n", qPrintable(m));
    if (tally.failed == 0 && tally.passed == 0 && tally.skipped > 0) {
        std::fprintf(stderr, "folio test: nothing ran (%d skipped), exit code %d (CTest: Skipped)\n", tally.skipped,
                     kSkipReturnCode);
        return kSkipReturnCode;
    }
    return 0;
}

} // namespace folio::test
