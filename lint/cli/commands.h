// One function per subcommand; each takes the arguments after its name and returns an exit code.
#pragma once

#include <string>
#include <vector>

namespace gpulint {

using Args = std::vector<std::string>;

int RunLintCommand(const Args& args);
int RunEstimateCommand(const Args& args);
int RunFixCommand(const Args& args);
/// `fix` as `lint --fix` and `lint --diff` run it: fix's options, messages naming `name`.
int RunFixCommandAs(const Args& args, const std::string& name);
int RunParseCommand(const Args& args);
int RunExplainCommand(const Args& args);
int RunRulesCommand(const Args& args);
int RunModelsCommand(const Args& args);
int RunModelsAddCommand(const Args& args);  ///< `models add`
int RunGpusCommand(const Args& args);
int RunVersionCommand(const Args& args);
int RunCompletionCommand(const Args& args);

/// Prints "gpulint: error: `name` is not built yet (...)" and returns 2: a subcommand that does
/// not work yet must not pretend to.
int NotBuiltYet(const std::string& name, const std::string& tracked_in);

}  // namespace gpulint
