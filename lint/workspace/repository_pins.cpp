#include "lint/workspace/repository_pins.h"

#include <algorithm>
#include <filesystem>

#include "lint/reader/version_pins.h"
#include "lint/util/read_file.h"
#include "lint/util/search_ceiling.h"
#include "lint/util/strings.h"

namespace fs = std::filesystem;

namespace gpulint {
namespace {

constexpr size_t kMaxPinFileBytes = size_t{1} << 20;
constexpr int kMaxPinFilesPerFolder = 32;

std::vector<RepositoryPin> PinsOfFolder(const fs::path& dir,
                                        const std::vector<std::string>& packages) {
  std::vector<RepositoryPin> pins;
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!IsPinFileName(it->path().filename().string())) continue;
    files.push_back(it->path());
    if (static_cast<int>(files.size()) >= kMaxPinFilesPerFolder) break;
  }
  std::sort(files.begin(), files.end());  // a stable order, whatever the file system's
  for (const fs::path& file : files) {
    std::string text;
    if (ReadRegularFile(file.string(), &text, kMaxPinFileBytes) != ReadStatus::kOk) continue;
    for (const VersionPin& pin : FindVersionPins(text, packages)) {
      int line = 1 + static_cast<int>(std::count(text.begin(),
                                                 text.begin() + static_cast<long>(pin.offset),
                                                 '\n'));
      pins.push_back({pin.package, pin.spec, file.string(), line});
    }
  }
  return pins;
}

}  // namespace

bool IsPinFileName(const std::string& name) {
  return (StartsWith(name, "requirements") && EndsWith(name, ".txt")) || name == "setup.py" ||
         name == "pyproject.toml" || (StartsWith(name, "environment") &&
                                      (EndsWith(name, ".yml") || EndsWith(name, ".yaml"))) ||
         StartsWith(name, "Dockerfile") || EndsWith(name, ".dockerfile");
}

std::vector<RepositoryPin> FindRepositoryPins(const std::string& start_dir,
                                              const std::vector<std::string>& packages) {
  std::error_code ec;
  fs::path dir = fs::absolute(start_dir.empty() ? "." : start_dir, ec).lexically_normal();
  if (ec) return {};
  const fs::path last = SearchCeiling(dir);
  for (fs::path up = dir;; up = up.parent_path()) {
    std::vector<RepositoryPin> pins = PinsOfFolder(up, packages);
    if (!pins.empty()) return pins;
    if (up == last || !up.has_parent_path() || up.parent_path() == up) break;
  }
  return {};
}

}  // namespace gpulint
