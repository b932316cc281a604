#include "lint/util/search_ceiling.h"

#include <algorithm>

namespace gpulint {
namespace fs = std::filesystem;

fs::path SearchCeiling(const fs::path& dir) {
  std::error_code ec;
  for (fs::path up = dir;; up = up.parent_path()) {
    if (fs::exists(up / ".git", ec)) return up;
    if (!up.has_parent_path() || up.parent_path() == up) break;
  }
  fs::path cwd = fs::current_path(ec).lexically_normal();
  auto [cwd_end, dir_end] = std::mismatch(cwd.begin(), cwd.end(), dir.begin(), dir.end());
  if (!ec && cwd_end == cwd.end()) return cwd;
  return dir;
}

}  // namespace gpulint
