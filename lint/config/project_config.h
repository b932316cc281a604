// gpulint.toml: a team's configuration, found upward from each linted file (or named with
// --config). Holds the default GPU, headroom, rule selection, extra rule packs and flag maps,
// and the team's own models and GPUs.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lint/catalog/model_entry.h"

namespace gpulint {

/// The fraction of usable memory a team keeps free beyond the high end of each estimate. None by
/// default: the high end already holds the allocator slack that 95% of measured runs stay under
/// (estimator/overhead.h), and a further 10% flagged jobs with a fifth of the GPU free.
inline constexpr double kDefaultHeadroom = 0;

/// A headroom gpulint accepts, wherever it is written: [0, 0.9). Written so that NaN fails.
inline bool IsValidHeadroom(double value) { return value >= 0 && value < 0.9; }

struct ProjectConfig {
  std::string path;                          ///< the file read; empty when there is none
  std::string text;                          ///< its content ([[gpu]] tables are read from it)
  std::optional<std::string> gpu;            ///< the cluster's GPU
  std::optional<double> headroom;            ///< fraction kept free beyond the high end
  std::vector<std::string> select, ignore;   ///< rule ids or prefixes
  std::vector<std::string> exclude;          ///< glob patterns of files not to lint
  std::vector<std::string> include;          ///< globs of further files a folder walk takes
                                             ///< (launch/*.py, configs/*.yaml)
  std::vector<std::string> rule_packs;       ///< extra rules files, absolute paths
  std::vector<std::string> framework_maps;   ///< extra flag maps, absolute paths
  std::map<std::string, std::string> severity;  ///< rule id -> error|warning|info
  std::map<std::string, std::string> env;    ///< [env]: values of environment variables
  /// [versions]: package -> pin ("vllm": "0.6.3", "trl": "0.23"), and where each is written.
  /// Which packages gpulint models is the flag maps' business: lint/workspace warns of others.
  std::map<std::string, std::string> versions;
  std::map<std::string, std::string> versions_where;
  /// [generic]: what the team's own entry points mean by flags gpulint reads two ways
  /// (dtype = "bf16" for a --bf16 that loads the model in bf16, batch_scope = "global"); a
  /// setting name and a value, as a directive states them.
  std::map<std::string, std::string> generic;
  std::string generic_where;                 ///< where [generic] is written (file:line:col)
  std::vector<ModelEntry> models;            ///< [[model]]
  std::vector<std::string> warnings;         ///< keys that have no effect (unknown keys)
};

/// The closest gpulint.toml, .gpulint.toml or pyproject.toml with [tool.gpulint] at or above
/// `start_dir`, up to the repository root (the closest folder holding .git) or, outside a
/// repository, up to the working directory; empty when there is none.
std::string FindProjectConfig(const std::string& start_dir);

/// Reads a configuration file. Paths inside it are relative to its folder. On error (unreadable,
/// invalid TOML, a value of the wrong type) returns false with `error` as "what: file:line:col".
bool LoadProjectConfig(const std::string& path, ProjectConfig* config, std::string* error);

/// The same for text already read (`path` names it in errors, decides whether it is a
/// pyproject.toml, and anchors relative paths); needs no file system (tests, the fuzzer).
bool ParseProjectConfig(std::string file_text, const std::string& path, ProjectConfig* config,
                        std::string* error);

}  // namespace gpulint
