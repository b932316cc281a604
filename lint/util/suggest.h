// "Did you mean": the closest spellings of a mistyped name among known names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpulint {

/// Levenshtein distance between a and b, compared case-insensitively.
int EditDistance(std::string_view a, std::string_view b);

/// Up to `max_results` candidates close to `name`, best first. A candidate is close when its
/// edit distance is at most a third of the longer length (at least 1 and at most 4 edits), or
/// when one contains the other (case-insensitive).
std::vector<std::string> ClosestNames(std::string_view name,
                                      const std::vector<std::string>& candidates,
                                      size_t max_results = 3);

/// " (did you mean a, b?)" to append to an error, or "" when there is nothing to suggest.
std::string DidYouMean(const std::vector<std::string>& suggestions);

}  // namespace gpulint
