#include "lint/cli/cli.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "lint/cli/commands.h"
#include "lint/util/suggest.h"

namespace gpulint {
namespace {

struct Subcommand {
  const char* name;
  const char* summary;
  int (*run)(const Args& args);
};

// The one table of subcommands: it drives dispatch, `gpulint --help` and "did you mean".
constexpr Subcommand kSubcommands[] = {
    {"lint", "check scripts against the rules (memory, parallelism, batch, serving, flags)",
     RunLintCommand},
    {"estimate", "per-GPU memory of every workload, term by term", RunEstimateCommand},
    {"fix", "largest batch/context that fits, or the cheapest change that makes it fit",
     RunFixCommand},
    {"parse", "what gpulint reads: workloads, settings and where each value is written",
     RunParseCommand},
    {"explain", "a rule's documentation", RunExplainCommand},
    {"rules", "list the rules", RunRulesCommand},
    {"models", "list the model catalog", RunModelsCommand},
    {"gpus", "list the GPU catalog", RunGpusCommand},
    {"version", "print the version", RunVersionCommand},
    {"completion", "print the completion script of bash, zsh or fish", RunCompletionCommand},
};

void PrintUsage(std::FILE* out) {
  fmt::print(out,
             "gpulint: lint and auto-tune launch scripts of GPU jobs that train or serve LLMs.\n\n"
             "Usage: gpulint <command> [options] [PATH...]\n\nCommands:\n");
  for (const Subcommand& command : kSubcommands)
    fmt::print(out, "  {:<12}{}\n", command.name, command.summary);
  fmt::print(out,
             "\nRun 'gpulint <command> --help' for a command's options.\n"
             "Exit codes: 0 nothing at or above --fail-on (lint), nothing to change (fix);\n"
             "            1 findings at or above --fail-on (lint), fix changed or would change a "
             "file;\n"
             "            2 a usage error, unreadable input, an invalid configuration, rule pack\n"
             "              or flag map, or output that could not be written.\n");
}

}  // namespace

int RunCli(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    PrintUsage(stderr);
    return kExitUsage;
  }
  const std::string& name = args[0];
  if (name == "--help" || name == "-h" || name == "help") {
    PrintUsage(stdout);
    return kExitClean;
  }
  if (name == "--version") return RunVersionCommand({});
  for (const Subcommand& command : kSubcommands) {
    if (name != command.name) continue;
    try {
      int code = command.run(Args(args.begin() + 1, args.end()));
      // Output is buffered: a full disk or a closed pipe shows only when it is flushed, and a
      // report cut short must not pass for a whole one.
      if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        fmt::print(stderr, "gpulint: error: cannot write the output: {}: standard output\n",
                   std::strerror(errno));
        return kExitUsage;
      }
      return code;
    } catch (const std::exception& e) {
      // Internal errors go to stderr only, so stdout stays parseable.
      fmt::print(stderr, "gpulint: error: internal error: {}: gpulint {}\n", e.what(), name);
      return kExitUsage;
    }
  }
  std::vector<std::string> names;
  for (const Subcommand& command : kSubcommands) names.push_back(command.name);
  std::vector<std::string> close = ClosestNames(name, names, 1);
  fmt::print(stderr, "gpulint: error: unknown command '{}': gpulint {}\n", name, name);
  if (!close.empty()) fmt::print(stderr, "Did you mean 'gpulint {}'?\n", close[0]);
  fmt::print(stderr, "Run 'gpulint --help' for the list of commands.\n");
  return kExitUsage;
}

}  // namespace gpulint
