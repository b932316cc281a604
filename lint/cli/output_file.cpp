#include "lint/cli/output_file.h"

#include "tuner/safe_write.h"

namespace gpulint {

bool WriteOutputFile(const std::string& path, const std::string& text, std::string* error) {
  return WriteFileAtomically(path, text, error);
}

}  // namespace gpulint
