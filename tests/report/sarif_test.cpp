// SARIF 2.1.0 checked by Microsoft's validator (npm @microsoft/sarif-multitool, installed into
// .cache/sarif by scripts/install-deps --test) over every rule fixture, and the structure
// GitHub code scanning needs.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <set>

#include "tests/support/process.h"

using namespace gpulint::testing;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> RuleFixtures() {
  std::vector<std::string> paths;
  for (const auto& dir : fs::directory_iterator(SourcePath("fixtures/rules")))
    for (const auto& file : fs::directory_iterator(dir.path()))
      if (file.path().stem() == "bad")
        paths.push_back(fs::relative(file.path(), SourcePath("")).string());
  std::sort(paths.begin(), paths.end());
  return paths;
}

}  // namespace

TEST_CASE("the SARIF of every rule fixture passes the SARIF validator", "[report][sarif]") {
  std::string tool =
      SourcePath(".cache/sarif/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool");
  INFO("run scripts/install-deps --test to install the validator");
  REQUIRE(fs::exists(tool));
  TempDir dir;
  std::vector<std::string> args = {"lint",
                                   "--isolated",
                                   "--exit-zero",
                                   "--format",
                                   "sarif",
                                   "--output-file",
                                   dir.path() + "/all.sarif"};
  for (const std::string& path : RuleFixtures()) args.push_back(path);
  // Paths as users give them: "./x", absolute under the working folder and outside it.
  args.push_back("./fixtures/report/serve.sh");
  args.push_back(SourcePath("fixtures/report/train.sh"));
  dir.Write("outside dir/run.sh", ReadWholeFile(SourcePath("fixtures/rules/GL101/bad.sh")));
  args.push_back(dir.path() + "/outside dir/run.sh");
  auto lint = RunGpulint(args, "", SourcePath(""));
  REQUIRE(lint.exit_code == 0);
  // A clean run too: results must be present and empty.
  auto clean = RunGpulint({"lint", "--isolated", "--format", "sarif", "--output-file",
                           dir.path() + "/clean.sarif", "fixtures/report/clean.sh"},
                          "", SourcePath(""));
  REQUIRE(clean.exit_code == 0);
  for (const char* name : {"all.sarif", "clean.sarif"}) {
    // GitHub's rules too ("Gh"): what code scanning rejects or cannot place.
    auto result =
        RunProcess(tool, {"validate", "--rule-kind", "Gh;Sarif", dir.path() + "/" + name});
    INFO(result.out << result.err);
    REQUIRE(result.out.find("Analysis completed successfully") != std::string::npos);
    CHECK(result.out.find(": error ") == std::string::npos);
    CHECK(result.out.find(": warning ") == std::string::npos);
  }
}

TEST_CASE("SARIF carries rules, levels, regions, fingerprints and fixes", "[report][sarif]") {
  auto result = RunGpulint({"lint", "--isolated", "--format", "sarif", "fixtures/report/clean.sh",
                            "fixtures/report/serve.sh", "fixtures/report/train.sh"},
                           "", SourcePath(""));
  auto sarif = nlohmann::json::parse(result.out);
  CHECK(sarif["version"] == "2.1.0");
  auto& run = sarif["runs"][0];
  auto& rules = run["tool"]["driver"]["rules"];
  REQUIRE(rules.size() >= 34);
  std::set<std::string> ids;
  for (auto& rule : rules) {
    CHECK(ids.insert(rule["id"].get<std::string>()).second);  // no duplicates
    CHECK_FALSE(rule["help"]["markdown"].get<std::string>().empty());
    CHECK(rule["helpUri"].get<std::string>().find(rule["id"].get<std::string>()) !=
          std::string::npos);
  }
  auto& results = run["results"];
  REQUIRE(results.size() == 2);
  CHECK(results[0]["ruleId"] == "GL201");
  CHECK(rules[results[0]["ruleIndex"].get<int>()]["id"] == "GL201");
  CHECK(results[0]["level"] == "error");
  CHECK(results[1]["level"] == "warning");
  auto& region = results[0]["locations"][0]["physicalLocation"]["region"];
  CHECK(region ==
        nlohmann::json({{"startLine", 3}, {"startColumn", 60}, {"endLine", 3}, {"endColumn", 61}}));
  CHECK(results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
        "fixtures/report/serve.sh");
  CHECK(results[0]["partialFingerprints"]["gpulintLineHash/v1"].get<std::string>().size() == 16);
  auto& replacements = results[1]["fixes"][0]["artifactChanges"][0]["replacements"];
  REQUIRE(replacements.size() == 2);
  CHECK(replacements[0]["insertedContent"]["text"] == "1");
  CHECK(replacements[1]["insertedContent"]["text"] == " --gradient_accumulation_steps 3");
}

TEST_CASE("SARIF locations: relative to %SRCROOT% inside the working folder, file:// outside",
          "[report][sarif]") {
  TempDir dir;
  dir.Write("outside dir/run.sh", ReadWholeFile(SourcePath("fixtures/rules/GL101/bad.sh")));
  auto result =
      RunGpulint({"lint", "--isolated", "--format", "sarif", "./fixtures/rules/GL201/bad.sh",
                  SourcePath("fixtures/rules/GL101/bad.sh"), dir.path() + "/outside dir/run.sh"},
                 "", SourcePath(""));
  auto sarif = nlohmann::json::parse(result.out);
  const auto& run = sarif["runs"][0];
  std::string root = run["originalUriBaseIds"]["%SRCROOT%"]["uri"];
  CHECK(root.starts_with("file:///"));
  CHECK(root.ends_with("/"));
  std::set<std::string> relative, absolute;
  for (const auto& r : run["results"]) {
    const auto& location = r["locations"][0]["physicalLocation"]["artifactLocation"];
    std::string uri = location["uri"];
    if (location.contains("uriBaseId")) {
      CHECK(location["uriBaseId"] == "%SRCROOT%");
      relative.insert(uri);
    } else {
      absolute.insert(uri);
    }
  }
  CHECK(relative ==
        std::set<std::string>{"fixtures/rules/GL101/bad.sh", "fixtures/rules/GL201/bad.sh"});
  REQUIRE(absolute.size() == 1);
  CHECK(absolute.begin()->starts_with("file:///"));
  CHECK(absolute.begin()->ends_with("/outside%20dir/run.sh"));
}
