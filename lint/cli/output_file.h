// Writing a file the user named on the command line (--output-file, --write-baseline).
#pragma once

#include <string>

namespace gpulint {

/// Writes `text` to `path`, replacing it. False with "cannot write PATH: reason" in `error` when
/// the file cannot be created or written, so that a report is never silently missing.
bool WriteOutputFile(const std::string& path, const std::string& text, std::string* error);

}  // namespace gpulint
