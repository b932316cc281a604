// The version every `--format json` output carries in its "version" field, described by
// docs/schemas/*.schema.json. It goes up when a field is removed, renamed or changes meaning;
// a field added keeps it, so consumers should ignore fields they do not know.
#pragma once

namespace gpulint {

inline constexpr int kJsonFormatVersion = 1;

}  // namespace gpulint
