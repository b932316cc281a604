// The one interface every output format implements: pure formatting of findings that are
// already sorted. Formats are chosen from a table by name (--format).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lint/analysis/file_analysis.h"
#include "lint/core/finding.h"
#include "lint/rules/rule_set.h"

namespace gpulint {

struct ReportFile {
  std::string path;
  std::vector<Finding> findings;
  const SourceMap* sources = nullptr;      ///< the files its reading touched; null if unread
  /// The whole analysis, for formats that show estimates (ReporterEntry::needs_analysis);
  /// null otherwise or for a file that could not be read.
  const FileAnalysis* analysis = nullptr;
};

struct ReportInput {
  std::vector<ReportFile> files;
  const RuleSet* rules = nullptr;
  bool color = false;
  bool quiet = false;  ///< -q: findings only, no summary
  /// text: the terminal's width, where messages and fixes wrap at spaces (0: never; pipes,
  /// files and CI logs get one line per message, for grep).
  size_t wrap_columns = 0;
  std::string version;
  /// The absolute folder relative paths are relative to ("" when unknown): SARIF's %SRCROOT%.
  std::string working_dir;
  /// Workloads linted, and why those not judged were not (text's summary says so).
  int workloads = 0;
  std::vector<std::string> unestimated;
  /// Where a bound on the input was reached and the rest not read ("run.sh:3: more than 512
  /// GPU workloads; the rest are not read"): text's summary lists them.
  std::vector<std::string> read_in_part;
  /// The text of a line of any file read (1-based), "" when unknown. Findings can point into
  /// sourced scripts and config files, so this looks across every file's SourceMap.
  std::string LineText(const std::string& path, int line) const;
  /// The same, looking first in what `file` read: a finding almost always points into its own
  /// file, and then no index of every file's sources is built.
  std::string LineText(const ReportFile& file, const std::string& path, int line) const;
  int Count(Severity severity) const;

 private:
  // Path -> text, built on the first LineText: a report of many files asks for a line per
  // finding, and searching every file's SourceMap each time made text output quadratic.
  struct SourceIndex;
  mutable std::shared_ptr<const SourceIndex> source_index_;
};

/// Fingerprints of every finding in report order: the rule, the finding's line with whitespace
/// normalized, and its rank among identical ones; never the line number (SARIF, GitLab).
std::vector<std::string> Fingerprints(const ReportInput& input);

/// `text` with `&`, `<`, `>`, `"` and `'` escaped for XML attributes and text.
std::string XmlEscape(const std::string& text);

using RenderFunction = std::string (*)(const ReportInput& input);
/// One file's part of a format whose output is its files' parts one after another, then a
/// summary (text, concise): lint renders each part on the file's lint thread.
using RenderFileFunction = std::string (*)(const ReportInput& input, const ReportFile& file);

struct ReporterEntry {
  const char* name;
  RenderFunction render;
  const char* description;
  bool needs_docs = false;  ///< shows the rules' documentation (the rules load with it)
  /// Shows estimates, not only findings: the analyses are kept until it renders. Otherwise
  /// each file keeps only its sources (a large tree's analyses run to gigabytes).
  bool needs_analysis = false;
  /// For formats made file by file: render == each file's render_file, then render_summary.
  RenderFileFunction render_file = nullptr;
  RenderFunction render_summary = nullptr;
};

/// Every format, in the order `--help` lists them.
const std::vector<ReporterEntry>& Reporters();
const ReporterEntry* FindReporter(const std::string& name);

}  // namespace gpulint
