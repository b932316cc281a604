#include "lint/catalog/toml_json.h"

#include <cstdint>
#include <string>

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

// A JSON value as a TOML node; false for null, which TOML cannot hold.
bool JsonToNode(const nlohmann::json& value, toml::array* array, toml::table* table,
                const std::string& key) {
  auto put = [&](auto&& node) {
    if (array) {
      array->push_back(std::forward<decltype(node)>(node));
    } else {
      table->insert_or_assign(key, std::forward<decltype(node)>(node));
    }
  };
  if (value.is_object()) {
    put(JsonObjectToToml(value));
  } else if (value.is_array()) {
    toml::array out;
    for (const nlohmann::json& element : value) JsonToNode(element, &out, nullptr, "");
    put(std::move(out));
  } else if (value.is_string()) {
    put(value.get<std::string>());
  } else if (value.is_boolean()) {
    put(value.get<bool>());
  } else if (value.is_number_integer() && value.is_number_unsigned() &&
             value.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
    put(value.get<double>());
  } else if (value.is_number_integer()) {
    put(value.get<int64_t>());
  } else if (value.is_number()) {
    put(value.get<double>());
  } else {
    return false;
  }
  return true;
}

}  // namespace

toml::table JsonObjectToToml(const nlohmann::json& object) {
  toml::table out;
  for (const auto& [key, value] : object.items()) JsonToNode(value, nullptr, &out, key);
  return out;
}

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
