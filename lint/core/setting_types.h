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
/// Why `text` cannot be a value of the known setting `name` ("not a number", "less than 1",
/// "not one of per_device, global"), or "" when it can: how a person states a value (--set,
/// gpulint.toml) is checked before anything is estimated with it.
std::string ValueTextProblem(const std::string& name, const std::string& text);

}  // namespace gpulint
