#include "lint/reader/map_bounds.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lint/reader/map_condition.h"

namespace gpulint {

bool BoundBinds(const BoundSpec& bound, const Workload& w) {
  return (bound.role.empty() || bound.role == w.role) && ConditionHolds(bound.when, w);
}

std::optional<double> BoundNeeded(const BoundSpec& bound, const Workload& w) {
  double sum = 0;
  for (const std::string& name : bound.sum) {
    std::optional<double> value = w.Number(name);
    if (!value) return std::nullopt;
    sum += *value;
  }
  return sum;
}

double BoundFactor(const BoundSpec& bound, const Workload& w) {
  double factor = 1;
  for (const std::string& name : bound.times)
    if (std::optional<double> value = w.Number(name); value && *value > 0) factor *= *value;
  return factor;
}

std::vector<UnmetBound> UnmetBounds(const FrameworkMap& map, const Workload& w) {
  std::vector<UnmetBound> unmet;
  for (const BoundSpec& bound : map.bounds) {
    if (!BoundBinds(bound, w)) continue;
    std::optional<double> needed = BoundNeeded(bound, w);
    std::optional<double> value = w.Number(bound.setting);
    if (!needed || !value) continue;
    const double factor = BoundFactor(bound, w);
    if (*value * factor >= *needed) continue;
    UnmetBound miss;
    miss.setting = bound.setting;
    miss.value = *value;
    miss.factor = factor;
    miss.factors = fmt::format("{}", fmt::join(bound.times, " x "));
    miss.needed = *needed;
    miss.sum = fmt::format("{}", fmt::join(bound.sum, " + "));
    miss.refuses = bound.effect == "refuses";
    miss.source = bound.source;
    unmet.push_back(std::move(miss));
  }
  return unmet;
}

}  // namespace gpulint
