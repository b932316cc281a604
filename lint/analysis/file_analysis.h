// One file read and estimated: the run configuration, an estimate per workload, and the load
// on every GPU. Shared by `estimate`, `lint` and `fix`.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lint/analysis/colocation.h"
#include "lint/analysis/workload_estimate.h"
#include "lint/reader/script_reader.h"
#include "lint/reader/source_map.h"
#include "lint/workspace/workspace.h"

namespace gpulint {

struct FileAnalysis {
  LoadedFile file;
  std::unique_ptr<SourceMap> sources;
  ReadResult read;
  std::vector<WorkloadEstimate> estimates;
  std::vector<DeviceLoad> devices;
  std::string gpu_declared;   ///< the GPU name as declared ("" when none)
  std::string gpu_source;     ///< where ("--gpu", "line 3", "gpulint.toml")
  GpuResolution gpu;
  const ProjectConfig* config = nullptr;
  EstimateContext context;    ///< how the estimates were made (for what-if re-estimates)
};

/// `overrides` are --set NAME=VALUE applied to every workload (origin command-line).
bool AnalyzeFile(Workspace& workspace, const LoadedFile& file,
                 const std::map<std::string, std::string>& overrides, FileAnalysis* analysis,
                 std::string* error);

/// Re-estimates one workload after its settings changed (the tuner's inner loop).
void Reestimate(Workspace& workspace, FileAnalysis* analysis);

/// A GPU typed with --gpu is not a finding in a script but a mistake on the command line: false
/// with "--gpu NAME: unknown GPU 'NAME' (did you mean ...?)" when the catalog (with the project's
/// own GPU types, once they have joined it) does not know it.
bool CheckGpuOverride(const Workspace& workspace, std::string* error);

/// Parses --set arguments; false with `error` on a malformed one (an unknown setting, or a value
/// of the wrong type or outside the range rules/settings.toml gives).
bool ParseOverrides(const std::vector<std::string>& sets, std::map<std::string, std::string>* out,
                    std::string* error);

/// Applies NAME=VALUE overrides to a workload (typed by rules/settings.toml).
void ApplyOverrides(const std::map<std::string, std::string>& overrides, Workload* workload);

}  // namespace gpulint
