// Changes a framework refuses without others ([[requires]] in rules/frameworks/*.toml): verl's
// SFT trainer asserts that Ulysses sequence parallelism runs with remove_padding.
#pragma once

#include <vector>

#include "lint/core/run_config.h"
#include "lint/reader/framework_map.h"
#include "tuner/proposal.h"

namespace gpulint {

/// What must change alongside `changes` to `w` for its framework to accept them: each
/// requirement whose condition the changes make hold, for the settings not already at the
/// value it needs. Empty when the framework states none.
std::vector<Change> RequiredAlongside(const FrameworkMaps& maps, const Workload& w,
                                      const std::vector<Change>& changes);

}  // namespace gpulint
