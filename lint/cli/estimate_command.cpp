// `gpulint estimate`: per-GPU memory of every workload in the scripts, or of one workload
// described on the command line (--role --model --gpu --set ...).
#include <fmt/format.h>

#include <cstdio>
#include <unistd.h>

#include "lint/analysis/file_analysis.h"
#include "lint/cli/cli.h"
#include "lint/cli/color_choice.h"
#include "lint/cli/commands.h"
#include "lint/cli/options.h"
#include "lint/cli/output_file.h"
#include "lint/cli/terminal_width.h"
#include "lint/report/estimate_report.h"
#include "lint/report/json_version.h"
#include "lint/util/suggest.h"

namespace gpulint {
namespace {

// The map that serves with `engine`: the one whose `engine` default holds for every workload it
// starts (vllm.toml, sglang.toml, transformers.toml), not a trainer's rollout default.
std::string ServingMapFor(const FrameworkMaps& maps, const std::string& engine) {
  for (const FrameworkMap& header : maps.maps()) {
    if (header.kind != "framework") continue;
    const FrameworkMap& map = maps.Loaded(header);
    for (const DefaultSpec& d : map.defaults)
      if (d.setting == "engine" && d.value == engine && d.workloads.empty() && d.when.empty())
        return map.name;
  }
  return "";
}

// A workload described by flags alone, read like a one-line script would be.
FileAnalysis ScriptlessAnalysis(Workspace& workspace, const EstimateOptions& options,
                                const std::map<std::string, std::string>& overrides) {
  FileAnalysis analysis;
  analysis.file.path = "<command line>";
  analysis.file.from_stdin = true;
  analysis.sources = std::make_unique<SourceMap>();
  RunConfig& config = analysis.read.config;
  config.path = analysis.file.path;
  Workload w;
  w.role = options.role;
  std::string engine = "vllm";
  if (auto it = overrides.find("engine"); it != overrides.end()) engine = it->second;
  bool serving = w.role == "serve" || w.role == "rollout" || w.role == "teacher" || w.role == "eval";
  w.framework = serving ? ServingMapFor(workspace.maps(), engine)
                        : (overrides.count("zero_stage") ? "deepspeed-config" : "generic");
  if (!options.framework.empty()) w.framework = options.framework;
  Setting model;
  model.name = "model";
  model.value = Value::String(options.model);
  model.origin = Origin::kCommandLine;
  w.settings["model"] = model;
  ApplyOverrides(overrides, &w);
  // GPUs: nodes x gpus_per_node, else the model-parallel product.
  double per_node = w.Number("gpus_per_node").value_or(0), nodes = w.Number("nodes").value_or(1);
  double parallel = w.Number("tp").value_or(1) * w.Number("pp").value_or(1) *
                    w.Number("cp").value_or(1);
  if (serving) parallel *= w.Number("dp").value_or(1);
  w.gpus = static_cast<int>(per_node > 0 ? per_node * nodes : parallel);
  if (serving) w.gpus = static_cast<int>(parallel);
  for (int d = 0; d < std::min(w.gpus, 8); ++d) w.devices.push_back(d);
  if (const FrameworkMap* map = workspace.maps().Find(w.framework)) {
    std::optional<GpuFacts> gpu;
    GpuResolution resolution = workspace.catalog().ResolveGpu(options.gpu);
    if (resolution.spec) gpu = GpuFacts{resolution.spec->name, resolution.spec->total_bytes / (1 << 30)};
    ApplyFrameworkDefaults(*map, "command", gpu, &w);
  }
  config.workloads.push_back(w);
  Reestimate(workspace, &analysis);
  return analysis;
}

}  // namespace

int RunEstimateCommand(const Args& args) {
  auto parsed = ParseEstimateOptions(args);
  if (!parsed.options) return parsed.exit_code;
  EstimateOptions& options = *parsed.options;
  std::map<std::string, std::string> overrides;
  std::string error;
  if (!ParseOverrides(options.set, &overrides, &error)) {
    fmt::print(stderr, "gpulint: error: {}\n", error);
    return kExitUsage;
  }
  bool scriptless = !options.model.empty() || !options.role.empty();
  if (scriptless && (options.model.empty() || options.role.empty() || options.gpu.empty())) {
    fmt::print(stderr, "gpulint: error: without a script, give --role, --model and --gpu: "
                       "gpulint estimate\n");
    return kExitUsage;
  }
  if (scriptless && !options.paths.empty()) {
    fmt::print(stderr, "gpulint: error: give scripts or --role/--model, not both: gpulint estimate\n");
    return kExitUsage;
  }
  if (!options.framework.empty() && !scriptless) {
    fmt::print(stderr,
               "gpulint: error: --framework describes a workload without a script; a "
               "script's own commands say which framework runs: gpulint estimate\n");
    return kExitUsage;
  }
  Workspace workspace(options);
  if (!workspace.Init(&error)) {
    fmt::print(stderr, "gpulint: error: {}\n", error);
    return kExitUsage;
  }
  std::vector<FileAnalysis> analyses;
  if (scriptless) {
    if (!CheckGpuOverride(workspace, &error)) {
      fmt::print(stderr, "gpulint: error: {}\n", error);
      return kExitUsage;
    }
    // A launcher or a wrapper starts a framework; it has no defaults of a workload's own.
    const FrameworkMap* named =
        options.framework.empty() ? nullptr : workspace.maps().Find(options.framework);
    if (named && (named->kind == "launcher" || named->kind == "wrapper")) {
      fmt::print(stderr,
                 "gpulint: error: --framework {}: a {}, not a framework with defaults of its "
                 "own (name what it starts: hf-trainer, litgpt, torchtune, ...): gpulint "
                 "estimate\n",
                 options.framework, named->kind);
      return kExitUsage;
    }
    if (!options.framework.empty() && !named) {
      std::vector<std::string> names;
      for (const FrameworkMap& map : workspace.maps().maps())
        if (map.kind != "launcher" && map.kind != "wrapper") names.push_back(map.name);
      fmt::print(stderr,
                 "gpulint: error: --framework {}: no such framework map{}: gpulint "
                 "estimate\n",
                 options.framework, DidYouMean(ClosestNames(options.framework, names)));
      return kExitUsage;
    }
    analyses.push_back(ScriptlessAnalysis(workspace, options, overrides));
    // Without a script the model is the user's own word too: unknown, it is a usage error.
    const ModelResolution& model = analyses.back().estimates.front().resolution;
    if (model.status == ResolveStatus::kUnknown) {
      fmt::print(stderr, "gpulint: error: --model {}: {}{}: gpulint --model\n", options.model,
                 model.message, DidYouMean(model.suggestions));
      return kExitUsage;
    }
  } else {
    std::vector<LoadedFile> files;
    if (!workspace.LoadInputs(&files, &error)) {
      fmt::print(stderr, "gpulint: error: {}\n", error);
      return kExitUsage;
    }
    for (const LoadedFile& file : files) {
      FileAnalysis analysis;
      if (!AnalyzeFile(workspace, file, overrides, &analysis, &error)) {
        fmt::print(stderr, "gpulint: error: {}\n", error);
        return kExitUsage;
      }
      analyses.push_back(std::move(analysis));
    }
  }
  for (const std::string& warning : workspace.warnings())
    fmt::print(stderr, "gpulint: warning: {}\n", warning);

  std::string rendered;
  if (options.format == "json") {
    rendered = fmt::format("{{\n  \"version\": {},\n  \"files\": [", kJsonFormatVersion);
    for (size_t i = 0; i < analyses.size(); ++i)
      rendered += (i ? ",\n" : "\n") + FileEstimateJson(analyses[i], 2);
    rendered += "\n  ]\n}\n";
  } else if (options.format == "markdown") {
    for (const FileAnalysis& analysis : analyses) rendered += FileEstimateMarkdown(analysis);
  }
  bool color = UseColor("auto", isatty(1));  // lint's rule: NO_COLOR, then FORCE_COLOR
  std::string text;
  // Wrapped to the terminal; whole lines in a pipe, a file or --output-file's copy on stdout.
  const size_t columns = options.output_file.empty() ? TerminalColumns() : 0;
  for (const FileAnalysis& analysis : analyses)
    text += FileEstimateText(analysis, color, columns);
  if (!options.output_file.empty()) {
    if (!WriteOutputFile(options.output_file, rendered.empty() ? text : rendered, &error)) {
      fmt::print(stderr, "gpulint: error: {}\n", error);
      return kExitUsage;
    }
    fmt::print("{}", text);
  } else {
    fmt::print("{}", rendered.empty() ? text : rendered);
  }
  return kExitClean;
}

}  // namespace gpulint
