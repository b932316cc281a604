#include "lint/workspace/gitignore.h"

#include <utility>

#include "lint/reader/shell_expand.h"
#include "lint/util/strings.h"

namespace gpulint {

namespace {

bool HasWildcard(std::string_view text) {
  return text.find_first_of("*?[\\") != std::string_view::npos;
}

// Whether some suffix of `name` (the whole name included) is in `suffixes`.
bool EndsWithOneOf(std::string_view name, const std::unordered_set<std::string>& suffixes) {
  if (suffixes.empty()) return false;
  std::string tail;
  for (size_t i = 0; i < name.size(); ++i) {
    tail.assign(name.substr(i));
    if (suffixes.count(tail)) return true;
  }
  return false;
}

}  // namespace

std::shared_ptr<const Gitignore> Gitignore::Add(std::shared_ptr<const Gitignore> parent,
                                                std::string_view folder, std::string_view text) {
  auto rules = std::make_shared<Gitignore>();
  rules->parent_ = std::move(parent);
  rules->folder_ = folder.empty() ? std::string() : std::string(folder) + "/";
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = Trim(text.substr(at, end - at));
    at = end + 1;
    if (line.empty() || line[0] == '#' || line[0] == '!') continue;
    const bool dir_only = line.back() == '/';
    if (dir_only) line.remove_suffix(1);
    // A leading or inner slash ties the pattern to this folder; "**/" in front does not.
    while (StartsWith(line, "**/")) line.remove_prefix(3);
    bool whole_path = line.find('/') != std::string_view::npos;
    if (!line.empty() && line[0] == '/') line.remove_prefix(1);
    if (line.empty()) continue;
    if (!whole_path && !HasWildcard(line)) {
      (dir_only ? rules->folder_names_ : rules->names_).emplace(line);
    } else if (!whole_path && line[0] == '*' && !HasWildcard(line.substr(1))) {
      (dir_only ? rules->folder_suffixes_ : rules->suffixes_).emplace(line.substr(1));
    } else {
      rules->globs_.push_back({std::string(line), dir_only, whole_path});
    }
  }
  return rules;
}

bool Gitignore::Ignores(std::string_view relative, bool is_dir) const {
  const size_t slash = relative.rfind('/');
  const std::string_view name =
      slash == std::string_view::npos ? relative : relative.substr(slash + 1);
  for (const Gitignore* rules = this; rules; rules = rules->parent_.get())
    if (rules->IgnoresHere(relative, name, is_dir)) return true;
  return false;
}

bool Gitignore::IgnoresHere(std::string_view relative, std::string_view name,
                            bool is_dir) const {
  // Only what lies below this file's folder.
  if (!StartsWith(relative, folder_)) return false;
  const std::string key(name);
  if (names_.count(key) || (is_dir && folder_names_.count(key))) return true;
  if (EndsWithOneOf(name, suffixes_) || (is_dir && EndsWithOneOf(name, folder_suffixes_)))
    return true;
  if (globs_.empty()) return false;
  const std::string below(relative.substr(folder_.size()));
  for (const Glob& glob : globs_) {
    if (glob.dir_only && !is_dir) continue;
    if (GlobMatch(glob.pattern, glob.whole_path ? below : key)) return true;
  }
  return false;
}

}  // namespace gpulint
