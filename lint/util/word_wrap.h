// Word wrapping for messages printed to a terminal.
#pragma once

#include <string>
#include <string_view>

namespace gpulint {

/// `text` with line breaks at spaces: the first line holds at most `first_width` characters,
/// each later one `indent` and at most `width` in all. A word longer than a line stays whole on
/// a line of its own, and text that fits is returned unchanged. Widths count bytes, so a
/// message of multi-byte characters wraps early, never late. `first_width` and `width` at 0
/// mean no wrapping.
std::string WordWrap(std::string_view text, size_t first_width, size_t width,
                     std::string_view indent);

}  // namespace gpulint
