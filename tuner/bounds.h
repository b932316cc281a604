// Values a framework needs at least as large as the sum of others ([[at_least]] in
// rules/frameworks/*.toml): verl's token budget under dynamic batching holds the longest
// sequence, its rollout cuts responses at max_model_len. A context change moves every bound it
// crosses, in each workload of the same command, so that the diff is one the framework runs.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lint/core/run_config.h"
#include "lint/reader/framework_map.h"
#include "tuner/proposal.h"

namespace gpulint {

/// The changes `values` (setting -> new text) on workload `index` require: for it and every
/// workload its command starts that holds a changed setting, each bound of its map whose
/// summed settings then exceed it, raised to their sum. Change::workload names the workload
/// each one edits. A bound that is absent or not a number (the engine then takes the model's
/// length) needs nothing; neither does one whose sum includes a value gpulint does not know.
std::vector<Change> BoundsAlongside(const FrameworkMaps& maps, const RunConfig& config,
                                    size_t index,
                                    const std::map<std::string, std::string>& values);

/// Whether a bound of w's map binds its `setting`, whatever the values it sums (a rollout's
/// max_model_len follows the job's lengths even where gpulint cannot read them).
bool Bounded(const FrameworkMaps& maps, const Workload& w, const std::string& setting);

/// The least value `setting` of workload `index` may take under its map's bounds with its
/// current values (verl's token budget: prompt + response); nullopt when nothing bounds it.
std::optional<double> LowerBound(const FrameworkMaps& maps, const Workload& w,
                                 const std::string& setting);

}  // namespace gpulint
