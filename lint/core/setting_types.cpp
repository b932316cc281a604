#include "lint/core/setting_types.h"

#include <fmt/format.h>

#include <cstdlib>
#include <toml++/toml.h>

#include "lint/data/embedded_data.h"

namespace gpulint {

const std::map<std::string, SettingInfo>& SettingTypes() {
  static const std::map<std::string, SettingInfo> types = [] {
    std::map<std::string, SettingInfo> out;
    for (const EmbeddedFile& file : EmbeddedFiles()) {
      if (file.path != "rules/settings.toml") continue;
      toml::table table;
      try {
        table = toml::parse(file.content, std::string_view(file.path));
      } catch (const toml::parse_error& e) {
        fmt::print(stderr, "gpulint: error: rules/settings.toml is broken: {}\n", e.description());
        std::abort();
      }
      const toml::table* settings = table["setting"].as_table();
      if (!settings) break;
      for (const auto& [name, node] : *settings) {
        SettingInfo info;
        std::string type = node.as_table() ? (*node.as_table())["type"].value_or(std::string())
                                           : std::string();
        info.type = type == "int"      ? SettingType::kInt
                    : type == "number" ? SettingType::kNumber
                    : type == "bool"   ? SettingType::kBool
                    : type == "list"   ? SettingType::kList
                                       : SettingType::kString;
        if (const toml::table* t = node.as_table()) {
          info.doc = (*t)["doc"].value_or(std::string());
          info.min = (*t)["min"].value<double>();
          info.max = (*t)["max"].value<double>();
          if (const toml::array* related = (*t)["related"].as_array())
            for (const toml::node& r : *related)
              if (auto text = r.value<std::string>()) info.related.push_back(*text);
          if (const toml::array* values = (*t)["values"].as_array())
            for (const toml::node& v : *values)
              if (auto text = v.value<std::string>()) info.values.push_back(*text);
        }
        out[std::string(name.str())] = info;
      }
    }
    return out;
  }();
  return types;
}

SettingType TypeOfSetting(const std::string& name) {
  auto it = SettingTypes().find(name);
  return it == SettingTypes().end() ? SettingType::kString : it->second.type;
}

bool IsKnownSetting(const std::string& name) { return SettingTypes().count(name) > 0; }

}  // namespace gpulint
