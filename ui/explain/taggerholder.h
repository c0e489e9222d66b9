#pragma once
// The layout tagger the What If and Why This Label docks run (issue 48): one TaggerExplainer per
// dock, loaded in that dock's one-thread pool when its checkpoint changes and used only there.

#include "inference/formtagger/taggerexplain.h"

#include <QString>

#include <memory>

namespace folio {

struct TaggerHolder
{
    QString checkpoint;
    std::unique_ptr<inference::TaggerExplainer> explainer;
};

// `holder`'s explainer for `checkpointDir`, loading it when another (or none) is held. nullptr +
// *error (the loader's message, naming the folder) when it cannot be loaded.
inference::TaggerExplainer *loadedTagger(TaggerHolder &holder, const QString &checkpointDir, QString *error);

} // namespace folio
