#include "lint/cli/color_choice.h"

#include <cstdlib>

namespace gpulint {
namespace {

bool SetAndNotEmpty(const char* name) {
  const char* value = std::getenv(name);
  return value && *value;
}

}  // namespace

bool UseColor(const std::string& choice, bool is_terminal) {
  if (choice == "always") return true;
  if (choice == "never") return false;
  if (SetAndNotEmpty("NO_COLOR")) return false;
  return SetAndNotEmpty("FORCE_COLOR") || is_terminal;
}

}  // namespace gpulint
