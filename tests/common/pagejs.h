#pragma once
// Runs a script in a web page's isolated world (where Folio's own scripts run) and waits up to 10 s
// for its value: for GUI tests that look at what the rendered page shows. Header-only; include it
// only from tests that link QtWebEngine.
#include <QVariant>
#include <QWebEnginePage>
#include <QWebEngineScript>
#include <QtTest>

namespace folio::test {

inline QVariant runPageJs(QWebEnginePage *page, const QString &js)
{
    QVariant result;
    bool done = false;
    page->runJavaScript(js, QWebEngineScript::ApplicationWorld, [&](const QVariant &v) {
        result = v;
        done = true;
    });
    if (!QTest::qWaitFor([&] { return done; }, 10000))
        qWarning("runPageJs: no result after 10 s");
    return result;
}

} // namespace folio::test
