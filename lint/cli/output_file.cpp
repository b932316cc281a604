#include "lint/cli/output_file.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace gpulint {

bool WriteOutputFile(const std::string& path, const std::string& text, std::string* error) {
  errno = 0;
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (out) return true;
  *error = fmt::format("cannot write {}: {}", path, errno ? std::strerror(errno) : "write failed");
  return false;
}

}  // namespace gpulint
