// Small string helpers shared across gpulint (ASCII only: names, flags, ids).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpulint {

std::string ToLower(std::string_view s);
bool StartsWith(std::string_view s, std::string_view prefix);
bool EndsWith(std::string_view s, std::string_view suffix);
std::string_view Trim(std::string_view s);
/// Splits at any of `separators`; empty pieces are dropped.
std::vector<std::string> SplitAny(std::string_view s, std::string_view separators);
std::string Join(const std::vector<std::string>& parts, std::string_view separator);
/// Parses a whole string as a number ("8", "0.90", "1e-3"); false when it is not one.
bool ParseNumber(std::string_view s, double* value);
/// Parses "true"/"false"/"1"/"0"/"yes"/"no"/"on"/"off" (any case); nullopt for anything else.
std::optional<bool> ParseBoolText(std::string_view text);

}  // namespace gpulint
