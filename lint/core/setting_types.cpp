#include "lint/core/setting_types.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "lint/data/embedded_data.h"
#include "lint/util/strings.h"

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

std::string ValueTextProblem(const std::string& name, const std::string& text) {
  auto known = SettingTypes().find(name);
  if (known == SettingTypes().end()) return "unknown setting";
  const SettingInfo& info = known->second;
  if (info.type == SettingType::kBool) return ParseBoolText(text) ? "" : "not true or false";
  if (!info.values.empty() &&
      std::find(info.values.begin(), info.values.end(), text) == info.values.end())
    return fmt::format("not one of {}", fmt::join(info.values, ", "));
  if (info.type != SettingType::kInt && info.type != SettingType::kNumber) return "";
  double number = 0;
  if (!ParseNumber(text, &number) || !std::isfinite(number)) return "not a number";
  if (info.type == SettingType::kInt && number != std::floor(number)) return "not a whole number";
  if (info.min && number < *info.min) return fmt::format("less than {}", *info.min);
  if (info.max && number > *info.max) return fmt::format("more than {}", *info.max);
  return "";
}

}  // namespace gpulint
