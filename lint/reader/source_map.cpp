#include "lint/reader/source_map.h"

#include <algorithm>
#include <cstring>

namespace gpulint {

int SourceMap::Add(std::string path, std::string text) {
  auto file = std::make_unique<File>();
  file->path = std::move(path);
  file->text = std::move(text);
  file->line_starts.push_back(0);
  // memchr: every file a run reads passes here, and some are large Python files.
  const char* begin = file->text.data();
  const char* end = begin + file->text.size();
  for (const char* at = begin; (at = static_cast<const char*>(std::memchr(at, '\n', end - at)));)
    file->line_starts.push_back(static_cast<size_t>(++at - begin));
  files_.push_back(std::move(file));
  return static_cast<int>(files_.size()) - 1;
}

int SourceMap::Find(const std::string& path) const {
  for (size_t i = 0; i < files_.size(); ++i)
    if (files_[i]->path == path) return static_cast<int>(i);
  return -1;
}

int SourceMap::LineOf(int file, size_t offset) const {
  if (file < 0 || file >= size()) return 0;
  const auto& starts = files_[file]->line_starts;
  return static_cast<int>(std::upper_bound(starts.begin(), starts.end(), offset) - starts.begin());
}

SourceSpan SourceMap::Span(int file, size_t offset, size_t length) const {
  SourceSpan span;
  if (file < 0 || file >= size()) return span;
  const File& f = *files_[file];
  span.path = f.path;
  span.offset = offset;
  span.length = length;
  span.line = LineOf(file, offset);
  span.col = static_cast<int>(offset - f.line_starts[span.line - 1]) + 1;
  return span;
}

}  // namespace gpulint
