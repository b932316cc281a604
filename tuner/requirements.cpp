#include "tuner/requirements.h"

#include "lint/reader/map_condition.h"
#include "lint/reader/setting_builder.h"

namespace gpulint {

std::vector<Change> RequiredAlongside(const FrameworkMaps& maps, const Workload& w,
                                      const std::vector<Change>& changes) {
  std::vector<Change> required;
  const FrameworkMap* map = maps.Find(w.framework);
  if (!map || map->requirements.empty()) return required;
  std::map<std::string, std::string> values;
  for (const Change& change : changes) values[change.setting] = change.after;
  const Workload after = WithValues(w, values);
  for (const RequirementSpec& requirement : map->requirements) {
    if (ConditionHolds(requirement.when, w) || !ConditionHolds(requirement.when, after)) continue;
    for (const auto& [name, value] : requirement.set) {
      const Setting* current = w.Find(name);
      std::string before = current ? current->value.ToString() : "";
      if (before == value) continue;
      required.push_back({name, before, value});
    }
  }
  return required;
}

}  // namespace gpulint
