// gpulint fix on real scripts, every framework: --maximize batch and context rewrite values in
// place (YAML stays YAML, comments stay), the file still reads, and gpulint then finds nothing
// more to change. Skipped where ../shared/corpus is absent.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "tests/corpus/fix_harness.h"
#include "tests/support/process.h"

namespace {

namespace fs = std::filesystem;
using namespace gpulint::testing;

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The comment lines of a script or YAML file, in order.
std::vector<std::string> Comments(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    size_t first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line[first] == '#') out.push_back(line);
  }
  return out;
}

}  // namespace

TEST_CASE("real scripts: a fix keeps the file's comments and a second run changes nothing",
          "[corpus][tuner]") {
  const fs::path corpus = CorpusPath();
  if (!fs::is_directory(corpus)) {
    WARN("../shared/corpus is absent: fixes on real scripts are not checked");
    return;
  }
  int changed = 0;
  for (const auto& repository : fs::directory_iterator(corpus)) {
    if (!repository.is_directory()) continue;
    const std::string name = repository.path().filename().string();
    const auto scripts = RanScripts(name);
    if (scripts.empty()) continue;
    for (const char* objective : {"batch", "context"}) {
      INFO(name << ": --maximize " << objective);
      TempDir dir;
      const fs::path root = WritableCopy(name, dir);
      for (const auto& [gpu, list] : scripts) {
        std::map<std::string, std::string> before;
        for (const std::string& file : list) before[file] = ReadText(root / file);
        std::vector<std::string> args = {"fix", "--isolated", "--gpu", gpu, "--maximize",
                                         objective};
        args.insert(args.end(), list.begin(), list.end());
        std::vector<std::string> write = args;
        write.insert(write.begin() + 1, "--write");
        auto first = RunGpulint(write, "", root.string());
        INFO(first.err);
        REQUIRE((first.exit_code == 0 || first.exit_code == 1));
        for (const std::string& file : list) {
          const std::string after = ReadText(root / file);
          if (after == before[file]) continue;
          ++changed;
          INFO(file);
          CHECK(Comments(after) == Comments(before[file]));
        }
        auto second = RunGpulint(args, "", root.string());
        INFO(second.out);
        CHECK(second.exit_code == 0);  // nothing left to change
        CHECK(second.out.find("+++ ") == std::string::npos);
        std::vector<std::string> parse = {"parse", "--isolated", "--format", "json"};
        parse.insert(parse.end(), list.begin(), list.end());
        CHECK(RunGpulint(parse, "", root.string()).exit_code == 0);
      }
    }
  }
  CHECK(changed >= 100);
}
