#include "document/html/htmlprescan.h"

#include <cstring>

namespace folio {

namespace {

bool isAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isHtmlSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

// Position of `needle` (lower case ASCII) in [from, size), case-insensitively; size when absent.
qint64 findNoCase(const char *data, qint64 size, qint64 from, const char *needle)
{
    const qint64 n = qint64(std::strlen(needle));
    for (qint64 i = from; i + n <= size; ++i) {
        qint64 k = 0;
        while (k < n && lower(data[i + k]) == needle[k])
            ++k;
        if (k == n)
            return i;
    }
    return size;
}

} // namespace

qint64 estimateHtmlNodes(const char *data, qint64 size, qint64 stopAfter)
{
    qint64 count = 0;
    bool textRun = false;
    qint64 i = 0;
    auto endText = [&] {
        if (textRun)
            ++count;
        textRun = false;
    };
    while (i < size && count <= stopAfter) {
        const char c = data[i];
        if (c != '<') {
            textRun = textRun || !isHtmlSpace(c);
            ++i;
            continue;
        }
        const char next = i + 1 < size ? data[i + 1] : '\0';
        if (next == '!' && i + 3 < size && data[i + 2] == '-' && data[i + 3] == '-') { // comment
            endText();
            const qint64 close = findNoCase(data, size, i + 4, "-->");
            i = close >= size ? size : close + 3;
            continue;
        }
        if (next == '/' || next == '!' || next == '?') { // end tag, doctype, processing instruction
            endText();
            while (i < size && data[i] != '>')
                ++i;
            ++i;
            continue;
        }
        if (!isAsciiLetter(next)) { // a '<' in text
            textRun = true;
            ++i;
            continue;
        }
        endText();
        ++count;
        // The tag name, then attributes up to '>' (a quoted value may hold '>').
        char name[16] = {0};
        int nameLength = 0;
        i += 1;
        while (i < size && !isHtmlSpace(data[i]) && data[i] != '>' && data[i] != '/') {
            if (nameLength < 15)
                name[nameLength++] = lower(data[i]);
            ++i;
        }
        while (i < size && data[i] != '>') {
            if (data[i] == '=') {
                ++i;
                while (i < size && isHtmlSpace(data[i]))
                    ++i;
                if (i < size && (data[i] == '"' || data[i] == '\'')) {
                    const char quote = data[i++];
                    while (i < size && data[i] != quote)
                        ++i;
                }
                if (i < size && data[i] == '>')
                    break;
            }
            ++i;
        }
        ++i;
        // Raw text elements: nothing inside is a tag.
        const bool script = std::strcmp(name, "script") == 0, style = std::strcmp(name, "style") == 0;
        const bool rcdata = std::strcmp(name, "textarea") == 0 || std::strcmp(name, "title") == 0;
        if (script || style || rcdata) {
            const char *close = script ? "</script" : style ? "</style" : rcdata && name[1] == 'e' ? "</textarea" : "</title";
            const qint64 end = findNoCase(data, size, i, close);
            if (rcdata)
                for (qint64 k = i; k < end && !textRun; ++k)
                    textRun = !isHtmlSpace(data[k]);
            endText();
            i = end;
        }
    }
    endText();
    return count;
}

} // namespace folio
