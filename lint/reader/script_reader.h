// The reader's entry point: a script's text in, a run configuration out — every workload it
// starts with settings, spans, defaults, GPUs and devices. Pure apart from the injected file
// reader (sourced scripts, config and Python files); never executes anything.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>

#include "lint/core/run_config.h"
#include "lint/reader/engine_versions.h"
#include "lint/reader/framework_map.h"
#include "lint/reader/source_map.h"

namespace gpulint {

class ParseCache;

struct GpuFacts {
  std::string name;   ///< canonical
  double total_gib = 0;
};

struct ReadOptions {
  std::map<std::string, std::string> env;  ///< --env and gpulint.toml [env]
  /// Reads files the script names; null: no file system (tests, stdin without a folder).
  std::function<bool(const std::string& path, std::string* text)> read_file;
  /// Resolves a GPU name, for defaults that depend on the GPU (vLLM's batch budget).
  std::function<std::optional<GpuFacts>(const std::string& name)> gpu_facts;
  std::string gpu_override;  ///< --gpu
  std::string gpu_default;   ///< gpulint.toml gpu
  /// Engine versions gpulint.toml's [versions] or the repository's files pin, by engine.
  std::map<std::string, PinnedVersion> pinned_versions;
  /// Shares the parses of scripts that other scripts run across the files of a run; may be null.
  ParseCache* parse_cache = nullptr;
};

struct ReadResult {
  RunConfig config;
  bool ok = true;
  std::string error;  ///< "binary file" and the like: the input cannot be read at all
};

/// Reads `text` as the script at `path`. `sources` receives every file read (index 0 is the
/// script) so that spans can be shown with their lines.
ReadResult ReadScript(const std::string& path, const std::string& text,
                      const FrameworkMaps& maps, const ReadOptions& options, SourceMap* sources);

/// Fills the map's defaults that the workload does not set (GPU-dependent ones by `gpu`;
/// `entry` is "python_call" when a Python call started it), and lists each as an assumption.
/// `named_roles_only`: only defaults whose `workload` names the workload's role (a further
/// model in another workload's process, which shares the rest with it).
void ApplyFrameworkDefaults(const FrameworkMap& map, const std::string& entry,
                            const std::optional<GpuFacts>& gpu, Workload* workload,
                            bool named_roles_only = false);

/// A reader over the real file system (relative paths resolve from the current directory).
std::function<bool(const std::string&, std::string*)> FileSystemReader();

}  // namespace gpulint
