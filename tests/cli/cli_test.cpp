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
  for (const char* name : {"lint", "estimate", "fix", "parse", "explain", "rules", "models",
                           "gpus", "version", "completion"}) {
    INFO(name);
    CHECK(result.out.find(std::string("  ") + name + " ") != std::string::npos);
  }
}

TEST_CASE("the exit-code contract reads the same in --help, the README and the man page",
          "[cli]") {
  // Each says what exit 2 covers in the same words (they had drifted apart: --help left out
  // flag maps and output that could not be written).
  auto help = RunGpulint({"--help"});
  auto flat = [](std::string text) {
    std::string out;
    for (char c : text) {
      if (c == '\n' || c == ' ') {
        if (!out.empty() && out.back() != ' ') out += ' ';
      } else if (c != '*' && c != '\\') {
        out += c;
      }
    }
    return out;
  };
  const std::string code_2 = "a usage error, unreadable input, an invalid configuration, rule "
                             "pack or flag map, or output that could not be written";
  CHECK(flat(help.out).find(code_2) != std::string::npos);
  CHECK(flat(gpulint::testing::ReadWholeFile(gpulint::testing::SourcePath("README.md")))
            .find(code_2) != std::string::npos);
  // The man page says it as a sentence: its first word capitalized, roff escapes dropped.
  std::string man = flat(gpulint::testing::ReadWholeFile(gpulint::testing::SourcePath("docs/gpulint.1")));
  CHECK(man.find("A usage error, unreadable input, an invalid configuration, rule pack or flag "
                 "map, or output that could not be written") != std::string::npos);
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
