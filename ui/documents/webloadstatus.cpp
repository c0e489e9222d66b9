#include "ui/documents/webloadstatus.h"

#include <QCoreApplication>

namespace folio {

static QString tr(const char *text)
{
    return QCoreApplication::translate("folio", text); // the context lupdate gives a free tr() in the namespace
}

// Chromium's error in plain words where we know it, its own string otherwise.
static QString loadErrorInWords(const WebLoadOutcome &o)
{
    QString why = o.errorString.trimmed();
    if (o.errorCode == -6)
        why = tr("the file was not found (it may have been moved or deleted)");
    else if (o.errorCode == -10)
        why = tr("access to the file was refused");
    else if (o.errorCode == -3 || o.state == WebLoadOutcome::State::Stopped)
        why = tr("the load was cancelled before the page finished");
    else if (why.isEmpty())
        why = tr("the web engine gave no reason");
    if (o.errorCode != 0)
        why += QStringLiteral(" (error %1)").arg(o.errorCode);
    return why;
}

WebLoadStatus describeWebLoad(const WebLoadFacts &f)
{
    WebLoadStatus s;
    s.blockedLines = blockedRequestLines(f.log);
    s.blocked = int(s.blockedLines.size());
    s.served = servedResourceCount(f.log);
    if (s.blocked > 0) {
        s.blockedText = s.blocked == 1 ? tr("1 outside request blocked") : tr("%1 outside requests blocked").arg(s.blocked);
        QStringList tip;
        tip << tr("Folio shows saved pages offline: every request that leaves the page's folder is blocked, "
                  "so nothing is fetched from the web.")
            << tr("This page asked for %1:").arg(blockedRequestKinds(f.log));
        tip += blockedRequestLines(f.log, 15);
        tip << QString();
        if (s.served > 0)
            tip << tr("The page's own saved resources (%1) were shown; the blocked ones were not saved with it "
                      "and change only how the page looks, not its text, DOM tree or fields. Click for the full list.")
                       .arg(s.served);
        else
            tip << tr("Missing style sheets and images change only how the page looks, not its text, DOM tree "
                      "or fields. To see it as it looked, save it from the browser as \"Web Page, complete\" "
                      "(the HTML with its _files folder) or as a single file (.mhtml) and open that. "
                      "Click for the full list.");
        s.blockedToolTip = tip.join(QLatin1Char('\n'));
    }

    if (f.rendered) {
        s.text = tr("Rendered offline: %1 nodes placed on the page").arg(f.nodesPlaced);
        if (s.served > 0)
            s.text += s.served == 1 ? tr(", 1 saved resource shown") : tr(", %1 saved resources shown").arg(s.served);
        QStringList tip;
        tip << tr("%1 is shown as saved, with page scripts %2.").arg(f.fileName, f.scriptsOn ? tr("on") : tr("off"));
        if (f.nodesUnplaced > 0) // <head> content, comments, hidden parts: no cause for alarm in the header line
            tip << tr("%1 nodes of the file are not on the rendered page (the head, hidden parts, or parts styles "
                      "or scripts change); they stay in the DOM tree without a box.").arg(f.nodesUnplaced);
        if (!f.scriptsOn)
            tip << tr("If parts of the page are missing because it builds them with JavaScript, tick "
                      "\"Run page scripts\" (network access stays blocked).");
        s.toolTip = tip.join(QLatin1Char('\n'));
        return s;
    }

    s.failed = true;
    const bool loadFailed = f.outcome.state == WebLoadOutcome::State::Failed || f.outcome.state == WebLoadOutcome::State::Stopped
                            || f.outcome.errorPage;
    const QString why = loadFailed ? loadErrorInWords(f.outcome)
                                   : (f.snapshotError.isEmpty() ? tr("the page gave no layout") : f.snapshotError);
    s.text = tr("Could not render %1: %2").arg(f.fileName, why);
    s.toolTip = tr("The page view and the node boxes are missing; the text, the DOM tree and the fields are read "
                   "from the file itself and still work. Check that the file opens in a browser, then open it "
                   "again (File > Open Document) or tick \"Run page scripts\" to reload it.");
    return s;
}

} // namespace folio
