// Reads a YAML or JSON config file (DeepSpeed JSON, accelerate YAML, LLaMA-Factory YAML) into
// dotted keys with the exact place each scalar value is written, for settings and edits.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpulint {

struct ConfigEntry {
  std::string key;      ///< dotted path: "zero_optimization.stage"
  std::string value;    ///< the scalar as text (quotes removed)
  bool quoted = false;  ///< written as a quoted string
  bool is_null = false;
  size_t offset = 0;    ///< the value's text in the file
  size_t length = 0;
  bool exact = false;   ///< the file's bytes at [offset, offset + length) equal `value`
};

/// Parses YAML (JSON is YAML too). False with `error` ("what at line:col") on a syntax error.
bool ReadConfigEntries(std::string_view text, std::vector<ConfigEntry>* entries,
                       std::string* error);

/// YAML comments ('#' at a line start or after a blank, outside quotes): offset of the '#' and
/// the text after it.
std::vector<std::pair<size_t, std::string>> YamlComments(std::string_view text);

}  // namespace gpulint
