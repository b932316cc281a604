// gpulint on real scripts: every verdict of bench/corpus/verdicts.toml (judged by hand, each with
// its evidence) is asserted here. A file its authors ran on the hardware they state must get no
// error or warning it does not expect; a file from an issue thread that failed must get the
// finding that explains the failure. The corpus itself lives in ../shared/corpus (the
// frameworks' own published scripts, not copied into the project): where it is absent, those
// verdicts are skipped and the test says so. Where gpulint is known to differ from a verdict
// (bench/corpus/known_gaps.toml, written by `bench/corpus/score --record-gaps`), the test holds
// it to exactly that difference: a new false finding or a new miss fails, and so does a fixed
// gap until the list is rewritten.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <toml++/toml.h>

#include "tests/support/process.h"

namespace {

namespace fs = std::filesystem;
using gpulint::testing::RunGpulint;
using gpulint::testing::SourcePath;

struct Verdict {
  std::string file;  ///< relative to `root`
  std::string root;  ///< the folder it is linted from
  std::string gpu;
  std::vector<std::string> args;
  std::set<std::string> expect;
};

// Error- and warning-level rule ids per linted path, from `gpulint lint --format json`.
using Reported = std::map<std::string, std::set<std::string>>;

bool Lint(const std::string& root, const std::string& gpu, const std::vector<std::string>& args,
          const std::vector<std::string>& files, Reported* reported, std::string* error) {
  std::vector<std::string> command = {"lint", "--isolated", "--format", "json", "--exit-zero"};
  if (!gpu.empty()) command.insert(command.end(), {"--gpu", gpu});
  command.insert(command.end(), args.begin(), args.end());
  command.insert(command.end(), files.begin(), files.end());
  auto result = RunGpulint(command, "", root);
  if (result.exit_code != 0) {
    *error = result.err;
    return false;
  }
  auto json = nlohmann::json::parse(result.out, nullptr, false);
  if (json.is_discarded()) {
    *error = "output is not JSON";
    return false;
  }
  for (const auto& file : json["files"]) {
    std::set<std::string>& rules = (*reported)[file["path"].get<std::string>()];
    for (const auto& finding : file["findings"])
      if (finding["severity"] != "info") rules.insert(finding["rule"].get<std::string>());
  }
  return true;
}

}  // namespace

TEST_CASE("real scripts: every verdict of bench/corpus/verdicts.toml", "[corpus]") {
  toml::table table = toml::parse_file(SourcePath("bench/corpus/verdicts.toml"));
  const toml::array* list = table["verdict"].as_array();
  REQUIRE(list);
  const std::string corpus = SourcePath("../shared/corpus");
  const bool have_corpus = fs::is_directory(corpus);
  if (!have_corpus)
    WARN("../shared/corpus is absent: only the issue-thread reproductions are checked");

  std::vector<Verdict> verdicts;
  std::vector<std::string> verdict_files;  // as verdicts.toml names them
  std::set<std::string> repositories;
  size_t reports = 0;
  for (const toml::node& node : *list) {
    const toml::table& v = *node.as_table();
    Verdict verdict;
    std::string file = v["file"].value_or(std::string());
    verdict_files.push_back(file);
    if (file.rfind("reports/", 0) == 0) {
      ++reports;
      verdict.root = SourcePath("bench/corpus");
      verdict.file = file;
    } else {
      std::string repository = file.substr(0, file.find('/'));
      repositories.insert(repository);
      verdict.root = corpus + "/" + repository;
      verdict.file = file.substr(file.find('/') + 1);
    }
    verdict.gpu = v["gpu"].value_or(std::string());
    if (const toml::array* args = v["args"].as_array())
      for (const toml::node& arg : *args) verdict.args.push_back(arg.value_or(std::string()));
    if (const toml::array* expect = v["expect"].as_array())
      for (const toml::node& id : *expect) verdict.expect.insert(id.value_or(std::string()));
    verdicts.push_back(std::move(verdict));
  }
  // Known gaps, by (file, GPU): findings reported though not expected, and expected ones missed.
  std::map<std::pair<std::string, std::string>, std::pair<std::set<std::string>, std::set<std::string>>>
      gaps;
  toml::table gap_table = toml::parse_file(SourcePath("bench/corpus/known_gaps.toml"));
  if (const toml::array* gap_list = gap_table["gap"].as_array()) {
    for (const toml::node& node : *gap_list) {
      const toml::table& g = *node.as_table();
      auto& [reported_false, missed] = gaps[{g["file"].value_or(std::string()),
                                             g["gpu"].value_or(std::string())}];
      if (const toml::array* ids = g["false"].as_array())
        for (const toml::node& id : *ids) reported_false.insert(id.value_or(std::string()));
      if (const toml::array* ids = g["missed"].as_array())
        for (const toml::node& id : *ids) missed.insert(id.value_or(std::string()));
    }
  }
  for (size_t i = 0; i < verdicts.size(); ++i) {
    auto it = gaps.find({verdict_files[i], verdicts[i].gpu});
    if (it == gaps.end()) continue;
    for (const std::string& id : it->second.second) verdicts[i].expect.erase(id);
    verdicts[i].expect.insert(it->second.first.begin(), it->second.first.end());
  }

  // The floors: how much real input gpulint is judged on.
  CHECK(verdicts.size() - reports >= 300);
  CHECK(repositories.size() >= 12);
  CHECK(reports >= 25);

  // One run per (root, GPU, arguments): hundreds of files, a handful of processes.
  std::map<std::tuple<std::string, std::string, std::vector<std::string>>, std::vector<size_t>>
      groups;
  for (size_t i = 0; i < verdicts.size(); ++i) {
    if (!have_corpus && verdicts[i].root.rfind(corpus, 0) == 0) continue;
    groups[{verdicts[i].root, verdicts[i].gpu, verdicts[i].args}].push_back(i);
  }
  size_t checked = 0;
  for (const auto& [key, members] : groups) {
    const auto& [root, gpu, args] = key;
    std::vector<std::string> files;
    for (size_t i : members) files.push_back(verdicts[i].file);
    Reported reported;
    std::string error;
    if (!Lint(root, gpu, args, files, &reported, &error)) {
      // One file stopped the run: lint them one by one to say which.
      for (size_t i : members) {
        INFO(verdicts[i].root << "/" << verdicts[i].file << " on '" << gpu << "'");
        std::string one_error;
        CHECK(Lint(root, gpu, args, {verdicts[i].file}, &reported, &one_error));
        if (!one_error.empty()) UNSCOPED_INFO(one_error);
      }
    }
    for (size_t i : members) {
      const Verdict& verdict = verdicts[i];
      const std::set<std::string>& got = reported[verdict.file];
      INFO(verdict.root << "/" << verdict.file << " on '" << verdict.gpu << "'");
      std::string expected, actual;
      for (const std::string& id : verdict.expect) expected += id + " ";
      for (const std::string& id : got) actual += id + " ";
      INFO("expected (with known gaps): [ " << expected << "] reported: [ " << actual << "]");
      CHECK(got == verdict.expect);
      ++checked;
    }
  }
  CHECK(checked > 0);
}
