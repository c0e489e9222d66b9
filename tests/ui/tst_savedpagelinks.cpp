// A saved "Web Page, complete" (page.html + page_files/) whose page_files/ holds symbolic links to
// /etc/passwd and to /etc (issue 51): the offline filter judges a file: request by where the file
// really is, so those links are refused while the page's own files (and links that stay inside its
// folder) are served; a FIFO inside the folder is refused too (Chromium would block reading it).
// Real QtWebEngine, offscreen, through the real interceptor.
#include "ui/documents/webpage.h"
#include "ui/documents/websnapshot.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWebEngineSettings>

#include <sys/stat.h>
#include <unistd.h>

using namespace folio;

class TestSavedPageLinks : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_page, m_files;

    QString write(const QString &name, const QByteArray &bytes) { return folio::test::writeTestFile(m_dir, name, bytes); }
    QUrl fileUrl(const QString &relative) const { return QUrl::fromLocalFile(m_dir.filePath(relative)); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(QFile::exists(QStringLiteral("/etc/passwd")));
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("page_files"))));
        m_page = write(QStringLiteral("page.html"),
                       "<html><head><link rel=\"stylesheet\" href=\"page_files/style.css\"></head><body><p>saved page</p>"
                       "<iframe src=\"page_files/passwd\"></iframe>"
                       "<iframe src=\"page_files/etc/passwd\"></iframe>"
                       "<iframe src=\"page_files/etc/shadow\"></iframe>"
                       "<iframe src=\"page_files/loop\"></iframe>"
                       "<link rel=\"stylesheet\" href=\"page_files/pipe.css\">"
                       "<iframe src=\"page_files/notes.txt\"></iframe>"
                       "<iframe src=\"page_files/same-notes.txt\"></iframe>"
                       "<img src=\"page_files/logo.png\"></body></html>");
        write(QStringLiteral("page_files/style.css"), "p { color: #123456 }");
        write(QStringLiteral("page_files/notes.txt"), "inside the folder");
        m_files = m_dir.filePath(QStringLiteral("page_files"));
        QVERIFY(QFile::link(QStringLiteral("/etc/passwd"), m_files + QStringLiteral("/passwd")));
        QVERIFY(QFile::link(QStringLiteral("/etc"), m_files + QStringLiteral("/etc")));
        QVERIFY(QFile::link(QStringLiteral("notes.txt"), m_files + QStringLiteral("/same-notes.txt"))); // inside
        const QByteArray loop = QFile::encodeName(m_files + QStringLiteral("/loop"));
        QVERIFY(::symlink(loop.constData(), loop.constData()) == 0);
        QVERIFY(::mkfifo(QFile::encodeName(m_files + QStringLiteral("/pipe.css")).constData(), 0600) == 0);
    }

    // The policy: links resolved before the folder test.
    void filterResolvesLinks()
    {
        OfflineUrlInterceptor filter;
        filter.setAllowedRoot(m_dir.path());
        QVERIFY(filter.isAllowed(fileUrl(QStringLiteral("page_files/style.css"))));
        QVERIFY(filter.isAllowed(fileUrl(QStringLiteral("page_files/same-notes.txt")))); // a link inside
        QVERIFY(filter.isAllowed(fileUrl(QStringLiteral("page_files/missing.png"))));    // missing, but inside
        QVERIFY(!filter.isAllowed(fileUrl(QStringLiteral("page_files/passwd"))));
        QVERIFY(!filter.isAllowed(fileUrl(QStringLiteral("page_files/etc/passwd"))));
        QVERIFY(!filter.isAllowed(fileUrl(QStringLiteral("page_files/etc/shadow"))));
        QVERIFY(!filter.isAllowed(fileUrl(QStringLiteral("page_files/etc/no-such-file"))));
        QVERIFY(!filter.isAllowed(fileUrl(QStringLiteral("page_files/etc"))));
        QVERIFY(!filter.isAllowed(fileUrl(QStringLiteral("page_files/loop"))));
        QVERIFY(!filter.isAllowed(fileUrl(QStringLiteral("page_files/pipe.css")))); // inside, but a FIFO
        QVERIFY(!filter.isAllowed(fileUrl(QStringLiteral("page_files/../../outside.css"))));
        // The folder itself reached through a link: its files are still its files.
        const QString alias = m_dir.filePath(QStringLiteral("alias"));
        QVERIFY(QFile::link(m_dir.path(), alias));
        OfflineUrlInterceptor viaLink;
        viaLink.setAllowedRoot(alias);
        QVERIFY(viaLink.isAllowed(QUrl::fromLocalFile(alias + QStringLiteral("/page_files/style.css"))));
        QVERIFY(!viaLink.isAllowed(QUrl::fromLocalFile(alias + QStringLiteral("/page_files/passwd"))));
    }

    // The page rendered: every request for a link out of the folder is refused, the page's own
    // resources (and the link to one of them) are served.
    void renderedPageServesNothingOutside()
    {
        OffscreenSnapshot snap;
        snap.page()->settings()->setAttribute(QWebEngineSettings::LocalContentCanAccessFileUrls, true);
        QSignalSpy done(&snap, &OffscreenSnapshot::finished);
        QSignalSpy failed(&snap, &OffscreenSnapshot::failed);
        snap.start(m_page, /*javaScript=*/false, 1000);
        QVERIFY2(done.wait(60000) || !failed.isEmpty(), "no snapshot in 60 s");
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        QTest::qWait(500); // subframe requests reach the filter after the load
        const QList<WebRequestRecord> log = snap.page()->requestLog();
        bool passwdRefused = false, shadowRefused = false, notesServed = false, linkedNotesServed = false;
        for (const WebRequestRecord &r : log) {
            const QString path = r.url.toLocalFile();
            const bool outside = path.endsWith(QLatin1String("/passwd")) || path.endsWith(QLatin1String("/shadow"))
                                 || path.endsWith(QLatin1String("/loop")) || path.endsWith(QLatin1String("/pipe.css"));
            QVERIFY2(!(outside && r.allowed), qPrintable(QStringLiteral("served: ") + r.url.toString()));
            passwdRefused |= path.endsWith(QLatin1String("page_files/passwd")) && !r.allowed;
            shadowRefused |= path.endsWith(QLatin1String("page_files/etc/shadow")) && !r.allowed;
            notesServed |= path.endsWith(QLatin1String("page_files/notes.txt")) && r.allowed;
            linkedNotesServed |= path.endsWith(QLatin1String("page_files/same-notes.txt")) && r.allowed;
        }
        QString all;
        for (const WebRequestRecord &r : log)
            all += (r.allowed ? QStringLiteral("allowed ") : QStringLiteral("blocked ")) + r.url.toString() + QLatin1Char('\n');
        QVERIFY2(passwdRefused && shadowRefused, qPrintable(all)); // asked for, and refused
        QVERIFY2(notesServed && linkedNotesServed, qPrintable(all)); // the filter is not simply closed
        QVERIFY(!done.first().first().toByteArray().contains("root:"));
    }
};

FOLIO_TEST_MAIN(TestSavedPageLinks)
#include "tst_savedpagelinks.moc"
