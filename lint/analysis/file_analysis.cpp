#include "lint/reader/map_bounds.h"
#include "lint/analysis/file_analysis.h"

#include <fmt/format.h>

#include <filesystem>

#include "lint/analysis/readings.h"
#include "lint/analysis/value_check.h"
#include "lint/core/setting_types.h"
#include "lint/reader/setting_builder.h"
#include "lint/util/strings.h"
#include "lint/util/suggest.h"

namespace gpulint {
namespace {

// A value typed on the command line is checked against rules/settings.toml: a script may say
// "auto" where a number goes, but `--set micro_batch=abc` is a typo, and estimating without it
// would answer a question nobody asked.
bool CheckOverride(const std::string& name, const std::string& value, std::string* error) {
  auto fail = [&](const std::string& why) {
    *error = fmt::format("--set {}={}: {}: gpulint --set", name, value, why);
    return false;
  };
  const auto& settings = SettingTypes();
  auto known = settings.find(name);
  if (known == settings.end()) {
    std::vector<std::string> names;
    for (const auto& [setting, info] : settings) names.push_back(setting);
    return fail("unknown setting" + DidYouMean(ClosestNames(name, names)));
  }
  const std::string problem = ValueTextProblem(name, value);
  if (!problem.empty()) return fail(problem);
  return true;
}

}  // namespace

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
    std::string value = set.substr(eq + 1);
    if (!CheckOverride(name, value, error)) return false;
    (*out)[name] = value;
  }
  return true;
}

bool CheckGpuOverride(const Workspace& workspace, std::string* error) {
  const std::string& gpu = workspace.gpu_override();
  if (gpu.empty()) return true;
  GpuResolution resolved = workspace.catalog().ResolveGpu(gpu);
  if (resolved.spec) return true;
  *error = fmt::format("--gpu {}: {}{}: gpulint --gpu", gpu, resolved.message,
                       DidYouMean(resolved.suggestions));
  return false;
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
  for (const Workload& workload : analysis->read.config.workloads) {
    analysis->estimates.push_back(EstimateWorkload(workload, analysis->read.config, context));
    if (const FrameworkMap* map = workspace.maps().Find(workload.framework))
      JudgeReadings(workload, map->readings, &analysis->estimates.back());
    JudgeGpuSize(workload, &analysis->estimates.back());
  }
  analysis->gpu =
      ResolveRunGpu(analysis->read.config, context, &analysis->gpu_declared, &analysis->gpu_source);
  analysis->devices = ComputeDeviceLoads(analysis->read.config, analysis->estimates);
}

bool AnalyzeFile(Workspace& workspace, const LoadedFile& file,
                 const std::map<std::string, std::string>& overrides, FileAnalysis* analysis,
                 std::string* error) {
  analysis->file = file;
  analysis->config = workspace.ConfigFor(file.path, error);
  if (!analysis->config) return false;
  if (!CheckGpuOverride(workspace, error)) return false;
  analysis->sources = std::make_unique<SourceMap>();
  analysis->read = workspace.Read(file, analysis->sources.get(), error);
  if (!analysis->read.ok) {
    *error = fmt::format("{}: {}", analysis->read.error, file.path);
    return false;
  }
  CheckSettingValues(&analysis->read.config);
  for (Workload& workload : analysis->read.config.workloads) {
    if (const FrameworkMap* map = workspace.maps().Find(workload.framework))
      ApplyStatedMeanings(map->readings, analysis->config->generic,
                          "gpulint.toml [generic] (" + analysis->config->generic_where + ")",
                          &workload);
    ApplyOverrides(overrides, &workload);
    // The values as the framework will get them: which of its bounds they miss (GL307).
    if (const FrameworkMap* map = workspace.maps().Find(workload.framework))
      workload.unmet_bounds = UnmetBounds(*map, workload);
  }
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
