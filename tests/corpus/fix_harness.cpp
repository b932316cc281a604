#include "tests/corpus/fix_harness.h"

#include <catch2/catch.hpp>
#include <toml++/toml.h>

#include "tests/support/process.h"

namespace gpulint::testing {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path CorpusPath() { return SourcePath("../shared/corpus"); }

std::map<std::string, std::vector<std::string>> RanScripts(const std::string& repository) {
  std::map<std::string, std::vector<std::string>> by_gpu;
  toml::table table = toml::parse_file(SourcePath("bench/corpus/verdicts.toml"));
  for (const toml::node& node : *table["verdict"].as_array()) {
    const toml::table& v = *node.as_table();
    std::string file = v["file"].value_or(std::string());
    const toml::array* expect = v["expect"].as_array();
    if (file.rfind(repository + "/", 0) != 0 || (expect && !expect->empty()) ||
        v["args"].as_array())
      continue;
    by_gpu[v["gpu"].value_or(std::string())].push_back(file.substr(file.find('/') + 1));
  }
  return by_gpu;
}

fs::path WritableCopy(const std::string& repository, const TempDir& dir) {
  return WritableCopyOf(CorpusPath() / repository, dir);
}

fs::path WritableCopyOf(const fs::path& folder, const TempDir& dir) {
  const fs::path root = fs::path(dir.path()) / folder.filename();
  fs::copy(folder, root, fs::copy_options::recursive);
  for (const auto& entry : fs::recursive_directory_iterator(root))
    fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
  return root;
}

namespace {

// `gpulint parse` of `files`: workloads by file.
std::map<std::string, json> Parse(const std::string& root, const std::string& gpu,
                                  const std::vector<std::string>& files) {
  std::vector<std::string> args = {"parse", "--isolated", "--format", "json", "--gpu", gpu};
  args.insert(args.end(), files.begin(), files.end());
  auto result = RunGpulint(args, "", root);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  json parsed = json::parse(result.out);
  std::map<std::string, json> out;
  for (const json& file : parsed["files"]) out[file["path"].get<std::string>()] = file["workloads"];
  return out;
}

}  // namespace

std::vector<FixedFile> FixRanScripts(const std::string& repository,
                                     const std::vector<std::string>& mode) {
  return FixScripts(CorpusPath() / repository, RanScripts(repository), mode);
}

std::vector<FixedFile> FixScripts(const fs::path& folder,
                                  const std::map<std::string, std::vector<std::string>>& by_gpu,
                                  const std::vector<std::string>& mode) {
  std::vector<FixedFile> out;
  for (const auto& [gpu, list] : by_gpu) {
    // A fresh copy for each GPU: a file fixed for one GPU is not fixed again for another.
    TempDir dir;
    const fs::path root = WritableCopyOf(folder, dir);
    auto before = Parse(root.string(), gpu, list);
    std::vector<std::string> args = {"fix", "--isolated", "--write", "--gpu", gpu};
    args.insert(args.end(), mode.begin(), mode.end());
    args.insert(args.end(), list.begin(), list.end());
    auto result = RunGpulint(args, "", root.string());
    INFO(folder.filename().string() << ": " << result.err);
    REQUIRE((result.exit_code == 0 || result.exit_code == 1));
    // A second run over what the first wrote proposes nothing: the tuner's answer is a fixed
    // point, so a pre-commit hook does not rewrite the file on every commit.
    std::vector<std::string> again = {"fix", "--isolated", "--diff", "--gpu", gpu};
    again.insert(again.end(), mode.begin(), mode.end());
    again.insert(again.end(), list.begin(), list.end());
    auto second = RunGpulint(again, "", root.string());
    INFO("second run on " << gpu << ": " << second.err);
    CHECK(second.out.empty());
    auto after = Parse(root.string(), gpu, list);
    for (const auto& [file, workloads] : after)
      out.push_back({file, gpu, before[file], workloads});
  }
  return out;
}

std::optional<double> Number(const json& workload, const char* name) {
  auto it = workload["settings"].find(name);
  if (it == workload["settings"].end() || !(*it)["value"].is_number()) return std::nullopt;
  return (*it)["value"].get<double>();
}

bool True(const json& workload, const char* name) {
  auto it = workload["settings"].find(name);
  return it != workload["settings"].end() && (*it)["value"].is_boolean() &&
         (*it)["value"].get<bool>();
}

std::string Text(const json& workload, const char* name) {
  auto it = workload["settings"].find(name);
  return it != workload["settings"].end() && (*it)["value"].is_string()
             ? (*it)["value"].get<std::string>()
             : "";
}

const std::vector<std::vector<std::string>>& FixModes() {
  static const std::vector<std::vector<std::string>> modes = {
      {"--maximize", "batch"}, {"--maximize", "context"}, {"--fit"}};
  return modes;
}

}  // namespace gpulint::testing
