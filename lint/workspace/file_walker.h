// Finds the files to lint: named files always; folders walked for shell scripts (*.sh, *.bash,
// *.slurm, *.sbatch, or a shell shebang) and files matching `include` (Python launchers, YAML
// configs), skipping .gitignore'd and excluded paths.
#pragma once

#include <string>
#include <vector>

namespace gpulint {

/// Appends to `files` every file to read for `path`. A named file is always taken; a folder is
/// walked (sorted, deterministic). False with `error` when the path does not exist.
bool CollectFiles(const std::string& path, const std::vector<std::string>& exclude,
                  const std::vector<std::string>& include, std::vector<std::string>* files,
                  std::string* error);

/// True when `path` (as written) or its file name matches one of `globs` (*, ?, ** and a
/// trailing '/' for a whole folder).
bool MatchesAnyGlob(const std::string& path, const std::vector<std::string>& globs);

}  // namespace gpulint
