// Which release of its engine a serving or rollout workload runs, from the first of: a
// `# gpulint: vllm=0.6.3` directive, the script's own pins (`pip install vllm==0.6.3`, an image
// tag), gpulint.toml's [versions], the repository's requirements files, the framework's own
// requirement (a map default such as verl's `vllm>=0.8.5,<=0.12.0`). Without any, the estimate
// takes the newest release and says so (lint/analysis).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "lint/core/run_config.h"
#include "lint/reader/version_pins.h"

namespace gpulint {

/// A pin from outside the script: gpulint.toml or a repository file.
struct PinnedVersion {
  std::string spec;   ///< ">=0.8.5,<=0.12.0", "0.6.3"
  std::string where;  ///< "gpulint.toml [versions]", "requirements.txt:12"
};

/// A pin in the script's own text, with where it is.
struct ScriptPin {
  VersionPin pin;
  SourceSpan span;
};

/// The pins of one engine joined into one range ("0.6.3" and "0.8.5" pin 0.6.3 to 0.8.5: which
/// applies is not known); false when none of them reads as a version.
bool JoinPins(const std::vector<std::string>& specs, std::string* joined);

/// Sets the `engine_version` setting of `workload` when its engine is versioned and nothing the
/// user wrote for this workload states it. `directives` holds the `# gpulint:` keys
/// (`directive_spans` their values), `script_pins` the pins in the script's text, `pinned` the
/// project's and repository's pins by engine.
void ResolveEngineVersion(const std::map<std::string, std::string>& directives,
                          const std::map<std::string, SourceSpan>& directive_spans,
                          const std::vector<ScriptPin>& script_pins,
                          const std::map<std::string, PinnedVersion>& pinned,
                          Workload* workload);

/// The releases of the frameworks' `packages` ("trl") that the project pins, each from the
/// first of: a `# gpulint: trl=0.23` directive, the script's own pins, `pinned` (gpulint.toml,
/// the repository's files). A package nothing pins is absent: the maps are then tried newest
/// first (lint/reader/framework_map.h). A directive that does not read ("trl=latest") gives "":
/// the release is unknown, and no map that names its releases is taken for it.
std::map<std::string, std::string> PackageVersions(
    const std::vector<std::string>& packages, const std::map<std::string, std::string>& directives,
    const std::vector<ScriptPin>& script_pins, const std::map<std::string, PinnedVersion>& pinned);

}  // namespace gpulint
