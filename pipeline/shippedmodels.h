#pragma once
// Where the models Folio ships are found (one resolver for folio-cli and the GUI):
//  1. $FOLIO_MODELS_DIR/<name> (a packaged or relocated install),
//  2. <executable dir>/../share/folio/models/<name> (cmake --install layout),
//  3. <source tree>/resources/models/<name> (a build run from its checkout).
// The first folder that exists and holds `marker` (a file name inside it) wins.
#include <QString>

namespace folio::pipeline {

// Empty when no candidate holds the marker.
QString shippedModelDir(const QString &name, const QString &marker);
// The first of the candidate roots above that exists (the folder holding every shipped model).
QString shippedModelsRoot();

// The bundled sample documents (<exe>/../share/folio/samples, else resources/samples of the
// checkout); empty when neither holds sample-form.png.
QString shippedSamplesDir();
// Folio's README.md (installed under share/doc/folio, else the checkout's); empty when absent.
QString folioReadmePath();

// The default question-summary drafter (resources/models/qs-drafter).
QString shippedQsDrafterDir();
// resources/models/qs-questions (the answer-aware question generator, issue 31), empty when absent.
QString shippedQsQuestionsDir();

} // namespace folio::pipeline
