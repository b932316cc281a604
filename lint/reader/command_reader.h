// Reads one command a script starts: strips wrappers and launchers, recognizes the framework
// from its flag map, and turns flags, Hydra overrides, config files and the Python file it runs
// into workloads with settings. Defaults and GPU placement are applied later by the script
// reader, once the cluster's GPU is known.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lint/core/run_config.h"
#include "lint/reader/framework_map.h"
#include "lint/reader/shell_evaluator.h"
#include "lint/reader/source_map.h"

namespace gpulint {

class ParseCache;

/// What a launcher (torchrun, accelerate, deepspeed, srun) says about the processes it starts.
struct LaunchInfo {
  std::vector<std::string> launchers;        ///< names, outermost first
  std::optional<Setting> nproc_per_node;     ///< processes per node
  std::optional<Setting> nodes;
  std::optional<Setting> num_processes;      ///< processes in total (accelerate)
  std::vector<int> gpu_ids;                  ///< --gpu_ids / --include localhost:0,1
  bool distributed = false;                  ///< a launcher that starts one process per GPU
};

struct ProgramRead {
  const FrameworkMap* map = nullptr;  ///< the framework; null: not a workload
  std::string entry;                  ///< "python" or "command"
  std::string script;                 ///< the Python script or module, when there is one
  std::vector<Workload> workloads;
  LaunchInfo launch;
  std::vector<int> visible_devices;   ///< CUDA_VISIBLE_DEVICES as the program sees it
  bool devices_known = false;
  bool devices_unknown_reason = false;
  std::vector<Unresolved> unresolved;
  std::vector<ReaderNote> notes;
  std::vector<Notice> notices;
  std::vector<std::string> files_read;
};

struct CommandReaderOptions {
  std::function<bool(const std::string& path, std::string* text)> read_file;
  std::string script_dir;
  ParseCache* parse_cache = nullptr;  ///< shares the Python files scripts run; may be null
  /// Framework package -> the releases the project pins ("trl" -> ">=0.19,<0.20"): a map whose
  /// `versions` these do not reach is passed over; "" (a pin that does not read) passes over
  /// every map of the package that names its releases.
  std::map<std::string, std::string> package_versions;
};

class CommandReader {
 public:
  CommandReader(SourceMap& sources, const FrameworkMaps& maps,
                const std::map<std::string, Text>& virtual_files,
                const CommandReaderOptions& options);
  ProgramRead Read(const CommandRecord& record);

 private:
  class Impl;
  /// The callees a Python file is read for: from_pretrained, LoraConfig and the calls the flag
  /// maps match on. The same for every command, so made once.
  const std::set<std::string>& InterestingPythonCalls();
  std::set<std::string> interesting_python_calls_;
  SourceMap& sources_;
  const FrameworkMaps& maps_;
  const std::map<std::string, Text>& virtual_files_;
  const CommandReaderOptions& options_;
};

}  // namespace gpulint
