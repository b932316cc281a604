// Walks a parsed script the way bash would run it — variables, defaults, arrays, functions,
// branches, loops, sourced files, background jobs — without running anything, and records every
// program the script would start with its expanded arguments and environment.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lint/core/run_config.h"
#include "lint/reader/shell_env.h"
#include "lint/reader/shell_text.h"
#include "lint/reader/source_map.h"

namespace gpulint {

class ParseCache;

struct RedirectRecord {
  std::string op;
  Text target;
  bool has_heredoc = false;
  Text heredoc;  ///< the body, expanded when its delimiter was unquoted
};

/// One program the script starts.
struct CommandRecord {
  std::vector<Text> argv;
  std::vector<std::pair<std::string, Text>> env_prefix;  ///< X=1 cmd
  /// Exported variables visible to the program; shared by the commands that see the same.
  std::shared_ptr<const std::map<std::string, Text>> exported;
  std::vector<RedirectRecord> redirects;
  int file = 0;                 ///< SourceMap index
  size_t offset = 0;            ///< where the command starts
  bool background = false;
  std::vector<int> concurrent_with;  ///< earlier commands still running when it starts
  std::string branch;           ///< non-empty inside a branch gpulint could not decide
  std::string cwd;              ///< working directory relative to the script, "" = unchanged
  bool cwd_known = true;

  /// The value of an environment variable as the program sees it (prefix first, then exported).
  const Text* Env(const std::string& name) const;
};

/// A comment of any file read (for #SBATCH and # gpulint: directives).
struct CommentRecord {
  int file = 0;
  size_t offset = 0;  ///< of the '#'
  std::string text;   ///< without '#'
};

struct ShellProgram {
  std::vector<CommandRecord> commands;
  std::vector<CommentRecord> comments;
  std::map<std::string, Text> virtual_files;  ///< files the script writes from heredocs
  std::map<int, size_t> first_command;          ///< per file: where its first command starts
  std::vector<ReaderNote> notes;
  ShellEnv final_env;                          ///< variables when the script ends
};

struct EvaluatorOptions {
  /// Values for environment variables (--env NAME=VALUE, gpulint.toml [env]).
  std::map<std::string, std::string> env;
  /// Reads a file for `source` / `bash other.sh`; returns false when it does not exist.
  /// Paths are as the script wrote them, resolved against `script_dir`.
  std::function<bool(const std::string& path, std::string* text)> read_file;
  std::string script_dir;
  /// Parses the files that the script sources or runs, shared with other scripts; null: each
  /// is parsed here.
  ParseCache* parse_cache = nullptr;
};

/// Evaluates the script registered as file `file` in `sources`. Further files it sources are
/// registered in `sources` as they are read.
ShellProgram EvaluateShell(SourceMap& sources, int file, const EvaluatorOptions& options);

}  // namespace gpulint
