// A unified diff (the format `git apply` and `patch -p1` read) between a file's text before and
// after edits that replace text within lines.
#pragma once

#include <string>

namespace gpulint {

/// "" when the texts are equal. `path` is named a/path and b/path; `context` lines around each
/// change.
std::string UnifiedDiff(const std::string& path, const std::string& before,
                        const std::string& after, int context = 3);

}  // namespace gpulint
