// Writing a file the user named on the command line (--output-file, --write-baseline).
#pragma once

#include <string>

namespace gpulint {

/// Writes `text` to `path`, replacing it atomically (a full disk leaves the old report, never
/// a truncated one). False with the reason in `error` when the file cannot be created or
/// written, so that a report is never silently missing.
bool WriteOutputFile(const std::string& path, const std::string& text, std::string* error);

}  // namespace gpulint
