#include "tuner/bounds.h"

#include <fmt/format.h>

#include <cmath>

#include "lint/reader/map_bounds.h"
#include "lint/reader/setting_builder.h"

namespace gpulint {

std::vector<Change> BoundsAlongside(const FrameworkMaps& maps, const RunConfig& config,
                                    size_t index,
                                    const std::map<std::string, std::string>& values) {
  std::vector<Change> required;
  if (index >= config.workloads.size()) return required;
  const Workload& changed = config.workloads[index];
  // One value written once serves several workloads (verl's log-prob passes read the actor's
  // token budget): it is raised once, by the first workload that needs it.
  std::vector<std::pair<std::string, size_t>> raised;  // (path, offset) of each bound raised
  auto raised_already = [&](const Setting& setting) {
    if (!setting.span.valid()) return false;
    for (const auto& [path, offset] : raised)
      if (path == setting.span.path && offset == setting.span.offset) return true;
    return false;
  };
  // The changed workload first: a bound it shares is then its own change.
  std::vector<size_t> order = {index};
  for (size_t j = 0; j < config.workloads.size(); ++j)
    if (j != index) order.push_back(j);
  for (size_t j : order) {
    const Workload& w = config.workloads[j];
    if (w.process != changed.process || w.framework != changed.framework) continue;
    // The values reach a sibling through the settings it shares with the changed workload
    // (verl's data.max_response_length is every role's).
    std::map<std::string, std::string> shared;
    for (const auto& [name, text] : values)
      if (j == index || w.Find(name)) shared[name] = text;
    if (shared.empty()) continue;
    const FrameworkMap* map = maps.Find(w.framework);
    if (!map) continue;
    Workload after = WithValues(w, shared);
    // A raised bound may be another's summand (verl 0.5's prefill budget holds the rollout's
    // max_model_len): repeat until nothing moves, each setting changed once, to the largest.
    std::map<std::string, size_t> changed_at;  // setting -> its change in `required`
    for (size_t pass = 0; pass <= map->bounds.size(); ++pass) {
      bool moved = false;
      for (const BoundSpec& bound : map->bounds) {
        if (shared.count(bound.setting) || !BoundBinds(bound, after)) continue;
        std::optional<double> needed = BoundNeeded(bound, after);
        std::optional<double> current = after.Number(bound.setting);
        const double factor = BoundFactor(bound, after);
        if (!needed || !current || *current * factor >= *needed) continue;
        const std::string value = fmt::format("{}", static_cast<long>(std::ceil(*needed / factor)));
        after.settings[bound.setting].value = TypedValue(bound.setting, value);
        moved = true;
        if (auto at = changed_at.find(bound.setting); at != changed_at.end()) {
          required[at->second].after = value;
          continue;
        }
        const Setting* setting = w.Find(bound.setting);
        if (!setting || raised_already(*setting)) continue;
        if (setting->span.valid()) raised.emplace_back(setting->span.path, setting->span.offset);
        changed_at[bound.setting] = required.size();
        required.push_back({bound.setting, fmt::format("{}", static_cast<long>(*current)),
                            value, j});
      }
      if (!moved) break;
    }
  }
  return required;
}

bool Bounded(const FrameworkMaps& maps, const Workload& w, const std::string& setting) {
  const FrameworkMap* map = maps.Find(w.framework);
  if (!map) return false;
  for (const BoundSpec& bound : map->bounds)
    if (bound.setting == setting && BoundBinds(bound, w)) return true;
  return false;
}

std::optional<double> LowerBound(const FrameworkMaps& maps, const Workload& w,
                                 const std::string& setting) {
  const FrameworkMap* map = maps.Find(w.framework);
  if (!map) return std::nullopt;
  std::optional<double> lowest;
  for (const BoundSpec& bound : map->bounds) {
    if (bound.setting != setting || !BoundBinds(bound, w)) continue;
    std::optional<double> needed = BoundNeeded(bound, w);
    if (!needed) continue;
    const double least = std::ceil(*needed / BoundFactor(bound, w));
    if (!lowest || least > *lowest) lowest = least;
  }
  return lowest;
}

}  // namespace gpulint
