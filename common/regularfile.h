#pragma once
// Only regular files are read as files (issue 51). A FIFO blocks open() forever, /dev/zero never
// ends a read, a folder or a symbolic link loop fails late with a vague error: every reader of a
// file a user (or a downloaded checkpoint) hands us asks here first, with stat(), before it opens
// anything, and learns the size from stat too, so a size limit is checked before a byte is read.
//
//   std::string why;
//   const long long size = folio::regularFileSize(path, folio::FileLimits::configJson, "config.json", &why);
//   if (size < 0)
//       throw InferenceError(why); // "ck/config.json: config.json is a FIFO (named pipe), not a regular file"
//
// Header-only and free of Qt and LibTorch so that every layer can use the one copy: document/
// (the lowest), inference/ (which may not include document/, tst_inference_layering), pipeline/,
// app/ and ui/. Paths are raw bytes (std::string; QFile::encodeName of a QString path), never
// converted through UTF-8.

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <sys/stat.h>

namespace folio {

// The size limits of the files Folio reads whole (or maps), by kind. Real files sit far below
// them (XLM-RoBERTa's tokenizer.json, one of the largest, is about 17 MB; its
// sentencepiece.bpe.model about 5 MB; a config.json a few KB).
namespace FileLimits {
constexpr long long configJson = 64ll << 20;        // config.json (model or ensemble)
constexpr long long ensembleConfig = 64ll << 10;    // an ensemble's config.json: 2-16 member names
constexpr long long smallJson = 16ll << 20;         // folio.json, drafter.json, state.json, link_head.json...
constexpr long long tokenizerJson = 128ll << 20;    // tokenizer.json
constexpr long long vocabulary = 64ll << 20;        // vocab.json, merges.txt, vocab.txt, dict.txt
constexpr long long sentencePiece = 64ll << 20;     // spm.model, sentencepiece.bpe.model
constexpr long long weights = 64ll << 30;           // model.safetensors, pytorch_model.bin, checkpoint_best.pt
} // namespace FileLimits

// What a path that is not a regular file is, for a message: "a FIFO (named pipe)", ...
inline const char *notRegularKind(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

// "1.0 GB", "64 MB", "512 KB", "17 bytes": sizes in messages.
inline std::string describeByteSize(long long bytes)
{
    char text[48];
    if (bytes >= (1ll << 30))
        std::snprintf(text, sizeof text, "%.1f GB", double(bytes) / double(1ll << 30));
    else if (bytes >= (1ll << 20))
        std::snprintf(text, sizeof text, "%.1f MB", double(bytes) / double(1ll << 20));
    else if (bytes >= (1ll << 10))
        std::snprintf(text, sizeof text, "%.1f KB", double(bytes) / double(1ll << 10));
    else
        std::snprintf(text, sizeof text, "%lld bytes", bytes);
    return text;
}

// True when something is at `path` (a file of any kind, a folder, a link that leads somewhere or
// one that loops): "exists" for the readers' "is this file in the folder?" questions, without
// opening it (std::ifstream(path).good() on a FIFO blocks).
inline bool pathExists(const std::string &path)
{
    struct stat st{};
    return ::lstat(path.c_str(), &st) == 0;
}

// The size of `path` from stat() (links followed) when it is a regular file of at most `maxBytes`;
// otherwise -1 and *error = "<path>: <what> is a FIFO (named pipe), not a regular file" (a
// character device, a folder...), "<path>: <what> is a symbolic link loop", "<path>: no such
// file", or "<path>: <what> is 1.0 GB, over its limit of 64.0 MB". `what` names the kind of file
// ("config.json", "the tokenizer's vocabulary").
inline long long regularFileSize(const std::string &path, long long maxBytes, const std::string &what,
                                 std::string *error)
{
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) {
        const int code = errno;
        if (error) {
            if (code == ELOOP)
                *error = path + ": " + what + " is a symbolic link loop, not a regular file";
            else if (code == ENOENT)
                *error = path + ": no such file";
            else
                *error = path + ": cannot read " + what + " (" + std::strerror(code) + ")";
        }
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        if (error)
            *error = path + ": " + what + " is " + notRegularKind(st.st_mode) +
                     ", not a regular file; refused before reading";
        return -1;
    }
    if (maxBytes >= 0 && st.st_size > maxBytes) {
        if (error)
            *error = path + ": " + what + " is " + describeByteSize(st.st_size) + ", over its limit of " +
                     describeByteSize(maxBytes) + " (" + std::to_string(static_cast<long long>(st.st_size)) +
                     " bytes)";
        return -1;
    }
    return static_cast<long long>(st.st_size);
}

} // namespace folio
