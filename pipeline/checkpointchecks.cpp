// describeCheckpoint with every check (checkpointinfo.h): the six that live in LibTorch-linked code
// (the model registry, the tagger ensemble's checks, the drafter's and the seq2seq vocabulary's
// loaders, MarkupLM's folder check) given to the description in checkpointinfo.cpp, which links
// none of them itself, so that folio-cli-front can describe a Hub download without loading
// LibTorch (issue 46). The Hub cache's list (hubmodels.h) with these checks is here too.
#include "pipeline/checkpointinfo.h"
#include "pipeline/hubmodels.h"

#include "inference/formtagger/predictor.h"
#include "inference/models/hfmarkuplm.h"
#include "inference/models/modelrunner.h"
#include "pipeline/qs/draft/drafter.h"
#include "pipeline/qs/qsinputs.h"

namespace folio::pipeline {

namespace {

bool loadDrafter(const QString &dir, QString *error)
{
    QsDrafter drafter;
    return drafter.load(dir, error);
}

bool loadVocabulary(const QString &dir, QString *error)
{
    QsVocabulary vocab;
    return loadQsVocabulary(dir, &vocab, error);
}

const detail::CheckpointChecks &everyCheck()
{
    static const detail::CheckpointChecks checks{&inference::ModelRunner::supportedModelTypes, &inference::taggerEnsembleMembers,
                                                 &inference::checkTaggerEnsemble, &loadDrafter, &loadVocabulary,
                                                 &inference::HfMarkupLM::checkFolder};
    return checks;
}

} // namespace

nlohmann::json describeCheckpoint(const QString &dir)
{
    return detail::describeCheckpointWith(dir, everyCheck(), nullptr);
}

QList<CachedCheckpoint> cachedCheckpoints(const QString &cacheDir, bool all)
{
    return cachedCheckpoints(cacheDir, all, [](const QString &dir, nlohmann::json *info) {
        *info = describeCheckpoint(dir);
        return true;
    });
}

} // namespace folio::pipeline
