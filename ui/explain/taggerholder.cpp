#include "ui/explain/taggerholder.h"

namespace folio {

inference::TaggerExplainer *loadedTagger(TaggerHolder &holder, const QString &checkpointDir, QString *error)
{
    if (holder.explainer && holder.explainer->isLoaded() && holder.checkpoint == checkpointDir)
        return holder.explainer.get();
    holder.explainer.reset();
    holder.checkpoint.clear();
    auto explainer = std::make_unique<inference::TaggerExplainer>();
    std::string why;
    if (!explainer->load(checkpointDir.toStdString(), &why)) {
        if (error)
            *error = QString::fromStdString(why);
        return nullptr;
    }
    holder.explainer = std::move(explainer);
    holder.checkpoint = checkpointDir;
    return holder.explainer.get();
}

} // namespace folio
