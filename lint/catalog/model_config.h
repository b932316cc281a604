// Turns a model description into a ModelEntry: a Hugging Face config.json (nested text_config /
// vision_config / quantization_config) or a catalog [[model]] table (the same keys, flattened).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lint/catalog/model_entry.h"

namespace gpulint {

/// Parses config.json text. `where` names the file in errors. On failure returns false and sets
/// `error` to "what: where" (e.g. "config.json has no hidden_size: /ckpt/x/config.json").
bool ParseModelConfigJson(std::string_view json_text, const std::string& where, ModelEntry* entry,
                          std::string* error);

/// Parses every [[model]] table in TOML text (a catalog file, a block of one, or gpulint.toml)
/// and appends the entries. `where` names the file in errors.
bool ParseModelTables(std::string_view toml_text, const std::string& where,
                      std::vector<ModelEntry>* entries, std::string* error);

}  // namespace gpulint
