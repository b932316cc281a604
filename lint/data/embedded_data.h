// The rule packs, framework maps and catalog files compiled into the binary at build time
// (cmake/embed_data.cmake). Paths are relative to the source root, e.g. "catalog/gpus.toml".
#pragma once

#include <string_view>
#include <vector>

namespace gpulint {

struct EmbeddedFile {
  std::string_view path;     ///< relative to the repository root, '/' separated
  std::string_view content;  ///< the file's bytes as they were at build time
};

/// Every embedded data file, sorted by path.
const std::vector<EmbeddedFile>& EmbeddedFiles();

/// The embedded files whose path starts with `prefix` (e.g. "rules/frameworks/").
std::vector<EmbeddedFile> EmbeddedFilesUnder(std::string_view prefix);

}  // namespace gpulint
