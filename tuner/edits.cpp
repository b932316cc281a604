#include "tuner/edits.h"

#include <fmt/format.h>

#include <algorithm>

namespace gpulint {

bool ApplyEdits(const std::string& text, std::vector<Edit> edits, std::string* out,
                std::string* error) {
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
    return a.span.offset != b.span.offset ? a.span.offset < b.span.offset
                                          : a.span.length < b.span.length;
  });
  // Two findings can propose the same change (one setting, two rules): keep it once.
  edits.erase(std::unique(edits.begin(), edits.end(),
                          [](const Edit& a, const Edit& b) {
                            return a.span.offset == b.span.offset &&
                                   a.span.length == b.span.length && a.text == b.text;
                          }),
              edits.end());
  std::string result;
  size_t cursor = 0;
  for (const Edit& edit : edits) {
    if (edit.span.end() > text.size()) {
      *error = fmt::format("edit past the end of {} (line {})", edit.span.path, edit.span.line);
      return false;
    }
    if (edit.span.offset < cursor) {
      *error = fmt::format("overlapping edits in {} at line {}", edit.span.path, edit.span.line);
      return false;
    }
    result.append(text, cursor, edit.span.offset - cursor);
    result += edit.text;
    cursor = edit.span.end();
  }
  result.append(text, cursor, std::string::npos);
  *out = std::move(result);
  return true;
}

}  // namespace gpulint
