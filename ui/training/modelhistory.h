#pragma once
// ModelHistory: the model before the last replacement, so that one click goes back (issue 46's
// regression guard: a fine-tuned model replaces the current one only when the user accepts it, and
// Model > Go Back to Previous Model restores the one it replaced). Going back swaps the two, so a
// second click returns to the newer model.
//
//   auto *history = new folio::ModelHistory(window, [w] { return w->modelDirectory(); },
//                                           [w](const QString &dir) { w->setModelDirectory(dir); });
//   modelMenu->addAction(history->goBackAction());
//   history->replace(dialog.checkpointDir());   // after the user accepted the new model
#include <QObject>
#include <QString>

#include <functional>

class QAction;

namespace folio {

class ModelHistory : public QObject
{
    Q_OBJECT
public:
    ModelHistory(QObject *parent, std::function<QString()> current, std::function<void(const QString &)> use);
    QAction *goBackAction() const { return m_goBack; }
    QString previous() const { return m_previous; }
    // Makes `checkpointDir` the model; the current one becomes the previous one.
    void replace(const QString &checkpointDir);
    // The previous model becomes the model again (and the current one the previous); false when none.
    bool goBack();

private:
    void update();

    std::function<QString()> m_current;
    std::function<void(const QString &)> m_use;
    QString m_previous;
    QAction *m_goBack;
};

} // namespace folio
