// Values written into a script or config by a fix, quoted for the text they land in, so that the
// file reads back exactly that one value: `fp8 $(touch /tmp/P)` written unquoted into a shell
// command would run the command substitution.
#pragma once

#include <string>
#include <string_view>

namespace gpulint {

enum class TextKind { kShell, kYaml, kJson, kPython };

/// By the file's extension: .yaml/.yml, .json, .py, anything else is a shell script.
TextKind KindOfFile(std::string_view path);

/// `value` as it must be written in place of text[offset, offset + length) (a value already
/// inside quotes there is escaped for those quotes); a plain word is written as it is.
std::string QuoteValue(TextKind kind, std::string_view text, size_t offset, size_t length,
                       std::string_view value);

}  // namespace gpulint
