#include "ui/training/modelchooserdialog.h"

#include "pipeline/hub/hubsettings.h"
#include "pipeline/hubmodels.h"
#include "pipeline/shippedmodels.h"
#include "ui/legibility.h"
#include "ui/shippedmodelinfo.h"
#include "ui/training/hubdownloaddialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace folio {

namespace {

enum Column { NameColumn, WhatColumn, DataColumn, UseColumn };
constexpr int kDirRole = Qt::UserRole;
constexpr int kLicenceRole = Qt::UserRole + 1;

bool sameFolder(const QString &a, const QString &b)
{
    return !a.isEmpty() && !b.isEmpty() && QDir(a).canonicalPath() == QDir(b).canonicalPath();
}

} // namespace

ModelChooserDialog::ModelChooserDialog(const QString &currentModelDir, QWidget *parent)
    : QDialog(parent), m_current(currentModelDir)
{
    setWindowTitle(tr("Choose Model"));
    setObjectName(QStringLiteral("modelChooserDialog"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("The entity taggers Folio ships, and those in the Hugging Face cache. Suggest Labels "
                                "runs the one you choose; Other Folder… takes your own checkpoint, From Hugging Face… "
                                "downloads one."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    m_list = new QTreeWidget(this);
    m_list->setObjectName(QStringLiteral("modelList"));
    m_list->setAccessibleName(tr("Models"));
    m_list->setHeaderLabels({tr("Model"), tr("What it does"), tr("Trained on"), tr("Use")});
    m_list->setRootIsDecorated(false);
    m_list->setWordWrap(true);
    m_list->setUniformRowHeights(false);
    m_list->header()->setSectionResizeMode(WhatColumn, QHeaderView::Stretch);
    for (const ShippedModelInfo &m : shippedModelInfos()) {
        if (!m.tagger)
            continue;
        const QString dir = pipeline::shippedModelDir(m.name, m.marker);
        auto *item = new QTreeWidgetItem(m_list, {m.name, m.what, m.data,
                                                 m.nonCommercial ? tr("non-commercial only") : tr("see licence")});
        item->setData(NameColumn, kDirRole, dir);
        item->setData(NameColumn, kLicenceRole, m.licence);
        item->setToolTip(WhatColumn, m.what);
        item->setToolTip(DataColumn, m.data);
        item->setToolTip(UseColumn, m.licence);
        if (m.nonCommercial)
            item->setForeground(UseColumn, warningTextColor(palette())); // light or dark palette (ui/legibility.h)
        if (dir.isEmpty()) {
            item->setText(NameColumn, tr("%1 (not installed)").arg(m.name));
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
        } else if (sameFolder(dir, m_current)) {
            m_list->setCurrentItem(item);
        }
    }
    // The entity taggers already in the Hugging Face cache (downloaded by Folio or by Python), by repo id.
    for (const pipeline::CachedCheckpoint &c : pipeline::cachedCheckpoints(hub::HubSettings::fromEnvironment().cacheDir)) {
        if (c.head != QLatin1String("token-classification"))
            continue;
        auto *item = new QTreeWidgetItem(m_list, {c.label(), c.task, tr("Hugging Face cache"), tr("see its model card")});
        item->setData(NameColumn, kDirRole, c.snapshotDir);
        item->setData(NameColumn, kLicenceRole, tr("the licence its model card (README.md in %1) states").arg(c.snapshotDir));
        item->setToolTip(NameColumn, c.snapshotDir);
        if (sameFolder(c.snapshotDir, m_current))
            m_list->setCurrentItem(item);
    }
    m_list->resizeColumnToContents(NameColumn);
    m_list->resizeColumnToContents(UseColumn);
    layout->addWidget(m_list, 1);

    m_licence = new QLabel(this);
    m_licence->setObjectName(QStringLiteral("modelLicence"));
    m_licence->setWordWrap(true);
    m_licence->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_licence);

    auto *current = new QLabel(m_current.isEmpty() ? tr("No model chosen yet.")
                                                   : tr("Current model: %1").arg(QDir::toNativeSeparators(m_current)),
                               this);
    current->setObjectName(QStringLiteral("currentModel"));
    current->setWordWrap(true);
    layout->addWidget(current);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    QPushButton *other = buttons->addButton(tr("Other Folder…"), QDialogButtonBox::ActionRole);
    other->setObjectName(QStringLiteral("otherFolderButton"));
    connect(other, &QPushButton::clicked, this, &ModelChooserDialog::chooseOtherFolder);
    QPushButton *fromHub = buttons->addButton(tr("From Hugging Face…"), QDialogButtonBox::ActionRole);
    fromHub->setObjectName(QStringLiteral("fromHubButton"));
    connect(fromHub, &QPushButton::clicked, this, [this] {
        HubDownloadDialog hubDialog(this);
        if (hubDialog.exec() == QDialog::Accepted && !hubDialog.snapshotDir().isEmpty()) {
            m_chosen = hubDialog.snapshotDir();
            accept();
        }
    });
    connect(buttons, &QDialogButtonBox::accepted, this, &ModelChooserDialog::acceptSelection);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QTreeWidget::currentItemChanged, this, &ModelChooserDialog::showLicenceOfSelection);
    connect(m_list, &QTreeWidget::itemDoubleClicked, this, &ModelChooserDialog::acceptSelection);
    layout->addWidget(buttons);
    if (!m_list->currentItem() && m_list->topLevelItemCount() > 0 && (m_list->topLevelItem(0)->flags() & Qt::ItemIsEnabled))
        m_list->setCurrentItem(m_list->topLevelItem(0));
    showLicenceOfSelection();
    resize(900, 380);
}

bool ModelChooserDialog::selectModel(const QString &name)
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_list->topLevelItem(i);
        if (item->text(NameColumn) == name && (item->flags() & Qt::ItemIsEnabled)) {
            m_list->setCurrentItem(item);
            return true;
        }
    }
    return false;
}

void ModelChooserDialog::showLicenceOfSelection()
{
    const QTreeWidgetItem *item = m_list->currentItem();
    // The row's cells are cut to the column widths: the selected model in full beneath them.
    m_licence->setText(item ? tr("<b>%1</b>: %2<br>Trained on: %3<br><b>Licence:</b> %4")
                                  .arg(item->text(NameColumn).toHtmlEscaped(), item->text(WhatColumn).toHtmlEscaped(),
                                       item->text(DataColumn).toHtmlEscaped(),
                                       item->data(NameColumn, kLicenceRole).toString().toHtmlEscaped())
                            : QString());
}

void ModelChooserDialog::acceptSelection()
{
    const QTreeWidgetItem *item = m_list->currentItem();
    if (!item || !(item->flags() & Qt::ItemIsEnabled))
        return;
    m_chosen = item->data(NameColumn, kDirRole).toString();
    accept();
}

void ModelChooserDialog::chooseOtherFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Choose a model checkpoint folder"), m_current);
    if (dir.isEmpty())
        return;
    m_chosen = dir;
    accept();
}

} // namespace folio
