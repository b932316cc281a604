// `gpulint completion bash|zsh|fish`: prints the shell's completion script (completions/, compiled
// into the binary), for `gpulint completion bash >
// ~/.local/share/bash-completion/completions/gpulint`.
#include <fmt/format.h>

#include "lint/cli/cli.h"
#include "lint/cli/commands.h"
#include "lint/cli/options.h"
#include "lint/data/embedded_data.h"

namespace gpulint {

int RunCompletionCommand(const Args& args) {
  auto parsed = ParseCompletionOptions(args);
  if (!parsed.options) return parsed.exit_code;
  const std::string& shell = *parsed.options;
  const std::string path = shell == "bash"  ? "completions/gpulint.bash"
                           : shell == "zsh" ? "completions/_gpulint"
                                            : "completions/gpulint.fish";
  for (const EmbeddedFile& file : EmbeddedFiles())
    if (file.path == path) {
      fmt::print("{}", file.content);
      return kExitClean;
    }
  fmt::print(stderr, "gpulint: error: internal error: {} is not compiled in: gpulint completion\n",
             path);
  return kExitUsage;
}

}  // namespace gpulint
