// The canonical setting names and their types (rules/settings.toml), shared by the flag maps
// that produce settings and the rules that read them.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpulint {

enum class SettingType { kInt, kNumber, kBool, kString, kList };

struct SettingInfo {
  SettingType type = SettingType::kString;
  std::string doc;
  std::vector<std::string> related;  ///< settings written next to it (where the tuner inserts it)
  std::optional<double> min, max;    ///< the values that make sense (checked for --set)
  std::vector<std::string> values;   ///< a string setting's only values; empty: any
};

/// Every known setting, from the embedded rules/settings.toml (parsed once).
const std::map<std::string, SettingInfo>& SettingTypes();
/// The type of `name`; kString for unknown names.
SettingType TypeOfSetting(const std::string& name);
bool IsKnownSetting(const std::string& name);

}  // namespace gpulint
