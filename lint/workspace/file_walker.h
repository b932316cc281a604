// Finds the files to lint: named files always; folders walked for shell scripts (*.sh, *.bash,
// *.slurm, *.sbatch, or a shell shebang), skipping .gitignore'd and excluded paths.
#pragma once

#include <string>
#include <vector>

namespace gpulint {

/// Appends to `files` every file to read for `path`. A named file is always taken; a folder is
/// walked (sorted, deterministic). False with `error` when the path does not exist.
bool CollectFiles(const std::string& path, const std::vector<std::string>& exclude,
                  std::vector<std::string>* files, std::string* error);

/// True when `path` (as written) matches a glob of `exclude` (*, ?, ** and a trailing '/').
bool IsExcluded(const std::string& path, const std::vector<std::string>& exclude);

}  // namespace gpulint
