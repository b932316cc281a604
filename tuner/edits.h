// Applying edits (byte-range replacements on recorded spans) to a file's text.
#pragma once

#include <string>
#include <vector>

#include "lint/core/finding.h"

namespace gpulint {

/// Replaces each edit's range of `text` (all edits are on one file). Identical edits count once.
/// False with `error` when two edits overlap or one runs past the end of the text.
bool ApplyEdits(const std::string& text, std::vector<Edit> edits, std::string* out,
                std::string* error);

}  // namespace gpulint
