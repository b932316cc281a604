// TOML to nlohmann::json, so that catalog tables and config.json files share one reader.
// Include only from .cpp files: both headers are heavy.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>
#include <toml++/toml.h>

namespace gpulint {

nlohmann::json TomlTableToJson(const toml::table& table);
/// Parses TOML text; returns an empty object when the text is not valid TOML.
nlohmann::json TomlTextToJson(std::string_view text);

}  // namespace gpulint
