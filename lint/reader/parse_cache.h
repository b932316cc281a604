// Parsed scripts that other scripts run (`bash launch.sh`, `source env.sh`), shared by all the
// files of one run: a launcher that a dozen wrappers call is parsed once, not a dozen times.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "lint/reader/shell_parser.h"

namespace gpulint {

class ParseCache {
 public:
  /// The parse of `text`, the content of `path`. Keyed by both: the same path with another text
  /// (a file that changed between reads) is parsed again. Thread-safe; two threads that miss at
  /// once both parse, and one result is kept.
  std::shared_ptr<const ParsedScript> Parse(const std::string& path, std::string_view text);

 private:
  std::mutex mutex_;
  /// path -> (text, its parse)
  std::unordered_map<std::string, std::pair<std::string, std::shared_ptr<const ParsedScript>>>
      scripts_;
};

}  // namespace gpulint
