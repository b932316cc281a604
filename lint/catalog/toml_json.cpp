#include "lint/catalog/toml_json.h"

namespace gpulint {
namespace {

nlohmann::json NodeToJson(const toml::node& node) {
  if (const auto* table = node.as_table()) return TomlTableToJson(*table);
  if (const auto* array = node.as_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const toml::node& element : *array) out.push_back(NodeToJson(element));
    return out;
  }
  if (const auto* value = node.as_string()) return value->get();
  if (const auto* value = node.as_integer()) return value->get();
  if (const auto* value = node.as_floating_point()) return value->get();
  if (const auto* value = node.as_boolean()) return value->get();
  return nullptr;  // dates and times carry no architecture meaning
}

}  // namespace

nlohmann::json TomlTableToJson(const toml::table& table) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, node] : table) out[std::string(key.str())] = NodeToJson(node);
  return out;
}

nlohmann::json TomlTextToJson(std::string_view text) {
  try {
    return TomlTableToJson(toml::parse(text));
  } catch (const toml::parse_error&) {
    return nlohmann::json::object();
  }
}

}  // namespace gpulint
