#pragma once
// Model > Choose Model: the entity taggers Folio ships, each with what it does, what it was
// trained on and whether its licence allows commercial use (the full licence of the selected one
// beneath the list), the current model selected; then the token classifiers already in the Hugging
// Face cache (pipeline::cachedCheckpoints), by repo id; Other Folder… takes a user's own checkpoint
// (Folio's, or a Hugging Face LayoutLMv3 / LayoutLMv2 / LiLT token-classification folder), From
// Hugging Face… downloads one (HubDownloadDialog).
#include <QDialog>
#include <QString>

class QLabel;
class QTreeWidget;

namespace folio {

class ModelChooserDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ModelChooserDialog(const QString &currentModelDir, QWidget *parent = nullptr);

    // The folder chosen (a shipped model's, or the other folder picked); empty when none.
    QString chosenDirectory() const { return m_chosen; }
    // Selects the row of a shipped model by name (tests, keyboard users); false when not listed.
    bool selectModel(const QString &name);

private:
    void showLicenceOfSelection();
    void acceptSelection();
    void chooseOtherFolder();

    QTreeWidget *m_list = nullptr;
    QLabel *m_licence = nullptr;
    QString m_current;
    QString m_chosen;
};

} // namespace folio
