// Parsing TOML that anyone may have written (gpulint.toml, pyproject.toml, rule packs, flag
// maps, [[model]] and [[gpu]] tables): toml++ builds a dotted key's tables recursively, so a key
// of 20,000 parts overflows the stack (ASan: stack-overflow in parser::update_region_ends)
// before any error could be reported. The text is measured first and refused past any real
// file's depth; then parsed, with toml++'s error worded as every caller words it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <toml++/toml.h>

namespace gpulint {

/// Real keys have a handful of parts ("tool.gpulint.model", "[severity]"); 64 leaves room.
constexpr size_t kMaxTomlKeyParts = 64;

/// The most dot-separated parts a key of one line has, counted outside strings and comments:
/// dots between two digits are numbers (1.5, a time's fraction), not key separators. A line
/// with several keys (an inline table) counts them together, which only over-counts.
size_t TomlKeyParts(std::string_view text);

/// Parses `text` into `table`; on failure sets `error` to "invalid TOML (why): where:line:column"
/// or says the keys nest too deep, and returns false.
bool ParseToml(std::string_view text, std::string_view where, toml::table* table,
               std::string* error);

}  // namespace gpulint
