// Command-line entry point: picks the subcommand from a table and maps failures to exit codes.
#pragma once

namespace gpulint {

/// Exit codes of the CLI contract (../shared/design/architecture.md).
enum ExitCode : int {
  kExitClean = 0,     ///< nothing at or above --fail-on
  kExitFindings = 1,  ///< findings at or above --fail-on, or `fix` changed / would change a file
  kExitUsage = 2,     ///< usage error, unreadable input, invalid config or rule file
};

/// Runs `gpulint argv[1] ...` and returns the process exit code.
int RunCli(int argc, char** argv);

}  // namespace gpulint
