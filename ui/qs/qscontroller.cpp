#include "ui/qs/qscontroller.h"

#include "document/qstree.h"
#include "ui/annotation/annotationsession.h"
#include "ui/commands/fieldcommands.h"
#include "ui/commands/qscommands.h"
#include "ui/qs/qspanel.h"
#include "ui/workers/qsworker.h"
#include "ui/documents/scanpanel.h"
#include "ui/documents/sectionspanel.h"
#include "ui/documents/webpage.h"
#include "ui/documents/webpagepanel.h"
#include "widgets/pagecanvas.h"
#include "pipeline/shippedmodels.h"

#include <QAction>
#include <QActionGroup>
#include <QSettings>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QListWidget>
#include <QMainWindow>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QWebEngineScript>

namespace folio {

QsController::QsController(QMainWindow *window, AnnotationSession *session, ScanPanel *scan, WebPagePanel *web,
                           SectionsPanel *sections)
    : QObject(window), m_window(window), m_session(session), m_scan(scan), m_web(web), m_sectionsPanel(sections)
{
    auto *page = new QWidget(window);
    m_panel = new QsPanel(session, page);
    m_worker = new QsWorker(this);
    m_progress = new QProgressBar(page);
    m_progress->setObjectName(QStringLiteral("qsProgress"));
    m_cancel = new QPushButton(tr("Cancel"), page);
    m_cancel->setObjectName(QStringLiteral("qsCancel"));
    auto *busyRow = new QHBoxLayout;
    busyRow->addWidget(m_progress, 1);
    busyRow->addWidget(m_cancel);
    // While a drafter run goes on, its questions appear here as they are drafted (the items, with
    // their evidence, replace this list as suggestions when the run ends).
    m_arrivals = new QListWidget(page);
    m_arrivals->setObjectName(QStringLiteral("qsArrivals"));
    m_arrivals->setAccessibleName(tr("Generated questions"));
    m_arrivals->setWordWrap(true);
    m_arrivals->setMaximumHeight(160);
    m_arrivals->setToolTip(tr("Questions drafted so far"));
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_panel, 1);
    layout->addWidget(m_arrivals);
    layout->addLayout(busyRow);
    setBusy(false);
    m_dock = new QDockWidget(tr("Questions"), window);
    m_dock->setObjectName(QStringLiteral("qsDock"));
    m_dock->setWidget(page);

    connect(m_panel, &QsPanel::currentItemChanged, this, &QsController::highlightEvidence);
    m_panel->setWordSource([this]() -> QStringList {
        if (!m_web || !m_web->page() || m_session->document().kind != SourceKind::Html)
            return {};
        const QString selected = m_web->page()->selectedText();
        return selected.trimmed().isEmpty() ? QStringList() : fieldedits::wordsSpelling(m_session->document(), selected);
    });
    connect(m_panel, &QsPanel::regenerateRequested, this, [this](const QString &id) { generate(id); });
    connect(m_cancel, &QPushButton::clicked, this, &QsController::cancel);
    connect(m_worker, &QsWorker::progress, this, [this](int step, int max) {
        m_progress->setRange(0, std::max(1, max));
        m_progress->setValue(step);
    });
    connect(m_worker, &QsWorker::drafted, this, [this](int count, int depth, const QString &question) {
        auto *row = new QListWidgetItem(QString(std::max(0, depth - 1) * 4, QLatin1Char(' ')) + question, m_arrivals);
        row->setToolTip(question);
        m_arrivals->setVisible(true);
        m_arrivals->scrollToItem(row);
        m_progress->setFormat(tr("%1 drafted \u2014 %p%").arg(count));
    });
    connect(m_worker, &QsWorker::generated, this, &QsController::onGenerated);
    connect(m_worker, &QsWorker::failed, this, [this](const QString &message) {
        setBusy(false);
        showMessage(tr("Generation failed: %1").arg(message));
        Q_EMIT generationFinished(-1);
    });
    connect(m_worker, &QsWorker::cancelled, this, [this] {
        setBusy(false);
        showMessage(tr("Generation cancelled; the hierarchy is unchanged."));
        Q_EMIT generationFinished(-1);
    });
    if (m_sectionsPanel)
        connect(m_sectionsPanel->tree(), &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
            const int index = item ? item->data(0, Qt::UserRole).toInt() : -1;
            m_panel->setPickedSection(index, SectionsPanel::sectionWordIds(m_session->document(), index));
        });
    // The views are rebuilt after these (MainWindow / panels): paint the evidence again once they are.
    const auto again = [this] { QMetaObject::invokeMethod(this, [this] { highlightEvidence(m_panel->currentId()); }, Qt::QueuedConnection); };
    connect(m_session, &AnnotationSession::documentReplaced, this, again);
    connect(m_session, &AnnotationSession::documentOpened, this, again);
    if (m_web)
        connect(m_web, &WebPagePanel::rendered, this, again);
    m_neuralQuestions = QSettings().value(QStringLiteral("qs/questions")).toString() == QLatin1String("neural");
}

QsController::~QsController() = default;

void QsController::addModelActions(QMenu *model)
{
    model->addSeparator();
    QAction *gen = model->addAction(tr("Generate &Question-Summary Hierarchy"), this, [this] { generate(); });
    gen->setObjectName(QStringLiteral("generateQsAction"));
    gen->setShortcut(QKeySequence(tr("Ctrl+Shift+G")));
    model->addAction(tr("Choose QS Model…"), this, &QsController::chooseCheckpointDialog);
    QMenu *questions = model->addMenu(tr("Questions"));
    questions->setObjectName(QStringLiteral("qsQuestionsMenu"));
    questions->setToolTipsVisible(true);
    auto *group = new QActionGroup(questions);
    m_templatesAction = questions->addAction(tr("Templates"));
    m_templatesAction->setToolTip(tr("Question forms mined from QMSum's queries, filled with the section's topic (the default)"));
    m_neuralAction = questions->addAction(tr("Neural question writer (qs-questions)"));
    m_neuralAction->setObjectName(QStringLiteral("qsNeuralQuestionsAction"));
    m_neuralAction->setToolTip(tr("A small question generator writes each question from the item's summary and evidence; "
                                  "templates where it gives nothing new"));
    for (QAction *a : {m_templatesAction, m_neuralAction}) {
        a->setCheckable(true);
        group->addAction(a);
    }
    (m_neuralQuestions ? m_neuralAction : m_templatesAction)->setChecked(true);
    connect(m_neuralAction, &QAction::toggled, this, [this](bool on) { setNeuralQuestions(on); });
}

void QsController::setNeuralQuestions(bool on)
{
    m_neuralQuestions = on;
    QSettings().setValue(QStringLiteral("qs/questions"), on ? QStringLiteral("neural") : QStringLiteral("templates"));
    if (m_neuralAction && m_neuralAction->isChecked() != on)
        (on ? m_neuralAction : m_templatesAction)->setChecked(true);
}

QString QsController::checkpointDir() const
{
    if (!m_checkpoint.isEmpty())
        return m_checkpoint;
    if (m_session->project()) {
        const QString stored = m_session->project()->setting(QStringLiteral("qs_model"));
        if (!stored.isEmpty())
            return stored;
    }
    return QsWorker::shippedCheckpoint();
}

void QsController::setCheckpointDir(const QString &dir)
{
    m_checkpoint = dir;
    QString error;
    if (m_session->project() && !m_session->project()->setSetting(QStringLiteral("qs_model"), dir, &error))
        showMessage(error);
}

void QsController::chooseCheckpointDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(m_window, tr("Choose a question-summary checkpoint"), checkpointDir());
    if (!dir.isEmpty())
        setCheckpointDir(dir);
}

void QsController::showMessage(const QString &text)
{
    m_lastMessage = text;
    m_panel->showMessage(text);
}

void QsController::setBusy(bool busy)
{
    m_progress->setVisible(busy);
    m_cancel->setVisible(busy);
    m_progress->setRange(0, 0);
    m_progress->resetFormat();
    m_arrivals->clear();
    m_arrivals->setVisible(false); // shown once the first draft arrives
}

bool QsController::generate(const QString &belowId)
{
    if (m_session->currentDocumentId() < 0) {
        showMessage(tr("Open a document first."));
        return false;
    }
    if (m_worker->isBusy()) {
        showMessage(tr("A generation is already running."));
        return false;
    }
    const Document &doc = m_session->document();
    const pipeline::QsInput input = qsWorkerInput(doc, m_session->annotations(), belowId);
    QString questionModel;
    if (m_neuralQuestions) {
        questionModel = pipeline::shippedQsQuestionsDir();
        if (questionModel.isEmpty()) {
            showMessage(tr("The neural question writer (resources/models/qs-questions) is not installed: "
                           "choose Model > Questions > Templates."));
            return false;
        }
    }
    m_worker->setQuestionModel(questionModel);
    std::vector<int> evidenceWords; // below an item: the drafter reads that item's evidence
    if (const QsNode *below = belowId.isEmpty() ? nullptr : qsFind(m_session->annotations().qsRoots, belowId))
        evidenceWords = qsEvidenceWords(doc, qsWordIndex(doc), *below);
    if (!m_worker->generate(checkpointDir(), input, belowId, m_maxLength, doc, evidenceWords))
        return false;
    setBusy(true);
    showMessage(belowId.isEmpty() ? tr("Generating a question-summary hierarchy…") : tr("Generating below the item…"));
    return true;
}

void QsController::cancel() { m_worker->cancel(); }

void QsController::onGenerated(const QsGeneration &g)
{
    setBusy(false);
    int added = 0;
    const AnnotationSource source{AnnotationSource::Model, g.checkpoint};
    const bool below = !g.belowId.isEmpty();
    const bool changed = pushQsEdit(m_session, below ? tr("Regenerate below question") : tr("Generate questions"), [&](Annotations &a) {
        if (below && !qsFind(a.qsRoots, g.belowId))
            return false; // the item went away while the model ran
        const Annotations before = a;
        added = qsedit::mergeGenerated(a, g.rootSummary, g.roots, source, g.belowId);
        return added > 0 || qsItems(a.qsRoots).size() != qsItems(before.qsRoots).size() || a.qsSummary != before.qsSummary;
    });
    QString text = changed ? tr("%n suggestion(s) added; accept with A, reject with R.", nullptr, added)
                           : tr("The model suggested nothing new.");
    if (g.int8)
        text += tr(" (%1 in int8)").arg(g.checkpoint);
    if (!g.warnings.isEmpty())
        text += QLatin1Char(' ') + g.warnings.join(QLatin1String("; "));
    showMessage(text);
    Q_EMIT generationFinished(added);
}

QString QsController::webOverlayScript(const Document &doc, const QList<int> &words)
{
    // One box per run of evidence words sharing a DOM node: [x, y, w, h].
    QJsonArray boxes;
    QRectF run;
    int runNode = -2;
    const auto flush = [&] {
        if (!run.isNull()) boxes.append(QJsonArray{run.x(), run.y(), run.width(), run.height()});
        run = QRectF();
    };
    for (int i : words) {
        if (i < 0 || i >= int(doc.words.size())) continue;
        const Word &w = doc.words[size_t(i)];
        if (w.box.isEmpty()) continue;
        if (w.node != runNode) flush();
        runNode = w.node;
        run = run.isNull() ? w.box : run.united(w.box);
        if (boxes.size() > 20000) break; // a whole-book section: enough to see where it is
    }
    flush();
    return QStringLiteral(
               "(function(rects){var id='__folio_qs_evidence',layer=document.getElementById(id);if(layer)layer.remove();"
               "if(rects.length===0)return 0;layer=document.createElement('div');layer.id=id;"
               "layer.style.cssText='position:absolute;left:0;top:0;pointer-events:none;z-index:2147483644';"
               "rects.forEach(function(r){var e=document.createElement('div');e.className='__folio_qs_box';"
               "e.style.cssText='position:absolute;left:'+r[0]+'px;top:'+r[1]+'px;width:'+r[2]+'px;height:'+r[3]+"
               "'px;background:rgba(40,170,60,0.28);border-bottom:2px solid rgb(40,150,60)';layer.appendChild(e);});"
               "document.documentElement.appendChild(layer);window.scrollTo(0,Math.max(0,rects[0][1]-80));"
               "return rects.length;})(%1)")
        .arg(QString::fromUtf8(QJsonDocument(boxes).toJson(QJsonDocument::Compact)));
}

void QsController::paintSections()
{
    if (!m_sectionsPanel)
        return;
    std::vector<QTreeWidgetItem *> stack;
    QTreeWidget *tree = m_sectionsPanel->tree();
    for (int i = 0; i < tree->topLevelItemCount(); ++i) stack.push_back(tree->topLevelItem(i));
    while (!stack.empty()) {
        QTreeWidgetItem *item = stack.back();
        stack.pop_back();
        const bool on = m_sections.contains(item->data(0, Qt::UserRole).toInt());
        for (int c = 0; c < tree->columnCount(); ++c)
            item->setBackground(c, on ? QBrush(QColor(40, 170, 60, 70)) : QBrush());
        QFont f = item->font(0);
        f.setBold(on);
        item->setFont(0, f);
        if (on && item->parent()) tree->expandItem(item->parent());
        for (int k = 0; k < item->childCount(); ++k) stack.push_back(item->child(k));
    }
}

void QsController::highlightEvidence(const QString &id)
{
    const Document &doc = m_session->document();
    const QsNode *node = qsFind(m_session->annotations().qsRoots, id);
    m_words.clear();
    m_sections.clear();
    if (node) {
        for (int i : qsEvidenceWords(doc, qsWordIndex(doc), *node)) m_words << i;
        for (int s : qsEvidenceSectionIndices(doc, *node)) m_sections << s;
    }
    if (m_scan) {
        PageCanvas *canvas = m_scan->canvas();
        bool onPage = false;
        for (int i : m_words)
            if (doc.words[size_t(i)].page == canvas->page()) { onPage = true; break; }
        if (!onPage && !m_words.isEmpty() && doc.kind != SourceKind::Html)
            m_scan->showPage(doc.words[size_t(m_words.first())].page);
        canvas->setHighlightedWords(m_words);
    }
    if (m_web && m_web->page() && m_web->isRendered())
        m_web->page()->runJavaScript(webOverlayScript(doc, m_words), QWebEngineScript::ApplicationWorld);
    paintSections();
}

} // namespace folio
