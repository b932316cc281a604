// Whether terminal output is coloured: `--color auto|always|never`, then the NO_COLOR
// (no-color.org) and FORCE_COLOR (force-color.org) conventions, then whether stdout is a
// terminal.
#pragma once

#include <string>

namespace gpulint {

/// "always" and "never" decide; "auto" (or "") colours when NO_COLOR is unset or empty and
/// either FORCE_COLOR is set and not empty or `is_terminal`. NO_COLOR beats FORCE_COLOR: a CI
/// log that asked for no escapes gets none. The environment is read with std::getenv.
bool UseColor(const std::string& choice, bool is_terminal);

}  // namespace gpulint
