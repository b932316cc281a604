#include "lint/analysis/file_analysis.h"

#include <fmt/format.h>

#include <filesystem>

#include "lint/reader/setting_builder.h"

namespace gpulint {

bool ParseOverrides(const std::vector<std::string>& sets, std::map<std::string, std::string>* out,
                    std::string* error) {
  for (const std::string& set : sets) {
    size_t eq = set.find('=');
    if (eq == std::string::npos || eq == 0) {
      *error = fmt::format("--set takes SETTING=VALUE, not '{}': gpulint --set", set);
      return false;
    }
    std::string name = set.substr(0, eq);
    if (name == "mem_fraction_static") name = "gpu_memory_utilization";  // SGLang's spelling
    (*out)[name] = set.substr(eq + 1);
  }
  return true;
}

void ApplyOverrides(const std::map<std::string, std::string>& overrides, Workload* workload) {
  for (const auto& [name, value] : overrides) {
    Setting setting;
    setting.name = name;
    setting.value = TypedValue(name, value);
    setting.origin = Origin::kCommandLine;
    setting.not_editable_reason = "given with --set";
    workload->settings[name] = setting;
  }
}

void Reestimate(Workspace& workspace, FileAnalysis* analysis) {
  EstimateContext context;
  context.catalog = &workspace.catalog();
  context.resolve.base_dir = std::filesystem::path(analysis->file.path).parent_path().string();
  context.resolve.hf_cache_dirs = HfCacheDirsFromEnvironment();
  context.resolve.use_filesystem = !analysis->file.from_stdin;
  context.gpu_override = workspace.gpu_override();
  if (analysis->config && analysis->config->gpu) context.gpu_default = *analysis->config->gpu;
  analysis->context = context;
  analysis->estimates.clear();
  for (const Workload& workload : analysis->read.config.workloads)
    analysis->estimates.push_back(EstimateWorkload(workload, analysis->read.config, context));
  analysis->gpu = ResolveRunGpu(analysis->read.config, context, &analysis->gpu_declared,
                                &analysis->gpu_source);
  analysis->devices = ComputeDeviceLoads(analysis->read.config, analysis->estimates);
}

bool AnalyzeFile(Workspace& workspace, const LoadedFile& file,
                 const std::map<std::string, std::string>& overrides, FileAnalysis* analysis,
                 std::string* error) {
  analysis->file = file;
  analysis->config = workspace.ConfigFor(file.path, error);
  if (!analysis->config) return false;
  analysis->sources = std::make_unique<SourceMap>();
  analysis->read = workspace.Read(file, analysis->sources.get(), error);
  if (!analysis->read.ok) {
    *error = fmt::format("{}: {}", analysis->read.error, file.path);
    return false;
  }
  for (Workload& workload : analysis->read.config.workloads) ApplyOverrides(overrides, &workload);
  Reestimate(workspace, analysis);
  for (const WorkloadEstimate& estimate : analysis->estimates) {
    if (estimate.input_error) {
      *error = estimate.skipped;
      return false;
    }
  }
  return true;
}

}  // namespace gpulint
