#include "ui/documents/websnapshot.h"

#include "ui/documents/webpage.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <QTimer>
#include <QWebEngineScript>
#include <QWebEngineView>

namespace folio {

// The XPaths follow document/htmlloader.h: lower-case tag, "[k]" only when several element
// siblings share the tag, "text()"/"text()[k]" counting runs of adjacent text nodes; text inside
// <script>/<style> and white-space-only text is skipped. Iterative walk (no recursion).
static const char kSnapshotScript[] = R"JS(
(function (maxNodes) {
  var sx = window.scrollX, sy = window.scrollY;
  var de = document.documentElement;
  var out = { format: "folio.domsnapshot", version: 1, url: String(location.href),
              width: Math.max(de ? de.scrollWidth : 0, document.body ? document.body.scrollWidth : 0),
              height: Math.max(de ? de.scrollHeight : 0, document.body ? document.body.scrollHeight : 0),
              viewport: [window.innerWidth, window.innerHeight], nodes: [] };
  if (!de) return JSON.stringify(out);
  var WS = /[ \t\n\r\f]+/g;
  var range = document.createRange();
  function box(r) { return [r.left + sx, r.top + sy, r.width, r.height]; }
  function isTextNode(n) { return n && (n.nodeType === 3 || n.nodeType === 4); }
  // Name every child of `parent` (elements and text runs), like the loader does.
  function childNames(parent, parentPath) {
    var totals = {}, textTotal = 0, c;
    for (c = parent.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 1) { var t = c.localName.toLowerCase(); totals[t] = (totals[t] || 0) + 1; }
      else if (isTextNode(c)) { textTotal++; while (isTextNode(c.nextSibling)) c = c.nextSibling; }
    }
    var seen = {}, textSeen = 0, names = [];
    for (c = parent.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 1) {
        var tag = c.localName.toLowerCase();
        seen[tag] = (seen[tag] || 0) + 1;
        names.push([c, parentPath + "/" + tag + (totals[tag] > 1 ? "[" + seen[tag] + "]" : "")]);
      } else if (isTextNode(c)) {
        textSeen++;
        var run = [c];
        while (isTextNode(c.nextSibling)) { c = c.nextSibling; run.push(c); }
        names.push([run, parentPath + "/text()" + (textTotal > 1 ? "[" + textSeen + "]" : "")]);
      }
    }
    return names;
  }
  function elementVisible(el) {
    var st = window.getComputedStyle(el);
    if (!st) return false;
    if (st.display === "none" || st.visibility === "hidden" || st.visibility === "collapse") return false;
    if (parseFloat(st.opacity) === 0) return false;
    return true;
  }
  var stack = [[de, "/" + de.localName.toLowerCase(), true]];
  while (stack.length && out.nodes.length < maxNodes) {
    var item = stack.pop(), el = item[0], path = item[1], parentVisible = item[2];
    if (el === null) { // a text run (a leaf), queued in document order with its siblings
      out.nodes.push({ xpath: path, text: parentVisible.text, box: parentVisible.box,
                       visible: parentVisible.visible, words: parentVisible.words });
      continue;
    }
    var r = el.getBoundingClientRect();
    var vis = parentVisible && elementVisible(el);
    var shown = vis && (r.width > 0 || r.height > 0 || el.getClientRects().length > 0);
    out.nodes.push({ xpath: path, box: box(r), visible: shown });
    var tag = el.localName.toLowerCase();
    var raw = tag === "script" || tag === "style";
    var names = childNames(el, path);
    for (var i = names.length - 1; i >= 0; i--) {
      var child = names[i][0], childPath = names[i][1];
      if (Array.isArray(child)) {
        if (raw) continue;
        var data = "";
        for (var k = 0; k < child.length; k++) data += child[k].data;
        var text = data.replace(WS, " ").replace(/^ | $/g, "");
        if (!text) continue;
        // Boxes of the run and of each token (split on any white space, as the loader's words).
        range.setStart(child[0], 0);
        range.setEnd(child[child.length - 1], child[child.length - 1].length);
        var tr = range.getBoundingClientRect();
        var words = [];
        if (child.length === 1) {
          var re = /[^\s]+/g, m;
          while ((m = re.exec(data)) !== null) {
            range.setStart(child[0], m.index);
            range.setEnd(child[0], m.index + m[0].length);
            words.push(box(range.getBoundingClientRect()));
          }
        }
        stack.push([null, childPath, { text: text, box: box(tr), visible: vis && (tr.width > 0 || tr.height > 0), words: words }]);
      } else {
        stack.push([child, childPath, vis]);
      }
    }
  }
  out.truncated = stack.length > 0;
  return JSON.stringify(out);
})
)JS";

QString domSnapshotScript(int maxNodes)
{
    return QString::fromUtf8(kSnapshotScript) + QStringLiteral("(%1);").arg(maxNodes);
}

void captureDomSnapshot(QWebEnginePage *page, QObject *context,
                        std::function<void(const QByteArray &, const QString &)> done)
{
    QPointer<QObject> guard(context);
    page->runJavaScript(domSnapshotScript(), QWebEngineScript::ApplicationWorld,
                        [guard, done](const QVariant &result) {
                            if (!guard)
                                return;
                            if (result.typeId() != QMetaType::QString) {
                                done(QByteArray(), QStringLiteral("the snapshot script returned no result"));
                                return;
                            }
                            done(result.toString().toUtf8(), QString());
                        });
}

// ---- OffscreenSnapshot -------------------------------------------------------

OffscreenSnapshot::OffscreenSnapshot(QObject *parent)
    : QObject(parent)
    , m_view(new QWebEngineView)
    , m_timeout(new QTimer(this))
{
    m_page = new WebPage(m_view);
    m_view->setPage(m_page);
    m_view->setAttribute(Qt::WA_DontShowOnScreen, true);
    m_timeout->setSingleShot(true);
    connect(m_timeout, &QTimer::timeout, this, [this] { fail(QStringLiteral("%1: page did not load in time").arg(m_path)); });
}

OffscreenSnapshot::~OffscreenSnapshot()
{
    delete m_view; // deletes the page (its child)
}

WebPage *OffscreenSnapshot::page() const
{
    return m_page;
}

void OffscreenSnapshot::fail(const QString &message)
{
    if (m_done)
        return;
    m_done = true;
    m_timeout->stop();
    Q_EMIT failed(message);
}

void OffscreenSnapshot::start(const QString &path, bool javaScript, int viewportWidth, int timeoutMs)
{
    m_path = path;
    m_page->setJavaScriptEnabled(javaScript);
    m_view->resize(qBound(320, viewportWidth, 8192), 900);
    m_view->show();
    connect(m_page, &QWebEnginePage::loadFinished, this, [this](bool ok) {
        if (m_done)
            return;
        // loadFinished(false) also comes when the document loaded but a navigation it tried was
        // refused: only Chromium's account of the document itself makes it a failure.
        const WebLoadOutcome o = m_page->loadOutcome();
        const bool documentFailed = o.state == WebLoadOutcome::State::Failed || o.state == WebLoadOutcome::State::Stopped
                                    || o.errorPage;
        if (documentFailed || (!ok && o.state != WebLoadOutcome::State::Succeeded && o.state != WebLoadOutcome::State::Loading)) {
            fail(QStringLiteral("%1: the page could not be rendered: %2 (error %3)")
                     .arg(m_path, o.errorString.isEmpty() ? QStringLiteral("no reason given") : o.errorString)
                     .arg(o.errorCode));
            return;
        }
        captureDomSnapshot(m_page, this, [this](const QByteArray &json, const QString &error) {
            if (m_done)
                return;
            if (!error.isEmpty()) {
                fail(QStringLiteral("%1: %2").arg(m_path, error));
                return;
            }
            m_done = true;
            m_timeout->stop();
            // The requests this page tried and was refused (network, files outside its folder).
            QJsonObject o = QJsonDocument::fromJson(json).object();
            o.insert(QStringLiteral("blocked_requests"), m_page->interceptor()->blockedCount());
            Q_EMIT finished(QJsonDocument(o).toJson(QJsonDocument::Compact));
        });
    });
    QString error;
    if (!m_page->loadLocalFile(path, &error)) {
        QTimer::singleShot(0, this, [this, error] { fail(error); });
        return;
    }
    m_timeout->start(timeoutMs);
}

} // namespace folio
