// The bounds a flag map states over a workload's values ([[at_least]] in rules/frameworks/*.toml):
// whether one binds a workload, what it needs, and which the script's values miss. The reader
// records the missed ones (GL307 reports those the framework refuses); the tuner moves them
// with the values it changes (tuner/bounds.h).
#pragma once

#include <optional>
#include <vector>

#include "lint/core/run_config.h"
#include "lint/reader/framework_map.h"

namespace gpulint {

/// Whether `bound` applies to `w`: its role, and its condition on w's values.
bool BoundBinds(const BoundSpec& bound, const Workload& w);

/// The sum the bound needs on `w`; nullopt when a summand is not a known number.
std::optional<double> BoundNeeded(const BoundSpec& bound, const Workload& w);

/// The product of the bound's factors on `w` (an absent factor counts 1).
double BoundFactor(const BoundSpec& bound, const Workload& w);

/// The bounds of `map` that bind `w` and that its known values miss.
std::vector<UnmetBound> UnmetBounds(const FrameworkMap& map, const Workload& w);

}  // namespace gpulint
