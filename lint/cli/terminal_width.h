// How wide the terminal on stdout is, for text output that wraps its messages.
#pragma once

#include <cstddef>

namespace gpulint {

/// The columns of the terminal on stdout: COLUMNS when it is a number from 40 to 1000, else
/// what the terminal reports (TIOCGWINSZ) from 40 up, else 80. 0 when stdout is not a
/// terminal: a pipe, a file or a CI log keeps each message on one line.
size_t TerminalColumns();

}  // namespace gpulint
