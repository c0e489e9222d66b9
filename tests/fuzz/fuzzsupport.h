#pragma once
// Helpers shared by the libFuzzer targets in tests/fuzz/ (fuzz_<target>.cpp, each defining
// LLVMFuzzerTestOneInput) and by their replay tests (fuzzreplay.cpp feeds every corpus file to
// the same function in the normal g++ build).
//
// A target returns 0 for every input the parser accepts or refuses with a message. Anything else
// is a finding: a crash, a sanitizer report, an exception that leaves the parser (it reaches
// libFuzzer / the replay as an uncaught exception) or a broken invariant (invariantFailed aborts).

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace folio::fuzz {

// Separator between the files of a multi-file input (vocab.json + merges.txt, config.json +
// model.safetensors).
inline constexpr char kFileSeparator[] = "\n=====\n";

QByteArray inputBytes(const std::uint8_t *data, std::size_t size);
// Splits `input` at `separator`: at most `maxParts` parts, the last keeps the rest; missing parts
// are empty, so the result always has `maxParts` entries.
std::vector<QByteArray> splitInput(const QByteArray &input, const QByteArray &separator, int maxParts);
// A folder private to this process for the files a parser must read from disk (removed at exit).
QString scratchDir();
// Writes `bytes` to scratchDir()/name (replacing it) and returns the path; aborts when it cannot.
QString writeScratchFile(const QString &name, const QByteArray &bytes);
// Creates a QCoreApplication when none exists (Qt SQL needs one to find its plugins).
void ensureCoreApplication();
// With FOLIO_FUZZ_VERBOSE set, prints `what` on stderr (why an input was refused, how many items
// it gave): to check that seeds get past the first checks. Silent otherwise.
void note(const QString &what);
// Reports a broken parser invariant on stderr and aborts (a crash to libFuzzer and to the replay).
[[noreturn]] void invariantFailed(const QString &what);

} // namespace folio::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size);
