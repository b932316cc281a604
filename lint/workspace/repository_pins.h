// The engine and framework versions a repository installs: its requirements files, setup.py,
// pyproject.toml, environment files and Dockerfiles, read in the linted file's folder and each
// folder above it up to the repository's root. A script that runs vLLM runs the version these
// pin.
#pragma once

#include <string>
#include <vector>

namespace gpulint {

struct RepositoryPin {
  std::string package;  ///< "vllm", "sglang" or a framework's package
  std::string spec;    ///< as written: ">=0.8.5,<=0.12.0"
  std::string file;    ///< the file that pins it
  int line = 0;        ///< 1-based
};

/// The pins of the closest folder, at or above `start_dir`, that holds any (a subproject's
/// requirements beat the monorepo's), searching up to the closest folder holding .git or,
/// outside a repository, up to the working directory. Reads only regular files of at most
/// 1 MiB, at most 32 per folder; empty when none pins an engine.
/// `packages`: the frameworks' packages to read pins of besides the engines.
std::vector<RepositoryPin> FindRepositoryPins(const std::string& start_dir,
                                              const std::vector<std::string>& packages = {});

/// Whether a file of that name may pin an engine ("requirements-vllm.txt", "setup.py",
/// "pyproject.toml", "environment.yml", "Dockerfile", "Dockerfile.rocm", "vllm.dockerfile").
bool IsPinFileName(const std::string& name);

}  // namespace gpulint
