// Turns a model description into a ModelEntry: a Hugging Face config.json (nested text_config /
// vision_config / quantization_config) or a catalog [[model]] table (the same keys, flattened).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "lint/catalog/model_entry.h"

namespace gpulint {

/// Parses config.json text. `where` names the file in errors. On failure returns false and sets
/// `error` to "what: where" (e.g. "config.json has no hidden_size: /ckpt/x/config.json").
bool ParseModelConfigJson(std::string_view json_text, const std::string& where, ModelEntry* entry,
                          std::string* error);

/// A key written first in a table: hf_id, source, params_total (a count) ...
using TableHeaderValue = std::pair<std::string, std::variant<std::string, int64_t>>;

/// The [[model]] table (TOML text, header line included) that describes the model of config.json
/// text as this reader sees it: `header` (hf_id, source, ...) first, then the keys the reader uses,
/// VLM sub-configs flattened as the catalog writes them. The table is read back and compared with
/// the config; false with `error` when the config is not a model description or the table would
/// describe a different model. `array_name` is the table array ("model", "tool.gpulint.model").
bool ModelTableFromConfigJson(std::string_view json_text, const std::string& where,
                              const std::vector<TableHeaderValue>& header,
                              const std::string& array_name, std::string* table,
                              std::string* error);

/// Parses every [[model]] table in TOML text (a catalog file, a block of one, or gpulint.toml)
/// and appends the entries. `where` names the file in errors.
/// `array_name` is where the tables sit ("tool.gpulint.model" in a pyproject.toml).
bool ParseModelTables(std::string_view toml_text, const std::string& where,
                      std::vector<ModelEntry>* entries, std::string* error,
                      std::string_view array_name = "model");

}  // namespace gpulint
