// How deep a JSON document nests, counted without parsing it, so that parsers and the code that
// walks their trees (recursive, like every tree copy and destructor) are never handed a
// document deeper than a real config.
#pragma once

#include <cstddef>
#include <string_view>

namespace gpulint {

/// Real configs nest a handful of levels; 64 leaves room for any of them.
constexpr size_t kMaxJsonDepth = 64;

/// The deepest nesting of [ and { outside strings (also right for YAML flow collections).
size_t JsonNestingDepth(std::string_view text);

}  // namespace gpulint
