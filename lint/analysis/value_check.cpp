#include "lint/analysis/value_check.h"

#include <fmt/format.h>

#include <re2/re2.h>

#include <cctype>
#include <cmath>

#include "lint/core/setting_types.h"

namespace gpulint {
namespace {

// The largest value of a 32-bit int: what the frameworks' own int arguments hold, and what
// gpulint's estimator multiplies in doubles without losing a digit.
constexpr double kMaxInt = 2147483647;

// Why `value` is not a value of setting `name`, or "" when it is one.
std::string Problem(const std::string& name, const Value& value) {
  auto info = SettingTypes().find(name);
  if (info == SettingTypes().end()) return "";
  const SettingInfo& s = info->second;
  if (!s.values.empty() && value.is_string()) return ValueTextProblem(name, value.text);
  if (!value.is_number()) return "";
  if (s.type != SettingType::kInt && s.type != SettingType::kNumber) return "";
  const double n = value.number;
  if (!std::isfinite(n)) return "not a finite number";
  if (s.type == SettingType::kInt && n != std::floor(n)) return "not a whole number";
  if (s.min && n < *s.min) return fmt::format("less than {}", *s.min);
  double max = s.max ? *s.max : (s.type == SettingType::kInt ? kMaxInt : HUGE_VAL);
  if (n > max) return fmt::format("more than {}", max);
  if (s.type == SettingType::kInt && n < -kMaxInt) return fmt::format("less than {}", -kMaxInt);
  return "";
}

bool IsNumeric(const std::string& name) {
  auto info = SettingTypes().find(name);
  return info != SettingTypes().end() &&
         (info->second.type == SettingType::kInt || info->second.type == SettingType::kNumber);
}

// "32k", "1.5M": a count with a unit suffix, which some releases parse (vLLM's
// human_readable_int) and argparse's int() refuses. gpulint does not guess which: unknown.
bool HasUnitSuffix(const std::string& text) {
  static const re2::RE2 kSuffixed("[0-9]+(\\.[0-9]+)?[kKmMgGtT]");
  return re2::RE2::FullMatch(text, kSuffixed);
}

// A numeric setting written as text. A word a framework defines stays as it was read: "auto"
// (a DeepSpeed config's value the HF Trainer fills from its own flags, which the maps resolve),
// "none", "null". A suffixed count is not known. Anything else ("abc", "1e999", "0x7fffffff":
// argparse's int() and float() refuse them) is no number. Either way it is not estimated with,
// where it silently fell back to the framework's default.
bool CheckText(Setting* setting, RunConfig* config) {
  if (!IsNumeric(setting->name) || !setting->value.is_string()) return false;
  const std::string text = setting->value.text;
  if (text == kNoLimit) return false;
  std::string lower = text;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "auto" || lower == "none" || lower == "null" || lower.empty()) return false;
  if (HasUnitSuffix(text)) {
    std::string reason = fmt::format("'{}' is not a number gpulint reads", text);
    config->unresolved.push_back({setting->name, reason, setting->span});
    setting->value = Value();
    setting->editable = false;
    setting->not_editable_reason = reason;
    return true;
  }
  config->invalid.push_back({setting->name, text, "not a number", setting->span});
  setting->value = Value();
  setting->editable = false;
  setting->not_editable_reason = fmt::format("{} = {} is not a number", setting->name, text);
  return true;
}

void Check(Setting* setting, RunConfig* config) {
  if (CheckText(setting, config)) return;
  std::string problem = Problem(setting->name, setting->value);
  if (problem.empty()) return;
  std::string written =
      setting->value.text.empty() ? setting->value.ToString() : setting->value.text;
  config->invalid.push_back({setting->name, written, problem, setting->span});
  setting->value = Value();
  setting->editable = false;
  setting->not_editable_reason = fmt::format("{} = {} is {}", setting->name, written, problem);
}

}  // namespace

void CheckSettingValues(RunConfig* config) {
  for (Workload& workload : config->workloads)
    for (auto& [name, setting] : workload.settings) Check(&setting, config);
  Cluster& cluster = config->cluster;
  for (std::optional<Setting>* setting :
       {&cluster.gpus_per_node, &cluster.nodes, &cluster.gpus_total}) {
    if (*setting) Check(&**setting, config);
  }
}

}  // namespace gpulint
