// CollectFiles: a folder walk over every core that finds the same files, in the same order, as
// a walk by hand would.
#include "lint/workspace/file_walker.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>

#include "tests/support/process.h"

using namespace gpulint;
using namespace gpulint::testing;

TEST_CASE("a wide and deep tree is walked completely, sorted, with .gitignore per folder",
          "[workspace][walker]") {
  TempDir dir;
  std::vector<std::string> expected;
  // 30 folders, each three levels deep, with scripts and other files at every level.
  for (int top = 0; top < 30; ++top) {
    std::string base = fmt::format("team{:02d}", top);
    for (const char* sub : {"", "/jobs", "/jobs/old"}) {
      std::string folder = base + sub;
      expected.push_back(dir.Write(folder + "/run.sh", "echo run\n"));
      expected.push_back(dir.Write(folder + "/launch", "#!/bin/bash\necho launch\n"));
      dir.Write(folder + "/notes.md", "# notes\n");
      dir.Write(folder + "/helper", "#!/usr/bin/env python3\n");
    }
  }
  // A .gitignore in one folder hides what it names there and below, and nowhere else.
  dir.Write("team07/.gitignore", "old/\n");
  expected.erase(std::remove_if(expected.begin(), expected.end(),
                                [](const std::string& path) {
                                  return path.find("team07/jobs/old/") != std::string::npos;
                                }),
                 expected.end());
  dir.Write(".hidden/skip.sh", "echo hidden\n");
  dir.Write("node_modules/skip.sh", "echo vendored\n");
  std::sort(expected.begin(), expected.end());

  for (int run = 0; run < 3; ++run) {  // the order does not depend on which thread is faster
    std::vector<std::string> files;
    std::string error;
    REQUIRE(CollectFiles(dir.path(), {}, {}, &files, &error));
    CHECK(error.empty());
    CHECK(files == expected);
  }
  std::vector<std::string> files;
  std::string error;
  REQUIRE(CollectFiles(dir.path(), {"**/jobs/**"}, {}, &files, &error));
  CHECK(files.size() == 30 * 2);  // only the top level of each team is left
}

TEST_CASE("a named file is taken as it is, a missing one is an error", "[workspace][walker]") {
  TempDir dir;
  std::string path = dir.Write("config.yaml", "a: 1\n");
  std::vector<std::string> files;
  std::string error;
  REQUIRE(CollectFiles(path, {}, {}, &files, &error));
  CHECK(files == std::vector<std::string>{path});
  CHECK_FALSE(CollectFiles(dir.path() + "/missing", {}, {}, &files, &error));
  CHECK(error.find("no such file or folder") == 0);
}
