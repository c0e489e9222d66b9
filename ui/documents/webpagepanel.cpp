#include "ui/documents/webpagepanel.h"

#include "document/html/domsnapshot.h"
#include "ui/documents/webpage.h"
#include "ui/documents/websnapshot.h"

#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QMouseEvent>
#include <QPlainTextEdit>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWebEngineScript>
#include <QWebEngineView>

namespace folio {

WebPagePanel::WebPagePanel(QWidget *parent)
    : QWidget(parent)
    , m_view(new QWebEngineView(this))
    , m_scripts(new QCheckBox(tr("Run page scripts"), this))
    , m_status(new QLabel(this))
    , m_blocked(new QToolButton(this))
{
    m_status->setObjectName(QStringLiteral("webStatus"));
    m_blocked->setObjectName(QStringLiteral("blockedRequests"));
    m_blocked->setAccessibleName(tr("Blocked requests"));
    m_blocked->setAutoRaise(true);
    m_blocked->hide();
    connect(m_blocked, &QToolButton::clicked, this, &WebPagePanel::showBlockedRequests);
    m_page = new WebPage(m_view);
    m_view->setPage(m_page);
    m_view->setContextMenuPolicy(Qt::NoContextMenu);
    m_scripts->setToolTip(tr("Let this page run its own JavaScript (network access stays blocked)"));

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(m_scripts);
    bar->addStretch(1);
    bar->addWidget(m_status);
    bar->addWidget(m_blocked);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    connect(m_page, &QWebEnginePage::loadFinished, this, &WebPagePanel::onLoadFinished);
    connect(m_scripts, &QCheckBox::toggled, this, [this](bool on) { setScriptsEnabled(on); });
}

WebPagePanel::~WebPagePanel() = default;

void WebPagePanel::setDocument(const Document &doc)
{
    m_doc = doc;
    m_selected = -1;
    const bool trusted = m_scriptsAllowed.contains(doc.sourcePath);
    m_scripts->blockSignals(true);
    m_scripts->setChecked(trusted);
    m_scripts->blockSignals(false);
    load();
}

void WebPagePanel::setScriptsEnabled(bool enabled)
{
    if (enabled)
        m_scriptsAllowed.insert(m_doc.sourcePath);
    else
        m_scriptsAllowed.remove(m_doc.sourcePath);
    if (m_scripts->isChecked() != enabled) {
        m_scripts->blockSignals(true);
        m_scripts->setChecked(enabled);
        m_scripts->blockSignals(false);
    }
    if (!m_doc.sourcePath.isEmpty())
        load();
}

void WebPagePanel::load()
{
    m_rendered = false;
    m_loading = false;
    m_loadStatus = WebLoadStatus();
    m_blocked->hide();
    m_status->setToolTip(QString());
    m_page->setJavaScriptEnabled(m_scriptsAllowed.contains(m_doc.sourcePath));
    if (m_doc.kind != SourceKind::Html || m_doc.sourcePath.isEmpty()) {
        m_page->setHtml(QString());
        m_status->setText(tr("Not a web page"));
        return;
    }
    QString error;
    m_status->setText(tr("Loading %1 offline…").arg(QFileInfo(m_doc.sourcePath).fileName()));
    m_loading = true;
    if (!m_page->loadLocalFile(m_doc.sourcePath, &error)) {
        m_loading = false;
        WebLoadStatus s;
        s.failed = true;
        s.text = tr("Could not render %1").arg(error);
        s.toolTip = tr("The page view and the node boxes are missing; the text, the DOM tree and the fields are "
                       "read from the project. Put the file back where it was, or open it again from its new place.");
        showStatus(s);
        Q_EMIT failed(s.text);
    }
}

void WebPagePanel::showStatus(const WebLoadStatus &status)
{
    m_loadStatus = status;
    m_status->setText(status.text);
    m_status->setToolTip(status.toolTip);
    m_blocked->setVisible(status.blocked > 0);
    m_blocked->setText(status.blockedText);
    m_blocked->setToolTip(status.blockedToolTip);
}

void WebPagePanel::finishLoad(const WebLoadFacts &facts)
{
    m_loading = false;
    const WebLoadStatus status = describeWebLoad(facts);
    showStatus(status);
    if (status.failed)
        Q_EMIT failed(status.text);
}

void WebPagePanel::showBlockedRequests()
{
    auto *dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("blockedRequestsDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Requests blocked for %1").arg(QFileInfo(m_doc.sourcePath).fileName()));
    auto *layout = new QVBoxLayout(dialog);
    auto *intro = new QLabel(tr("Folio shows saved pages offline and blocked these requests, so nothing was fetched "
                                "from the web. To see the page with its own styles and images, save it from the "
                                "browser as \"Web Page, complete\" and open that."),
                             dialog);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto *list = new QPlainTextEdit(m_loadStatus.blockedLines.join(QLatin1Char('\n')), dialog);
    list->setObjectName(QStringLiteral("blockedRequestsList"));
    list->setReadOnly(true);
    list->setLineWrapMode(QPlainTextEdit::NoWrap);
    layout->addWidget(list, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(buttons);
    dialog->resize(760, 420);
    dialog->show();
}

void WebPagePanel::onLoadFinished(bool ok)
{
    if (m_doc.sourcePath.isEmpty() || m_rendered)
        return; // a later loadFinished(false) is a refused navigation: the page stays as it was
    WebLoadFacts facts;
    facts.fileName = QFileInfo(m_doc.sourcePath).fileName();
    facts.outcome = m_page->loadOutcome();
    facts.scriptsOn = m_page->javaScriptEnabled();
    facts.log = m_page->requestLog();
    if (!ok && facts.outcome.errorCode == -3)
        return; // ERR_ABORTED: this load was replaced by a newer one, whose own verdict follows
    // loadFinished(false) also comes when the page's own document loaded but something else did
    // not (a refused navigation, a blocked frame): only Chromium's account of the document decides.
    const bool documentFailed = facts.outcome.state == WebLoadOutcome::State::Failed
                                || facts.outcome.state == WebLoadOutcome::State::Stopped || facts.outcome.errorPage;
    if (documentFailed || (!ok && facts.outcome.state != WebLoadOutcome::State::Succeeded
                           && facts.outcome.state != WebLoadOutcome::State::Loading)) {
        finishLoad(facts);
        return;
    }
    // Clicks: the view's render widget appears after the first load.
    if (QWidget *proxy = m_view->focusProxy(); proxy && proxy != m_filtered) {
        proxy->installEventFilter(this);
        m_filtered = proxy;
    }
    const QString path = m_doc.sourcePath;
    captureDomSnapshot(m_page, this, [this, path, facts](const QByteArray &json, const QString &error) mutable {
        if (path != m_doc.sourcePath || m_rendered)
            return; // a newer document replaced this one, or this load was handled already
        DomSnapshot snapshot;
        QString why = error;
        if (why.isEmpty() && !parseDomSnapshotJson(json, &snapshot, &why))
            why = tr("its layout could not be read (%1)").arg(why);
        facts.log = m_page->requestLog(); // requests made while the page settled count too
        if (!why.isEmpty()) {
            facts.snapshotError = why;
            finishLoad(facts);
            return;
        }
        const SnapshotMergeStats stats = mergeDomSnapshot(&m_doc, snapshot);
        m_rendered = true;
        facts.rendered = true;
        facts.nodesPlaced = stats.nodesMatchedByXPath + stats.textNodesMatchedByText;
        facts.nodesUnplaced = stats.nodesUnmatched;
        finishLoad(facts);
        if (m_selected > 0)
            drawOutline(m_selected);
        drawNodeColors();
        Q_EMIT rendered(m_doc);
    });
}

int WebPagePanel::nodeAt(const QPointF &p) const
{
    int best = -1;
    double bestArea = 0;
    for (int i = 1; i < int(m_doc.nodes.size()); ++i) {
        const Node &n = m_doc.nodes[size_t(i)];
        if (n.box.isNull() || !n.visible || n.box.isEmpty() || !n.box.contains(p))
            continue;
        const double area = n.box.width() * n.box.height();
        // Ties go to the later (deeper) node: children come after parents.
        if (best < 0 || area <= bestArea) {
            best = i;
            bestArea = area;
        }
    }
    return best;
}

void WebPagePanel::selectNode(int node)
{
    if (node < 0 || node >= int(m_doc.nodes.size()))
        return;
    m_selected = node;
    if (m_rendered)
        drawOutline(node);
}

void WebPagePanel::drawOutline(int node)
{
    const QRectF b = m_doc.nodes[size_t(node)].box;
    if (b.isNull()) {
        m_page->runJavaScript(QStringLiteral("(function(){var d=document.getElementById('__folio_outline');if(d)d.remove();})()"),
                              QWebEngineScript::ApplicationWorld);
        return;
    }
    // An overlay (not a style change on the node) so the page's own CSS is left alone.
    const QString js = QStringLiteral(
        "(function(x,y,w,h){var d=document.getElementById('__folio_outline');"
        "if(!d){d=document.createElement('div');d.id='__folio_outline';"
        "d.style.cssText='position:absolute;pointer-events:none;z-index:2147483647;box-sizing:border-box;"
        "border:2px solid #e0218a;background:rgba(224,33,138,0.12)';document.documentElement.appendChild(d);}"
        "d.style.left=x+'px';d.style.top=y+'px';d.style.width=Math.max(w,2)+'px';d.style.height=Math.max(h,2)+'px';"
        "if(y<window.scrollY||y+h>window.scrollY+window.innerHeight)window.scrollTo(window.scrollX,Math.max(0,y-40));"
        "})(%1,%2,%3,%4)").arg(b.x()).arg(b.y()).arg(b.width()).arg(b.height());
    m_page->runJavaScript(js, QWebEngineScript::ApplicationWorld);
}

void WebPagePanel::setNodeColors(const QHash<int, QColor> &colors)
{
    m_nodeColors = colors;
    if (m_rendered)
        drawNodeColors();
}

void WebPagePanel::drawNodeColors()
{
    // [[x, y, w, h, "rgba(...)"], ...] for the coloured nodes that have a box (at most 20000).
    QJsonArray boxes;
    for (auto it = m_nodeColors.cbegin(); it != m_nodeColors.cend() && boxes.size() < 20000; ++it) {
        if (it.key() <= 0 || it.key() >= int(m_doc.nodes.size()))
            continue;
        const QRectF b = m_doc.nodes[size_t(it.key())].box;
        if (b.isNull() || b.isEmpty())
            continue;
        const QColor c = it.value();
        boxes.append(QJsonArray{b.x(), b.y(), b.width(), b.height(),
                                QStringLiteral("rgba(%1,%2,%3,%4)").arg(c.red()).arg(c.green()).arg(c.blue()).arg(c.alphaF())});
    }
    const QString js = QStringLiteral(
        "(function(boxes){var old=document.getElementById('__folio_heat');if(old)old.remove();"
        "if(!boxes.length)return;var layer=document.createElement('div');layer.id='__folio_heat';"
        "layer.style.cssText='position:absolute;left:0;top:0;pointer-events:none;z-index:2147483646';"
        "for(var i=0;i<boxes.length;i++){var b=boxes[i],d=document.createElement('div');"
        "d.style.cssText='position:absolute;left:'+b[0]+'px;top:'+b[1]+'px;width:'+b[2]+'px;height:'+b[3]+'px;background:'+b[4];"
        "layer.appendChild(d);}document.documentElement.appendChild(layer);})(%1)")
                           .arg(QString::fromUtf8(QJsonDocument(boxes).toJson(QJsonDocument::Compact)));
    m_page->runJavaScript(js, QWebEngineScript::ApplicationWorld);
}

bool WebPagePanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_filtered && event->type() == QEvent::MouseButtonRelease && m_rendered) {
        auto *me = static_cast<QMouseEvent *>(event);
        if (me->button() == Qt::LeftButton) {
            const double zoom = m_page->zoomFactor() > 0 ? m_page->zoomFactor() : 1.0;
            const QPointF pagePoint = me->position() / zoom + m_page->scrollPosition();
            const int node = nodeAt(pagePoint);
            if (node > 0) {
                selectNode(node);
                Q_EMIT nodeSelected(node);
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace folio
