// Text from a stranger's script on its way to a terminal, a JSON parser or a CI log: file
// names, values and source lines may hold bytes that are not UTF-8 (which JSON and XML cannot
// carry) or escape sequences (which would recolour, move or retitle a terminal).
#pragma once

#include <string>
#include <string_view>

namespace gpulint {

/// `text` with every byte sequence that is not UTF-8 replaced by U+FFFD.
std::string ValidUtf8(std::string_view text);

/// ValidUtf8, then every control character but tab and newline (C0, DEL and C1) written as \xNN,
/// so that nothing a script holds acts on the terminal (a carriage return would overwrite the
/// line before it, an escape sequence recolour or retitle the terminal).
std::string Printable(std::string_view text);

/// Printable, on one line of Markdown: line breaks as spaces, '<' as &lt; (no HTML tags) and '|'
/// escaped (a table cell stays one cell). A newline in a model name split the summary table.
std::string MarkdownInline(std::string_view text);

}  // namespace gpulint
