// Backslash escapes of Python string literals, decoded as Python decodes them, so that a value
// read from `LLM(model="a\u00e9")` is the string Python passes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace gpulint {

/// Decodes the escape whose backslash is at `src[at]` and appends its value to `out` (UTF-8 for
/// \x, \u, \U and octal code points; nothing for a backslash before a newline; the backslash
/// and the character for an escape Python does not know, as Python keeps them). Returns the
/// offset after the escape.
size_t DecodePythonEscape(std::string_view src, size_t at, std::string* out);

}  // namespace gpulint
