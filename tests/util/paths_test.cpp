// The string path helpers agree with std::filesystem, which they replace on the reader's hot
// path: every path of up to five elements drawn from a small alphabet, and hand-picked ones.
#include "lint/util/paths.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

using gpulint::JoinPath;
using gpulint::LexicallyNormal;

namespace {

std::string StdNormal(const std::string& path) {
  // The one difference: libstdc++ leaves a path of only slashes ("//") as it is; it names
  // the root, "/".
  if (!path.empty() && path.find_first_not_of('/') == std::string::npos) return "/";
  return std::filesystem::path(path).lexically_normal().string();
}

std::string StdJoin(const std::string& base, const std::string& path) {
  return (std::filesystem::path(base) / path).string();
}

}  // namespace

TEST_CASE("LexicallyNormal matches std::filesystem on examples", "[util]") {
  CHECK(LexicallyNormal("a/./b/../c") == "a/c");
  CHECK(LexicallyNormal("a/..") == ".");
  CHECK(LexicallyNormal("a/b/..") == "a/");
  CHECK(LexicallyNormal("/../x") == "/x");
  CHECK(LexicallyNormal("../a/../../b") == "../../b");
  CHECK(LexicallyNormal("scripts//train.sh") == "scripts/train.sh");
  CHECK(LexicallyNormal("") == "");
  for (const char* path :
       {"a/./b/../c", "a/..", "a/b/..", "/../x", "../a/../../b", "scripts//train.sh", "", "/", "//",
        ".", "./", "..", "../", "/a/", "a/b/.", "./a", "a//b//", "/./..", "x/../../y/./z/.."}) {
    INFO(path);
    CHECK(LexicallyNormal(path) == StdNormal(path));
  }
}

TEST_CASE("LexicallyNormal matches std::filesystem on every short path", "[util]") {
  const std::vector<std::string> alphabet = {"a", "bc", ".", "..", ""};
  std::vector<std::string> paths = {""};
  for (int length = 1; length <= 5; ++length) {
    std::vector<std::string> longer;
    for (const std::string& path : paths)
      for (const std::string& element : alphabet) {
        if (path.size() > 0 || length == 1) longer.push_back(path + "/" + element);
        longer.push_back(path.empty() ? element : path + "/" + element);
      }
    paths.insert(paths.end(), longer.begin(), longer.end());
    if (paths.size() > 20000) break;
  }
  int checked = 0;
  for (const std::string& path : paths) {
    INFO(path);
    REQUIRE(LexicallyNormal(path) == StdNormal(path));
    ++checked;
  }
  CHECK(checked > 1000);
}

TEST_CASE("JoinPath matches std::filesystem's operator/", "[util]") {
  for (const char* base : {"", "a", "a/", "/", "/x/y", "."})
    for (const char* path : {"", "b", "/abs", "b/c", "..", "./b"}) {
      INFO(base << " / " << path);
      CHECK(JoinPath(base, path) == StdJoin(base, path));
    }
}

TEST_CASE("ReportPath drops ./ and makes paths under the working folder relative", "[util]") {
  using gpulint::ReportPath;
  CHECK(ReportPath("./x.sh", "/repo") == "x.sh");
  CHECK(ReportPath("././a//b/./x.sh", "/repo") == "a/b/x.sh");
  CHECK(ReportPath(".", "/repo") == ".");
  CHECK(ReportPath("./", "/repo") == ".");
  CHECK(ReportPath("/repo/jobs/x.sh", "/repo") == "jobs/x.sh");
  CHECK(ReportPath("/repo/./jobs//x.sh", "/repo/") == "jobs/x.sh");
  CHECK(ReportPath("/repo", "/repo") == ".");
  // Not under it: a sibling whose name starts the same, a parent, another tree.
  CHECK(ReportPath("/repository/x.sh", "/repo") == "/repository/x.sh");
  CHECK(ReportPath("/other/x.sh", "/repo") == "/other/x.sh");
  // ".." is kept: "link/.." is not "." when link is a symbolic link.
  CHECK(ReportPath("./link/../x.sh", "/repo") == "link/../x.sh");
  CHECK(ReportPath("../x.sh", "/repo") == "../x.sh");
  // No working folder known, or the root: absolute paths stay as they are.
  CHECK(ReportPath("/repo/x.sh", "") == "/repo/x.sh");
  CHECK(ReportPath("/repo/x.sh", "/") == "/repo/x.sh");
  CHECK(ReportPath("", "/repo").empty());
}
