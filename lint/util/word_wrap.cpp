#include "lint/util/word_wrap.h"

namespace gpulint {

std::string WordWrap(std::string_view text, size_t first_width, size_t width,
                     std::string_view indent) {
  if (first_width == 0 || width == 0 || text.size() <= first_width) return std::string(text);
  std::string out;
  size_t line = 0, limit = first_width;
  bool line_empty = true;  // nothing but the indent on the current line yet
  size_t pos = 0;
  while (true) {
    size_t end = text.find(' ', pos);
    std::string_view word = text.substr(pos, end == std::string_view::npos ? end : end - pos);
    if (line_empty) {
      out += word;
      line += word.size();
    } else if (line + 1 + word.size() <= limit || word.empty()) {
      out += ' ';
      out += word;
      line += 1 + word.size();
    } else {
      // The space between the words becomes the break: unwrapping gives the text back.
      out += '\n';
      out += indent;
      out += word;
      line = indent.size() + word.size();
      limit = width;
    }
    line_empty = false;
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
  return out;
}

}  // namespace gpulint
