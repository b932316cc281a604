#include "lint/core/run_config.h"

namespace gpulint {

const Setting* Workload::Find(std::string_view name) const {
  auto it = settings.find(name);
  return it == settings.end() ? nullptr : &it->second;
}

std::optional<double> Workload::Number(std::string_view name) const {
  const Setting* setting = Find(name);
  if (!setting || !setting->value.is_number()) return std::nullopt;
  return setting->value.number;
}

bool Workload::SpreadsOverDevices() const {
  auto map = String("device_map");
  return map && (*map == "auto" || *map == "balanced" || *map == "balanced_low_0" ||
                 *map == "sequential");
}

std::optional<bool> Workload::Bool(std::string_view name) const {
  const Setting* setting = Find(name);
  if (!setting || !setting->value.is_bool()) return std::nullopt;
  return setting->value.boolean;
}

std::optional<std::string> Workload::String(std::string_view name) const {
  const Setting* setting = Find(name);
  if (!setting || setting->value.kind == Value::Kind::kNone) return std::nullopt;
  return setting->value.ToString();
}

}  // namespace gpulint
