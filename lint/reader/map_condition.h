// A flag map's condition on a workload's settings: when a default applies, when a change needs
// another ("lora_enabled", "finetuning_type=lora", "nproc_per_node>1").
#pragma once

#include <string>

#include "lint/core/run_config.h"

namespace gpulint {

/// Whether `when` holds for `workload`: "" always; "name" when the setting is a true switch or
/// any value but an empty string; "!name" when it is absent, false or empty; "name=value" when
/// it is that value; "name!=value" when it is
/// absent or another value; "name>number" when it is a number above it. An absent setting holds
/// none of the others. "a & b" holds when both do.
bool ConditionHolds(const std::string& when, const Workload& workload);

/// False with the reason when `when` is not one of those forms ("cp>two", "=x").
bool ValidCondition(const std::string& when, std::string* why);

}  // namespace gpulint
