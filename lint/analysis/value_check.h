// Script values checked against the ranges of rules/settings.toml, the same ranges `--set` is
// held to: a value no framework accepts is reported (GL006) and becomes unknown, so that no
// estimate or rule stands on `--tensor-parallel-size 0` or a micro-batch of 2^31.
#pragma once

#include "lint/core/run_config.h"

namespace gpulint {

/// Moves every out-of-range or malformed number of `config` (workload and cluster settings)
/// into config->invalid and leaves the setting unknown in its place.
void CheckSettingValues(RunConfig* config);

}  // namespace gpulint
