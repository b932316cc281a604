#include "lint/core/run_config.h"

namespace gpulint {

const Setting* Workload::Find(const std::string& name) const {
  auto it = settings.find(name);
  return it == settings.end() ? nullptr : &it->second;
}

std::optional<double> Workload::Number(const std::string& name) const {
  const Setting* setting = Find(name);
  if (!setting || !setting->value.is_number()) return std::nullopt;
  return setting->value.number;
}

std::optional<bool> Workload::Bool(const std::string& name) const {
  const Setting* setting = Find(name);
  if (!setting || !setting->value.is_bool()) return std::nullopt;
  return setting->value.boolean;
}

std::optional<std::string> Workload::String(const std::string& name) const {
  const Setting* setting = Find(name);
  if (!setting || setting->value.kind == Value::Kind::kNone) return std::nullopt;
  return setting->value.ToString();
}

}  // namespace gpulint
