// The files that scripts refer to (sourced scripts, Python launchers, config files), read once
// per run and shared by the lint threads: many scripts in a tree name the same train.py, and a
// file that is not there was looked for again, with a failed system call, by every script.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace gpulint {

class FileCache {
 public:
  using Reader = std::function<bool(const std::string& path, std::string* text)>;
  explicit FileCache(Reader reader) : reader_(std::move(reader)) {}

  /// As the reader: false when `path` is not a readable file. Thread-safe. Only for runs that
  /// write nothing: a file changed during the run is seen as it was first read.
  bool Read(const std::string& path, std::string* text);

 private:
  Reader reader_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::optional<std::string>> texts_;  ///< nullopt: unreadable
};

}  // namespace gpulint
