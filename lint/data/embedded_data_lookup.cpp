#include "lint/data/embedded_data.h"

namespace gpulint {

std::vector<EmbeddedFile> EmbeddedFilesUnder(std::string_view prefix) {
  std::vector<EmbeddedFile> result;
  for (const EmbeddedFile& file : EmbeddedFiles())
    if (file.path.substr(0, prefix.size()) == prefix) result.push_back(file);
  return result;
}

}  // namespace gpulint
