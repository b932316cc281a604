#include "lint/core/source_span.h"

namespace gpulint {

void LineColumnAt(const std::string& text, size_t offset, int* line, int* col) {
  int current_line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++current_line;
      line_start = i + 1;
    }
  }
  *line = current_line;
  *col = static_cast<int>(offset - line_start) + 1;
}

}  // namespace gpulint
