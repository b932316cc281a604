// Where a piece of text sits in a file: what edits, findings and reports point at.
#pragma once

#include <cstddef>
#include <string>

namespace gpulint {

/// A byte range in one file. Lines and columns are 1-based; columns count UTF-8 bytes; the
/// range is [offset, offset + length). A default-constructed span points nowhere.
struct SourceSpan {
  std::string path;
  int line = 0;
  int col = 0;
  size_t offset = 0;
  size_t length = 0;

  bool valid() const { return line > 0; }
  size_t end() const { return offset + length; }
};

/// Line and column (1-based) of byte `offset` in `text`.
void LineColumnAt(const std::string& text, size_t offset, int* line, int* col);

}  // namespace gpulint
