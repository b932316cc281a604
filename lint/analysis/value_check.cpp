#include "lint/analysis/value_check.h"

#include <fmt/format.h>

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

void Check(Setting* setting, RunConfig* config) {
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
