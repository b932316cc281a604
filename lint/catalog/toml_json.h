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
/// The other way, for writing tables: null members and null array elements are left out (TOML
/// has no null); the caller keeps the depth bounded (config.json is checked before parsing).
toml::table JsonObjectToToml(const nlohmann::json& object);

}  // namespace gpulint
