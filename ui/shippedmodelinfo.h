#pragma once
// The models Folio ships, as the GUI names them: what each does, what it was trained on and under
// which licence (RECIPE.md of each folder has the full story). The About box lists them all;
// Model > Choose Model offers the entity taggers among them (ui/training/modelchooserdialog.h).
#include <QList>
#include <QString>

namespace folio {

struct ShippedModelInfo
{
    QString name;         // folder under resources/models
    QString marker;       // a file that folder holds
    QString what;
    QString data;         // what it was trained on
    QString licence;      // the training data's licence and what it means for the weights
    bool tagger = false;  // an entity tagger Choose Model / Suggest Labels can run
    bool nonCommercial = false; // its training data forbids commercial use
};

// The models of README "Models Folio ships", in the order the README lists them.
QList<ShippedModelInfo> shippedModelInfos();

} // namespace folio
