// Turns "give setting X the value V" into an edit of the script: rewriting the text where the
// value is written (a flag's value, a variable's assignment or ${X:-default}), or inserting the
// framework's flag into the command, spelled like the flags around it. Comments, quoting,
// spacing and line continuations are left as they are.
#pragma once

#include <optional>
#include <string>

#include "lint/analysis/file_analysis.h"
#include "lint/core/finding.h"
#include "lint/reader/framework_map.h"

namespace gpulint {

/// `value` written the way `original` is: True/true/TRUE/1 for booleans, as-is otherwise.
std::string SpellLike(const std::string& original, const std::string& value);

/// The edit that sets `name` to `value` (canonical text, e.g. "true", "16", "adamw_8bit") for
/// workload `index`; nullopt with `reason` when the script cannot be changed to say it (the
/// value comes from an environment variable, another file, a switch that is present, ...).
std::optional<Edit> EditSetting(const FileAnalysis& analysis, const FrameworkMaps& maps,
                                size_t index, const std::string& name, const std::string& value,
                                std::string* reason);

}  // namespace gpulint
