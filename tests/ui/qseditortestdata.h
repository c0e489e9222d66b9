#pragma once
// Shared by the question-summary editor GUI tests (tst_qseditor, tst_qsgeneration): a two-page,
// two-section sample document in a fresh project, the hierarchy as numbered lines, opening a
// project in the main window, typing into the cell editor the last add opened.
#include "document/project/project.h"
#include "document/qstree.h"
#include "ui/annotation/annotationsession.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

namespace folio::test {

// Two pages, 12 words "w0".."w11" (6 per page) in two sections: "Budget" (heading node, words
// 0..5) and "Staff" (words 6..11).
inline Document sampleDocument()
{
    Document d;
    d.sourcePath = QStringLiteral("report.png");
    d.kind = SourceKind::Image;
    d.title = QStringLiteral("Report");
    for (int p = 0; p < 2; ++p) {
        Page page;
        page.size = QSizeF(600, 400);
        d.pages.push_back(page);
    }
    Node heading;
    heading.id = QStringLiteral("n0");
    d.nodes.push_back(heading);
    const QStringList texts = {"Budget", "rose", "by", "ten", "per", "cent", "Staff", "numbers", "stayed", "the", "same", "overall"};
    for (int i = 0; i < texts.size(); ++i) {
        Word w;
        w.id = QStringLiteral("w%1").arg(i);
        w.text = texts[i];
        w.page = i / 6;
        w.box = QRectF(40 + (i % 6) * 90, 60, 80, 30);
        d.words.push_back(w);
    }
    d.normaliseWordBoxes();
    for (const QString &title : {QStringLiteral("Budget"), QStringLiteral("Staff")}) {
        Section s;
        s.title = title;
        s.level = 1;
        s.firstWord = int(d.sections.size()) * 6;
        s.endWord = s.firstWord + 6;
        s.node = d.sections.empty() ? 0 : -1; // only the first has a heading node
        d.sections.push_back(s);
    }
    return d;
}

inline QString makeProject(const QTemporaryDir &dir, const QString &name = QStringLiteral("qs.folio"))
{
    const QString path = dir.filePath(name);
    QString error;
    auto p = Project::create(path, &error);
    if (!p || p->addDocument(sampleDocument(), Annotations(), &error) < 0)
        qWarning("%s", qPrintable(error));
    return path;
}

inline QStringList numbered(const Annotations &a)
{
    QStringList out;
    for (const QsItem &it : qsItems(a.qsRoots)) out << it.number + QLatin1Char(' ') + it.node->question;
    return out;
}

inline bool openIn(MainWindow &w, const QString &projectPath)
{
    QSignalSpy shown(&w, &MainWindow::documentShown);
    if (!w.openProject(projectPath))
        return false;
    if (w.session()->currentDocumentId() < 0 && !shown.wait(10000))
        return w.session()->openDocumentAt(0);
    return w.session()->currentDocumentId() >= 0;
}

// Types `text` into the cell editor that the last add opened and commits it with Return.
inline void typeIntoEditor(const QString &text)
{
    QWidget *editor = QApplication::focusWidget();
    QVERIFY(qobject_cast<QLineEdit *>(editor));
    QTest::keyClicks(editor, text);
    QTest::keyClick(editor, Qt::Key_Return);
    QCoreApplication::processEvents(); // the edit is applied queued, after the editor closed
    QCoreApplication::processEvents();
}

} // namespace folio::test
