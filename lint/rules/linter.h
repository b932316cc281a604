// Lints the files of one workspace: the configuration closest to each file chooses its rule
// packs, selection, severities and headroom, and command-line choices win over it. Used by
// `lint`, by `fix` (to find fixable findings) and by tests.
#pragma once

#include <future>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lint/analysis/file_analysis.h"
#include "lint/rules/rule_engine.h"
#include "lint/rules/rule_set.h"
#include "lint/workspace/workspace.h"

namespace gpulint {

struct LintedFile;

/// What the command line says; unset fields fall back to the file's gpulint.toml.
struct LintChoices {
  std::vector<std::string> select;         ///< replaces the config's select when not empty
  std::vector<std::string> ignore;         ///< added to the config's ignore
  std::optional<double> headroom;
  bool no_inline_suppress = false;
  bool with_docs = false;                  ///< load the rules' documentation (SARIF shows it)
  /// Keep each file's whole analysis; false keeps only its sources, freed as the threads go.
  bool keep_analysis = true;
  /// Builds the fix provider for a file's settings (the tuner's; null: no tuned fixes).
  std::function<FixProvider(Workspace& workspace, const LintSettings& settings)> fixes;
  /// Called on the lint thread once a file is checked (null: nothing): output that renders
  /// file by file is made there, while the file's sources are at hand.
  std::function<void(const std::string& path, LintedFile* file)> file_done;
};

struct LintedFile {
  std::unique_ptr<FileAnalysis> analysis;   ///< null unless LintChoices::keep_analysis
  std::unique_ptr<SourceMap> sources;       ///< the analysis' sources when it is not kept
  LintSettings settings;
  std::vector<Finding> findings;
  std::string rendered;  ///< the file's part of the output, when LintChoices::file_done made it
  int workloads = 0;                  ///< GPU workloads the file starts
  /// Why each workload without an estimate has none (unknown model, not modelled, ...), or
  /// why its verdict was left open (a value the data decides).
  std::vector<std::string> unestimated;
  /// "path:line: what was not read", for each bound the reader reached (ReaderNote kReadInPart).
  std::vector<std::string> read_in_part;
};

/// The headroom for one file: the command line's, else the script's `# gpulint: headroom=F`,
/// else the project's, else kDefaultHeadroom. False with `error` set for a directive that is
/// not a number in [0, 0.9).
bool ResolveHeadroom(std::optional<double> command_line, const ProjectConfig& project,
                     const RunConfig& script, const std::string& path, double* headroom,
                     std::string* error);

class Linter {
 public:
  /// Starts loading the built-in rules on another thread: a pre-commit hook feels start-up
  /// time, and the rules parse while the workspace reads the catalog and flag maps.
  explicit Linter(LintChoices choices);
  /// Waits for the loading thread, which writes the rules.
  ~Linter();
  Linter(const Linter&) = delete;
  Linter& operator=(const Linter&) = delete;

  /// Waits for the built-in rules (once; later calls repeat the answer). False with `error`
  /// when one is invalid. Call it from one thread.
  bool Init(std::string* error);
  /// Reads, estimates and checks one file. False with `error` on an invalid configuration,
  /// rule pack or unreadable input.
  bool Lint(Workspace& workspace, const LoadedFile& file, LintedFile* out, std::string* error);
  /// Lints every file, on as many threads as the machine has cores (files are independent);
  /// `out` is in the order of `files`. On errors, `error` is the first file's in that order.
  bool LintAll(Workspace& workspace, const std::vector<LoadedFile>& files,
               std::vector<LintedFile>* out, std::string* error);

  const RuleSet& rules() const { return rules_; }

 private:
  /// Loads the configuration and rule packs that apply to `file` (not thread-safe).
  bool Prepare(Workspace& workspace, const LoadedFile& file, std::string* error);

  LintChoices choices_;
  RuleSet rules_;
  std::set<std::string> packs_loaded_;
  std::string load_error_;  // what loading_ answered
  std::future<std::string> loading_;  // the error, "" when the rules loaded
};

}  // namespace gpulint
