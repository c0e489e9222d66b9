#pragma once
// What the web page header says after a load: true words for what happened and what the user can
// do. A page whose document loaded and whose DOM snapshot came back *rendered*, however many outside
// requests were blocked (Folio blocks every one by design); only a page that did not render failed,
// and then the message says why (Chromium's error, or the snapshot's).
//
//   WebLoadFacts f;
//   f.fileName = "shop.html"; f.outcome = page->loadOutcome(); f.rendered = true;
//   f.nodesPlaced = 312; f.log = page->requestLog();
//   const WebLoadStatus s = describeWebLoad(f);   // s.text for the header, s.blockedToolTip ...

#include "ui/documents/webpage.h"

#include <QString>
#include <QStringList>

namespace folio {

struct WebLoadFacts
{
    QString fileName;           // shown in messages (no folder)
    WebLoadOutcome outcome;     // WebPage::loadOutcome()
    bool rendered = false;      // the DOM snapshot came back and was merged
    QString snapshotError;      // why the snapshot did not come back ("" when it did)
    int nodesPlaced = 0;        // nodes that got a box
    int nodesUnplaced = 0;      // nodes of the file the rendered page did not have
    bool scriptsOn = false;
    QList<WebRequestRecord> log; // WebPage::requestLog()
};

struct WebLoadStatus
{
    bool failed = false;
    QString text;           // the header line
    QString toolTip;        // the header line's tooltip (what it means, what to do)
    int served = 0;         // distinct local resources the page was given (its saved CSS, images, ...)
    int blocked = 0;        // distinct blocked URLs
    QString blockedText;    // "14 outside requests blocked" ("" when none)
    QString blockedToolTip; // the kinds, the first URLs, what to do
    QStringList blockedLines; // every blocked URL (the list shown on click)
};

WebLoadStatus describeWebLoad(const WebLoadFacts &facts);

} // namespace folio
