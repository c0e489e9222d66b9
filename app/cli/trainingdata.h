#pragma once
// Shared by the train / eval / predict / vocab subcommands: FUNSD splits as TrainPages, and a
// file of any supported kind (FUNSD JSON, Folio document JSON, image/PDF via OCR, HTML) as a
// Document. Errors throw folio::cli::CliError naming the file.

#include "document/annotations.h"
#include "document/document.h"
#include "document/formats/funsd.h"
#include "inference/formtagger/trainer.h"

#include <QString>

#include <string>
#include <vector>

namespace folio::cli {

// The default dataset root: ../shared/data/funsd/dataset next to the source tree.
QString defaultFunsdDir();
FunsdWordOrder parseWordOrder(const std::string &name); // "annotation" | "reading"

// split: "train" (all 149), "train-dev" (the 129 after the seed-13 dev split), "dev" (the 20),
// "test" (50).
std::vector<inference::TrainPage> loadFunsdSplit(const QString &datasetDir, const std::string &split, FunsdWordOrder order);

// Loads any supported input; *annotations gets gold annotations when the file has some.
void loadAnyDocument(const QString &path, FunsdWordOrder order, Document *doc, Annotations *annotations);

} // namespace folio::cli
