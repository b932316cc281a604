// Turns the text of a flag's value (with its provenance) into a typed canonical setting.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "lint/core/run_config.h"
#include "lint/reader/framework_map.h"
#include "lint/reader/shell_text.h"
#include "lint/reader/source_map.h"
#include "lint/util/strings.h"  // ParseBoolText

namespace gpulint {

struct BuiltSetting {
  Setting setting;
  std::optional<Unresolved> unresolved;  ///< set when the value cannot be known
};

/// Applies `spec` to a value. `value` is null for a switch given without a value; `negated` is a
/// `--no-` spelling; `flag_span` is where the flag itself is written (cited for switches).
/// `config_origin`: the text comes from a config or Python file. Returns nullopt when the flag
/// sets nothing (a bool key that is false and only names a fixed value).
std::optional<BuiltSetting> BuildSetting(const FlagSpec& spec, const Text* value, bool negated,
                                         const SourceSpan& flag_span, bool config_origin,
                                         const SourceMap& sources);

/// A typed value from text for setting `name` (rules/settings.toml decides the type).
Value TypedValue(const std::string& name, const std::string& text);

/// `w` with `values` (setting -> text) set as a change would set them: what the framework would
/// read after it (the tuner's bounds and [[requires]]).
Workload WithValues(const Workload& w, const std::map<std::string, std::string>& values);

}  // namespace gpulint
