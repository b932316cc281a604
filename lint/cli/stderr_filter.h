// stderr carries messages for people, and many of them quote what a script or a file name holds
// (a path, a model name, a value): a byte there may be an escape sequence that recolours,
// moves or retitles the terminal of whoever runs gpulint on a stranger's pull request. Every
// message goes through one filter instead of each of the hundred places that print one.
#pragma once

namespace gpulint {

/// Replaces the process's stderr with a stream that writes every control byte but newline and
/// tab (C0, DEL, and the two-byte UTF-8 C1 controls) as \xNN. gpulint prints no colour on
/// stderr, so nothing of its own is lost. Called once, by main().
void FilterStderrControlBytes();

}  // namespace gpulint
