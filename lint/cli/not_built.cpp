// Subcommands that are not built yet. Each one parses its options (so --help works) and then
// says plainly that it does not work yet, with exit code 2. Delete a line here when its command
// lands in its own file.
#include <fmt/format.h>

#include <cstdio>

#include "lint/cli/cli.h"
#include "lint/cli/commands.h"
#include "lint/cli/options.h"

namespace gpulint {

int NotBuiltYet(const std::string& name, const std::string& tracked_in) {
  fmt::print(stderr, "gpulint: error: '{}' is not built yet ({}): gpulint {}\n", name, tracked_in,
             name);
  return kExitUsage;
}

}  // namespace gpulint
