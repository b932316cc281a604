#include "lint/cli/terminal_width.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "lint/util/strings.h"

namespace gpulint {

size_t TerminalColumns() {
  if (!isatty(1)) return 0;
  constexpr double kMin = 40, kMax = 1000;
  double columns = 0;
  if (const char* env = std::getenv("COLUMNS");
      env && ParseNumber(env, &columns) && columns >= kMin && columns <= kMax)
    return static_cast<size_t>(columns);
  winsize size{};
  if (ioctl(1, TIOCGWINSZ, &size) == 0 && size.ws_col >= kMin && size.ws_col <= kMax)
    return size.ws_col;
  return 80;
}

}  // namespace gpulint
