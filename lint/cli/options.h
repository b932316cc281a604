// Plain option structs, one per subcommand, filled from argv by options.cpp (the only file that
// includes CLI11). Subcommands read these structs and never see argv.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gpulint {

/// Options every subcommand that reads scripts accepts.
struct InputOptions {
  std::vector<std::string> paths;  ///< files or folders; "-" is stdin
  std::string stdin_filename;      ///< the name stdin's text is reported under
  std::string format = "text";
  std::string gpu;               ///< --gpu: the hardware, beats every other declaration
  std::string config;            ///< --config FILE: instead of the closest gpulint.toml
  bool isolated = false;         ///< --isolated: no configuration file at all
  std::vector<std::string> env;  ///< --env NAME=VALUE: environment variables the script reads
  std::string output_file;       ///< also write the chosen format here; terminal gets text
};

struct LintOptions : InputOptions {
  std::vector<std::string> select, ignore;
  bool quiet = false;          ///< -q: findings only (no summary, no warnings)
  std::string color = "auto";  ///< auto | always | never
  /// --fix, --diff: RunLintCommand hands the arguments to `fix` before parsing them; here for
  /// --help.
  bool fix = false, diff = false;
  std::string fail_on = "error";
  bool statistics = false;
  bool exit_zero = false;
  bool no_inline_suppress = false;
  std::string baseline, write_baseline;
  std::optional<double> headroom;
};

struct EstimateOptions : InputOptions {
  std::vector<std::string> set;  ///< SETTING=VALUE what-if overrides
  std::string role, model;       ///< the script-less mode: --role --model --gpu
  std::string framework;         ///< script-less: the flag map whose defaults apply
};

struct FixOptions : InputOptions {
  std::string maximize;  ///< "batch" | "context" | "" (with --fit)
  bool fit = false;
  bool write = false;
  bool follow_symlinks = false;  ///< --write through links leaving the linted folders
  bool unsafe_fixes = false;     ///< without an objective: apply unsafe finding fixes too
  std::optional<double> headroom;
  std::vector<std::string> keep;  ///< e.g. "global-batch"
  bool pow2 = false;
  std::string workload;  ///< a role, to pick one workload
  std::vector<std::string> set;
  bool quiet = false;  ///< -q: the diff (or "fixed" lines) only, no notes on stderr
};

struct ExplainOptions {
  std::string rule_id;
  std::string format = "text";
};

struct ListOptions {  ///< rules, models, gpus
  std::string search;
  std::string format = "text";
  std::string config;
};

struct ModelsAddOptions {  ///< models add
  std::string path;        ///< a config.json or a folder holding one
  std::string id;          ///< the name scripts use; default: the folder's name
  /// The file to add to; default: the closest gpulint.toml, else ./gpulint.toml.
  std::string config;
  bool print = false;  ///< print the table instead of writing it
};

/// Result of parsing a subcommand's arguments: either options to run with, or an exit code
/// (0 after --help, 2 after a usage error that has already been printed).
template <typename T>
struct Parsed {
  std::optional<T> options;
  int exit_code = 0;
};

Parsed<LintOptions> ParseLintOptions(const std::vector<std::string>& args);
Parsed<EstimateOptions> ParseEstimateOptions(const std::vector<std::string>& args);
/// `name` is how the user invoked it, for messages: "fix", or "lint --fix" (fix's options).
Parsed<FixOptions> ParseFixOptions(const std::vector<std::string>& args,
                                   const std::string& name = "fix");
Parsed<InputOptions> ParseParseOptions(const std::vector<std::string>& args);
Parsed<ExplainOptions> ParseExplainOptions(const std::vector<std::string>& args);
Parsed<ListOptions> ParseListOptions(const std::string& command,
                                     const std::vector<std::string>& args);
Parsed<ModelsAddOptions> ParseModelsAddOptions(const std::vector<std::string>& args);
/// `completion SHELL`: the shell, one of bash, zsh, fish.
Parsed<std::string> ParseCompletionOptions(const std::vector<std::string>& args);
/// `version` takes no options but --help.
Parsed<bool> ParseNoOptions(const std::string& command, const std::string& description,
                            const std::vector<std::string>& args);

}  // namespace gpulint
