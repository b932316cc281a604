// What `gpulint fix` writes into real scripts, for tests that check it the way each framework
// checks its arguments at start-up. The scripts are the corpus files that ran on the hardware
// their source states (bench/corpus/verdicts.toml entries with nothing expected); each is fixed
// on a writable copy and read back with `gpulint parse`.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace gpulint::testing {

class TempDir;

/// The corpus (../shared/corpus); tests skip with a warning where it is absent.
std::filesystem::path CorpusPath();

/// The files of `repository` (a corpus folder such as "volcengine__verl") that ran, by the GPU
/// their source names, as paths inside the repository.
std::map<std::string, std::vector<std::string>> RanScripts(const std::string& repository);

/// A writable copy of the corpus's `repository` under `dir`; its root.
std::filesystem::path WritableCopy(const std::string& repository, const TempDir& dir);
/// A writable copy of any `folder` under `dir`; its root.
std::filesystem::path WritableCopyOf(const std::filesystem::path& folder, const TempDir& dir);

/// One file before and after a fix: its workloads as `gpulint parse --format json` lists them.
struct FixedFile {
  std::string path;  ///< inside the repository
  std::string gpu;
  nlohmann::json before;
  nlohmann::json after;
};

/// Runs `gpulint fix --write <mode...>` over every ran file of `repository` on a fresh copy and
/// returns each file's workloads before and after. Fails the test where fix or parse fails, or
/// where a second run would change what the first wrote.
std::vector<FixedFile> FixRanScripts(const std::string& repository,
                                     const std::vector<std::string>& mode);
/// The same over chosen files of `folder` (paths inside it), by the GPU to fix them for: scripts
/// whose source names no GPU, probed on the GPUs their users run, and our reproductions of
/// issue-thread reports (bench/corpus/reports).
std::vector<FixedFile> FixScripts(const std::filesystem::path& folder,
                                  const std::map<std::string, std::vector<std::string>>& by_gpu,
                                  const std::vector<std::string>& mode);

/// A workload's setting, where gpulint read one of that type.
std::optional<double> Number(const nlohmann::json& workload, const char* name);
bool True(const nlohmann::json& workload, const char* name);
std::string Text(const nlohmann::json& workload, const char* name);

/// The three tuner modes the acceptance tests run.
const std::vector<std::vector<std::string>>& FixModes();

}  // namespace gpulint::testing
