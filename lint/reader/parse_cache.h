// Parsed scripts and Python files that other scripts run (`bash launch.sh`, `source env.sh`,
// `python train.py`), shared by all the files of one run: a launcher that a dozen wrappers call
// is parsed once, not a dozen times.
#pragma once

#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "lint/reader/python_reader.h"
#include "lint/reader/shell_parser.h"

namespace gpulint {

class ParseCache {
 public:
  /// The parse of `text`, the content of `path`. Keyed by both: the same path with another text
  /// (a file that changed between reads) is parsed again. Thread-safe; two threads that miss at
  /// once both parse, and one result is kept.
  std::shared_ptr<const ParsedScript> Parse(const std::string& path, std::string_view text);

  /// The same for a Python file that scripts run (a train.py that several launchers start).
  /// `interesting` must be the same set on every call: it comes from the framework maps, which
  /// do not change within a run.
  std::shared_ptr<const PyModule> ReadPython(const std::string& path, std::string_view text,
                                             const std::set<std::string>& interesting);

 private:
  // A tree of thousands of launchers would keep every parse to the end of the run: past this
  // many, the cache starts again (files are linted in path order, so the scripts that run one
  // another are mostly linted close together).
  static constexpr size_t kMaxEntries = 512;

  template <typename Parsed>
  using ByPath = std::unordered_map<std::string, std::pair<std::string, std::shared_ptr<Parsed>>>;

  // The entry for `path` when its text is `text`, else what `make` returns, kept.
  template <typename Parsed, typename Make>
  std::shared_ptr<const Parsed> Cached(ByPath<const Parsed>& cache, const std::string& path,
                                       std::string_view text, Make make);

  std::mutex mutex_;
  ByPath<const ParsedScript> scripts_;  ///< path -> (text, its parse)
  ByPath<const PyModule> modules_;
};

}  // namespace gpulint
