// Gitignore: git's matching rules (gitignore(5)) as a folder walk applies them, and a large file
// shared by every folder below it.
#include "lint/workspace/gitignore.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <string>

using namespace gpulint;

TEST_CASE("a .gitignore's names, suffixes, folders and paths", "[workspace][gitignore]") {
  auto rules = Gitignore::Add(nullptr, "",
                              "# a comment\n"
                              "\n"
                              "secret.sh\n"
                              "*.log\n"
                              "build/\n"
                              "/top.sh\n"
                              "jobs/old/*.sh\n"
                              "run-[0-9].sh\n"
                              "**/cache\n"
                              "!keep.sh\n");
  // A name without a slash, at any depth.
  CHECK(rules->Ignores("secret.sh", false));
  CHECK(rules->Ignores("a/b/secret.sh", false));
  CHECK_FALSE(rules->Ignores("a/b/not-secret.sh", false));
  // "*.log": a suffix, the whole name included.
  CHECK(rules->Ignores("x/train.log", false));
  CHECK(rules->Ignores(".log", false));
  CHECK_FALSE(rules->Ignores("x/train.log.sh", false));
  // "build/": folders only.
  CHECK(rules->Ignores("a/build", true));
  CHECK_FALSE(rules->Ignores("a/build", false));
  // A leading slash: at this folder only.
  CHECK(rules->Ignores("top.sh", false));
  CHECK_FALSE(rules->Ignores("a/top.sh", false));
  // An inner slash: a path from this folder.
  CHECK(rules->Ignores("jobs/old/run.sh", false));
  CHECK_FALSE(rules->Ignores("x/jobs/old/run.sh", false));
  // Brackets are wildcards; "**/" in front is any depth, the top included.
  CHECK(rules->Ignores("q/run-7.sh", false));
  CHECK_FALSE(rules->Ignores("q/run-x.sh", false));
  CHECK(rules->Ignores("cache", true));
  CHECK(rules->Ignores("a/b/cache", false));
  // Negations are not applied: what they re-include stays as the other patterns leave it.
  CHECK_FALSE(rules->Ignores("keep.sh", false));
}

TEST_CASE("a nested .gitignore holds below its folder, from its folder", "[workspace][gitignore]") {
  auto top = Gitignore::Add(nullptr, "", "*.tmp\n");
  auto team = Gitignore::Add(top, "team07", "/old/\njobs/draft.sh\nscratch.sh\n");
  // The folder's own patterns are read from the folder, not from the walk's root.
  CHECK(team->Ignores("team07/old", true));
  CHECK_FALSE(team->Ignores("team07/jobs/old", true));
  CHECK(team->Ignores("team07/jobs/draft.sh", false));
  CHECK(team->Ignores("team07/jobs/scratch.sh", false));
  // The root's patterns still hold; the folder's do not reach a sibling.
  CHECK(team->Ignores("team07/x.tmp", false));
  CHECK_FALSE(top->Ignores("team08/scratch.sh", false));
  CHECK_FALSE(team->Ignores("team08/scratch.sh", false));
}

TEST_CASE("a megabyte of generated names and suffixes ignores exactly what it names",
          "[workspace][gitignore]") {
  // 60,000 literal names and 20,000 suffixes, as generated files list them, go to hash sets;
  // what that saves is measured in bench/speed (a timed test would be flaky), this checks that
  // the sets still match what the patterns say.
  std::string text;
  for (int i = 0; i < 60000; ++i) text += fmt::format("out-{}.bin\n", i);
  for (int i = 0; i < 20000; ++i) text += fmt::format("*.x{}\n", i);
  REQUIRE(text.size() > 900000);
  auto rules = Gitignore::Add(nullptr, "", text);
  CHECK(rules->Ignores("data/out-59999.bin", false));
  CHECK(rules->Ignores("data/file.x19999", false));
  int ignored = 0;
  for (int i = 0; i < 100000; ++i)
    ignored += rules->Ignores(fmt::format("jobs/run{}.sh", i), false) ? 1 : 0;
  CHECK(ignored == 0);
}
