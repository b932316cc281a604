// End-to-end checks of the command-line contract: subcommands, --help, exit codes, errors.
#include <catch2/catch.hpp>
#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include "tests/support/process.h"

using gpulint::testing::RunGpulint;

TEST_CASE("gpulint --help lists every subcommand and exits 0", "[cli]") {
  auto result = RunGpulint({"--help"});
  CHECK(result.exit_code == 0);
  for (const char* name :
       {"lint", "estimate", "fix", "parse", "explain", "rules", "models", "gpus", "version"}) {
    INFO(name);
    CHECK(result.out.find(std::string("  ") + name + " ") != std::string::npos);
  }
}

TEST_CASE("gpulint with no arguments prints usage on stderr and exits 2", "[cli]") {
  auto result = RunGpulint({});
  CHECK(result.exit_code == 2);
  CHECK(result.err.find("Usage: gpulint <command>") != std::string::npos);
  CHECK(result.out.empty());
}

TEST_CASE("every subcommand has --help that exits 0", "[cli]") {
  for (const char* name :
       {"lint", "estimate", "fix", "parse", "explain", "rules", "models", "gpus", "version"}) {
    INFO(name);
    auto result = RunGpulint({name, "--help"});
    CHECK(result.exit_code == 0);
    CHECK(result.out.find("Usage:") != std::string::npos);
  }
}

TEST_CASE("an unknown subcommand gets 'did you mean' and exit 2", "[cli]") {
  auto result = RunGpulint({"lnt", "x.sh"});
  CHECK(result.exit_code == 2);
  CHECK(result.err.find("gpulint: error: unknown command 'lnt'") == 0);
  CHECK(result.err.find("Did you mean 'gpulint lint'?") != std::string::npos);
}

TEST_CASE("an unknown option is a usage error with exit 2", "[cli]") {
  auto result = RunGpulint({"estimate", "--no-such-flag"});
  CHECK(result.exit_code == 2);
  CHECK(result.err.rfind("gpulint: error: ", 0) == 0);
}

TEST_CASE("version prints the version and exits 0", "[cli]") {
  auto result = RunGpulint({"version"});
  CHECK(result.exit_code == 0);
  CHECK(result.out.rfind("gpulint 0.", 0) == 0);
}

TEST_CASE("output that cannot be written is an error, not a clean exit", "[cli]") {
  // /dev/full takes nothing: the buffered report fails when it is flushed at the end.
  std::string command = std::string(GPULINT_BINARY) + " lint --isolated " +
                        gpulint::testing::SourcePath("fixtures/rules/GL101/bad.sh") +
                        " > /dev/full 2> /dev/null";
  int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 2);
  std::string version = std::string(GPULINT_BINARY) + " version > /dev/full 2> /dev/null";
  status = std::system(version.c_str());
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 2);
}
