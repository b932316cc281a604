// A TOML value written as one string or as a list of strings ("x" or ["x", "y"]), as a list.
// Includes toml++: for the .cpp files that read TOML, never for other headers.
#pragma once

#include <string>
#include <vector>

#include <toml++/toml.h>

namespace gpulint {

/// The strings of `node`: itself if a string, its string elements if an array (others are
/// skipped), nothing if null or another type.
std::vector<std::string> TomlStrings(const toml::node* node);

}  // namespace gpulint
