// Helpers for tuner tests: read and estimate a script given as text, keeping the workspace
// (catalog, flag maps) that the analysis points into alive beside it.
#pragma once

#include <memory>
#include <string>

#include "lint/analysis/file_analysis.h"
#include "lint/workspace/workspace.h"
#include "tests/support/process.h"

namespace gpulint::testing {

struct Analyzed {
  TempDir dir;
  std::unique_ptr<Workspace> workspace;
  FileAnalysis analysis;
  std::string path;  ///< the script's file
};

/// Writes `text` to a temporary `name` and analyzes it as `gpulint --isolated` would. Fails the
/// test when the script cannot be read.
std::unique_ptr<Analyzed> AnalyzeText(const std::string& text, const std::string& name = "run.sh");

/// The index of the first workload with `role`; fails the test when there is none.
size_t WorkloadWithRole(const FileAnalysis& analysis, const std::string& role);

}  // namespace gpulint::testing
