// The release version is written where each packaging tool reads it: CMake (the binary's
// `gpulint version`, the .deb and the tarball), the wheel, the pre-commit meta package, the man
// page, the GitHub Action and the GitLab template. Bumping one and not the others ships a
// wheel that installs a different binary than the hooks pin; this test keeps them together.
#include <catch2/catch.hpp>

#include <regex>

#include "tests/support/process.h"

using namespace gpulint::testing;

namespace {

std::string Captured(const std::string& file, const std::string& pattern) {
  std::smatch match;
  const std::string text = ReadWholeFile(SourcePath(file));
  if (!std::regex_search(text, match, std::regex(pattern))) return "(not found in " + file + ")";
  return match[1];
}

}  // namespace

TEST_CASE("every place that names the release names the same one", "[dist]") {
  const std::string version = Captured("CMakeLists.txt", R"(project\(gpulint VERSION ([0-9.]+))");
  REQUIRE(std::regex_match(version, std::regex(R"([0-9]+\.[0-9]+\.[0-9]+)")));
  CHECK(RunGpulint({"version"}).out == "gpulint " + version + "\n");
  CHECK(Captured("packaging/python/pyproject.toml", R"(\nversion = "([^"]+)\")") == version);
  CHECK(Captured("pyproject.toml", R"(\nversion = "([^"]+)\")") == version);
  CHECK(Captured("pyproject.toml", R"("gpulint==([^"]+)\")") == version);
  CHECK(Captured("docs/gpulint.1", R"(\.TH GPULINT 1 "[^"]*" "gpulint ([^"]+)\")") == version);
  CHECK(Captured(".pre-commit-hooks.yaml", R"(rev: v([0-9.]+))") == version);
  CHECK(Captured("action.yml", R"(default: "([0-9]+\.[0-9.]+)\")") == version);
  CHECK(Captured("action.yml", R"(gpulint/gpulint@v([0-9.]+))") == version);
  CHECK(Captured("ci/gitlab-ci.yml", R"(gpulint==([0-9.]+))") == version);
  CHECK(Captured("ci/gitlab-ci.yml", R"(gpulint/v([0-9.]+)/)") == version);
}
