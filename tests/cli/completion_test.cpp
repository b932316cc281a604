// `gpulint completion bash|zsh|fish`: each script names every option that each subcommand's
// --help lists (so a new option cannot be left out), and bash's completes what it should when
// run by the real bash.
#include <catch2/catch.hpp>

#include <regex>
#include <set>

#include "tests/support/process.h"

using namespace gpulint::testing;

namespace {

// Every --long and -s option in a subcommand's --help.
std::set<std::string> HelpOptions(const std::vector<std::string>& command) {
  std::vector<std::string> args = command;
  args.push_back("--help");
  auto help = RunGpulint(args);
  REQUIRE(help.exit_code == 0);
  std::set<std::string> options;
  static const std::regex kOption(R"(^  (-[a-z],)?(--[a-z0-9-]+))");
  std::istringstream lines(help.out);
  for (std::string line; std::getline(lines, line);) {
    std::smatch match;
    if (!std::regex_search(line, match, kOption)) continue;
    options.insert(match[2]);
    if (match[1].matched) options.insert(match[1].str().substr(0, 2));
  }
  return options;
}

// What bash completes for `words` (the last one being completed), with the script sourced.
std::string BashComplete(const std::string& script, const std::string& words) {
  auto result = RunProcess("bash", {"-c",
                                    "source \"$0\"; COMP_WORDS=(" + words +
                                        "); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _gpulint; "
                                        "printf '%s\\n' \"${COMPREPLY[@]}\"",
                                    script});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return result.out;
}

}  // namespace

TEST_CASE("every completion script names every option of every subcommand", "[cli]") {
  const std::vector<std::vector<std::string>> commands = {
      {"lint"},  {"estimate"}, {"fix"},  {"parse"},         {"explain"},
      {"rules"}, {"models"},   {"gpus"}, {"models", "add"}, {"version"}};
  for (const char* shell : {"bash", "zsh", "fish"}) {
    auto script = RunGpulint({"completion", shell});
    REQUIRE(script.exit_code == 0);
    for (const auto& command : commands)
      for (const std::string& option : HelpOptions(command)) {
        INFO(shell << ": gpulint " << command[0] << " " << option);
        // fish writes "-l name" and "-s q", zsh and bash the option itself.
        std::string spelled = std::string(shell) != "fish" ? option
                              : option.starts_with("--")   ? "-l " + option.substr(2)
                                                           : "-s " + option.substr(1);
        CHECK(script.out.find(spelled) != std::string::npos);
      }
  }
  auto bad = RunGpulint({"completion", "tcsh"});
  CHECK(bad.exit_code == 2);
}

TEST_CASE("bash completes subcommands, a subcommand's options and their values", "[cli]") {
  TempDir dir;
  auto script = RunGpulint({"completion", "bash"});
  REQUIRE(script.exit_code == 0);
  dir.Write("gpulint.bash", script.out);
  const std::string path = dir.path() + "/gpulint.bash";
  CHECK(BashComplete(path, "gpulint es") == "estimate\n");
  CHECK(BashComplete(path, "gpulint lint --fail") == "--fail-on\n");
  CHECK(BashComplete(path, "gpulint lint --fail-on w") == "warning\n");
  CHECK(BashComplete(path, "gpulint fix --maximize ''") == "batch\ncontext\n");
  CHECK(BashComplete(path, "gpulint lint --format sa") == "sarif\n");
  CHECK(BashComplete(path, "gpulint models a") == "add\n");
  CHECK(BashComplete(path, "gpulint completion f") == "fish\n");
}
