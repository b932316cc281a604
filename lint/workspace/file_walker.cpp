#include "lint/workspace/file_walker.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "lint/reader/shell_expand.h"
#include "lint/util/strings.h"

namespace gpulint {
namespace fs = std::filesystem;
namespace {

bool HasShellShebang(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  char head[64] = {};
  in.read(head, sizeof head - 1);
  std::string first(head, static_cast<size_t>(in.gcount()));
  if (!StartsWith(first, "#!")) return false;
  first = first.substr(0, first.find('\n'));
  return first.find("bash") != std::string::npos || first.find("/sh") != std::string::npos ||
         first.find(" sh") != std::string::npos || first.find("zsh") != std::string::npos;
}

bool IsScript(const fs::path& path) {
  std::string ext = path.extension().string();
  if (ext == ".sh" || ext == ".bash" || ext == ".slurm" || ext == ".sbatch") return true;
  if (!ext.empty()) return false;
  return HasShellShebang(path);
}

// Patterns of a .gitignore (no negation; enough for build and data folders).
std::vector<std::string> ReadGitignore(const fs::path& dir) {
  std::vector<std::string> patterns;
  std::ifstream in(dir / ".gitignore");
  std::string line;
  while (std::getline(in, line)) {
    std::string_view trimmed = Trim(line);
    if (trimmed.empty() || trimmed[0] == '#' || trimmed[0] == '!') continue;
    patterns.emplace_back(trimmed);
  }
  return patterns;
}

bool MatchesGitignore(const std::string& relative, bool is_dir,
                      const std::vector<std::string>& patterns) {
  std::string name = fs::path(relative).filename().string();
  for (std::string pattern : patterns) {
    bool dir_only = EndsWith(pattern, "/");
    if (dir_only) {
      if (!is_dir) continue;
      pattern.pop_back();
    }
    bool anchored = StartsWith(pattern, "/");
    if (anchored) pattern = pattern.substr(1);
    if (pattern.find('/') == std::string::npos && !anchored) {
      if (GlobMatch(pattern, name)) return true;
    } else if (GlobMatch(pattern, relative)) {
      return true;
    }
  }
  return false;
}

}  // namespace

bool MatchesAnyGlob(const std::string& path, const std::vector<std::string>& globs) {
  std::string normalized = path;
  while (StartsWith(normalized, "./")) normalized = normalized.substr(2);
  for (std::string pattern : globs) {
    // As in .gitignore: "old/" is a folder named old at any depth, "/old/" only at the top.
    bool anchored = StartsWith(pattern, "/");
    if (anchored) pattern = pattern.substr(1);
    bool any_depth = !anchored && pattern.find('/') >= pattern.size() - 1;
    if (EndsWith(pattern, "/")) pattern += "**";
    // "**" matches across folders: GlobMatch's '*' already does, so drop the doubling.
    std::string simple;
    for (size_t i = 0; i < pattern.size(); ++i)
      if (!(pattern[i] == '*' && i + 1 < pattern.size() && pattern[i + 1] == '*'))
        simple += pattern[i];
    if (GlobMatch(simple, normalized) ||
        GlobMatch(simple, fs::path(normalized).filename().string()) ||
        (any_depth && GlobMatch("*/" + simple, normalized)))
      return true;
  }
  return false;
}

bool CollectFiles(const std::string& path, const std::vector<std::string>& exclude,
                  const std::vector<std::string>& include, std::vector<std::string>* files,
                  std::string* error) {
  std::error_code ec;
  fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    *error = fmt::format("no such file or folder: {}", path);
    return false;
  }
  if (!fs::is_directory(status)) {
    files->push_back(path);
    return true;
  }
  // An explicit walk with a stack: no recursion over the user's folder depth.
  const std::string root = fs::path(path).generic_string();
  // Each folder carries the .gitignore patterns of the folders above it.
  std::vector<std::pair<fs::path, std::vector<std::string>>> stack = {{fs::path(path), {}}};
  std::vector<std::string> found;
  while (!stack.empty()) {
    auto [dir, ignores] = stack.back();
    stack.pop_back();
    std::vector<fs::directory_entry> entries;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      // Read only where one is listed: trying to open one in every folder was a failed
      // system call per folder.
      if (entry.path().filename() == ".gitignore")
        for (std::string& pattern : ReadGitignore(dir)) ignores.push_back(std::move(pattern));
      entries.push_back(entry);
    }
    for (const auto& entry : entries) {
      std::string name = entry.path().filename().string();
      // Below the root by construction: cut the prefix (fs::relative would resolve symlinks,
      // a readlink per path component per file).
      std::string relative = entry.path().generic_string().substr(root.size());
      while (StartsWith(relative, "/")) relative = relative.substr(1);
      bool is_dir = entry.is_directory(ec) && !entry.is_symlink(ec);
      if (StartsWith(name, ".") || name == "node_modules" || name == "__pycache__") continue;
      if (MatchesGitignore(relative, is_dir, ignores)) continue;
      std::string display = (fs::path(path) / relative).generic_string();
      if (MatchesAnyGlob(display, exclude)) continue;
      if (is_dir) {
        stack.emplace_back(entry.path(), ignores);
      } else if (entry.is_regular_file(ec) &&
                 (IsScript(entry.path()) || MatchesAnyGlob(display, include))) {
        found.push_back(display);
      }
    }
  }
  std::sort(found.begin(), found.end());
  files->insert(files->end(), found.begin(), found.end());
  return true;
}

}  // namespace gpulint
