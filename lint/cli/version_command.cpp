#include <fmt/format.h>

#include "lint/cli/cli.h"
#include "lint/cli/commands.h"
#include "lint/cli/options.h"

namespace gpulint {

int RunVersionCommand(const Args& args) {
  auto parsed = ParseNoOptions("version", "Print gpulint's version.", args);
  if (!parsed.options) return parsed.exit_code;
  fmt::print("gpulint {}\n", GPULINT_VERSION);
  return kExitClean;
}

}  // namespace gpulint
