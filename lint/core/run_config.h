// What the reader makes of a script: the workloads it starts (each with its settings and the
// GPUs it occupies), the cluster it asks for, and what could not be known.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/core/setting.h"
#include "lint/core/source_span.h"

namespace gpulint {

/// Something the reader could not read or had to skip, reported to the user (never fatal).
struct ReaderNote {
  /// kReadInPart: a bound on hostile or generated input was reached (commands, workloads,
  /// scripts run, call depth) and the rest is not read: `lint` says so in its summary, so a
  /// quiet run is not taken for a checked one.
  enum class Level { kInfo, kWarning, kReadInPart } level = Level::kWarning;
  std::string message;
  SourceSpan span;
};

/// A value the script depends on that gpulint cannot know (an environment variable without a
/// default, a script argument, a command substitution, a branch that differs).
struct Unresolved {
  std::string name;    ///< setting or variable name
  std::string reason;
  SourceSpan span;
};

/// A value the script writes that no framework accepts (`--tensor-parallel-size 0`, a DeepSpeed
/// stage of 7, a micro-batch of 2^31): reported, and taken as unknown rather than estimated.
struct InvalidValue {
  std::string name;    ///< canonical setting name
  std::string value;   ///< as written
  std::string reason;  ///< "less than 1", "not a whole number", ...
  SourceSpan span;
};

/// Something gpulint recognized but does not model (a framework's command, a config file of a
/// kind it does not read): reported once (GL007) so that a quiet lint is not taken for a check.
struct Notice {
  std::string message;
  SourceSpan span;
};

/// A bound the workload's framework keeps over its values that they miss (its map's
/// [[at_least]]: verl's token budget under the longest sequence).
struct UnmetBound {
  std::string setting;  ///< max_tokens_per_gpu
  double value = 0;     ///< as read
  double factor = 1;    ///< what the framework multiplies it by (verl: the Ulysses size)
  std::string factors;  ///< the settings that make the factor ("cp")
  double needed = 0;    ///< the sum it must reach
  std::string sum;      ///< "max_prompt_len + max_response_len"
  bool refuses = true;  ///< the framework stops, rather than cutting
  std::string source;   ///< the framework's line
};

struct Workload {
  std::string role;        ///< train, serve, rollout, teacher, reference, reward, critic, eval
  std::string framework;   ///< the flag map that read it ("vllm", "slime", "generic", ...)
  SourceSpan command_span; ///< the first word of the command that starts it
  /// By canonical name, including "model"; looked up by string_view (std::less<>): the
  /// estimator and the rules ask for settings by literal names, thousands of times a file.
  std::map<std::string, Setting, std::less<>> settings;
  int gpus = 0;                     ///< GPUs it occupies (0: unknown)
  std::vector<int> devices;         ///< device ids on its node, when known
  int process = 0;                  ///< index of the command (process) that starts it
  std::vector<int> concurrent_processes;  ///< other processes running at the same time
  bool background = false;          ///< started with '&'
  std::string branch;               ///< "if@12:then" when inside a branch not decided
  bool shares_process_gpus = false; ///< a further model in the same process (evaluator, ref)
  bool devices_assumed = false;     ///< device ids were not declared (no CUDA_VISIBLE_DEVICES)
  int visible_devices = 0;          ///< devices the process can see when declared (0: unknown)
  /// The project pins the release of the package its framework map models (a directive, a
  /// `pip install`, [versions], a requirements file), so the map's defaults are that release's.
  bool release_pinned = false;
  std::vector<std::string> assumptions;  ///< defaults filled in, devices assumed, ...
  std::vector<UnmetBound> unmet_bounds;  ///< what its framework's bounds need and it misses

  const Setting* Find(std::string_view name) const;
  /// The number value of a setting, or nullopt when absent or not a number.
  std::optional<double> Number(std::string_view name) const;
  std::optional<bool> Bool(std::string_view name) const;
  std::optional<std::string> String(std::string_view name) const;
  /// Whether one process spreads the model's layers over every GPU it sees: a device_map of
  /// "auto", "balanced", "balanced_low_0" or "sequential" (accelerate's placements).
  bool SpreadsOverDevices() const;
};

struct Cluster {
  std::optional<Setting> gpu;            ///< GPU type as declared (SBATCH, directive, config)
  std::optional<Setting> gpus_per_node;
  std::optional<Setting> nodes;
  std::optional<Setting> gpus_total;     ///< #SBATCH --gpus N (all nodes)
  std::map<std::string, Setting> other;  ///< mem, cpus_per_task, partition, ...
};

/// A comment of the linted file, for `# gpulint: disable=...` suppressions.
struct CommentLine {
  int line = 0;
  size_t offset = 0;   ///< of the '#'
  std::string text;    ///< without the '#'
  bool own_line = false;  ///< nothing but blanks before it on its line
};

struct RunConfig {
  std::string path;
  Cluster cluster;
  std::vector<Workload> workloads;
  std::vector<Unresolved> unresolved;
  std::vector<InvalidValue> invalid;
  std::vector<Notice> notices;
  std::vector<ReaderNote> notes;
  std::map<std::string, std::string> directives;  ///< "# gpulint: key=value" lines
  std::vector<std::string> files_read;            ///< sourced scripts, configs, Python files
  std::vector<CommentLine> comments;              ///< comments of the linted file itself
};

}  // namespace gpulint
