// The files one read touches (the script, sourced scripts, configs, Python files), each with a
// line index so that byte offsets become line:column quickly.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lint/core/source_span.h"

namespace gpulint {

class SourceMap {
 public:
  /// Registers a file's text and returns its index. The text is kept for the map's lifetime.
  int Add(std::string path, std::string text);
  const std::string& path(int file) const { return files_[file]->path; }
  const std::string& text(int file) const { return files_[file]->text; }
  int size() const { return static_cast<int>(files_.size()); }
  /// Index of an already registered path, or -1.
  int Find(const std::string& path) const;

  /// A span with line and column filled in; an invalid span when `file` < 0.
  SourceSpan Span(int file, size_t offset, size_t length) const;
  int LineOf(int file, size_t offset) const;

 private:
  struct File {
    std::string path;
    std::string text;
    std::vector<size_t> line_starts;
  };
  std::vector<std::unique_ptr<File>> files_;
};

}  // namespace gpulint
