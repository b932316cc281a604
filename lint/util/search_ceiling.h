// Where a search upward from a linted file stops: the repository's root (the closest folder
// above holding .git), so that a checkout in /tmp never takes a file someone left in /tmp or /.
// Outside a repository: the working directory when the file is under it, else the file's own
// folder. gpulint.toml and the repository's version pins are both looked for this way.
#pragma once

#include <filesystem>

namespace gpulint {

/// The last folder to search, for an absolute, normalized `dir`.
std::filesystem::path SearchCeiling(const std::filesystem::path& dir);

}  // namespace gpulint
