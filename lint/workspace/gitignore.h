// The .gitignore rules a folder walk applies: each folder's own file over the rules of the
// folders above it, read once and shared by every folder below (never copied per folder: a
// megabyte of patterns over ten thousand folders would be ten gigabytes).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace gpulint {

/// The patterns of one .gitignore and, through `parent`, those above it. Negations ('!') are
/// not applied: a re-included path stays ignored.
///
/// A pattern without a slash (but for a trailing one) matches a name at any depth below its
/// file's folder; one with a slash matches the path from that folder, as git's gitignore(5)
/// says. Names without wildcards and "*.ext" suffixes go to hash sets, so the usual large files
/// (thousands of generated names) cost a lookup per entry, not a match per pattern.
class Gitignore {
 public:
  /// The rules below `folder` (relative to the walk's root, "" for the root): `parent`'s and
  /// the patterns of `text`, a .gitignore's content.
  static std::shared_ptr<const Gitignore> Add(std::shared_ptr<const Gitignore> parent,
                                              std::string_view folder, std::string_view text);

  /// Whether the entry at `relative` (from the walk's root) is ignored.
  bool Ignores(std::string_view relative, bool is_dir) const;

 private:
  struct Glob {
    std::string pattern;
    bool dir_only = false;
    bool whole_path = false;  ///< matched against the path below the folder, not the name
  };
  bool IgnoresHere(std::string_view relative, std::string_view name, bool is_dir) const;

  std::shared_ptr<const Gitignore> parent_;
  std::string folder_;  ///< with a trailing '/', or "" at the root
  std::unordered_set<std::string> names_, folder_names_;  ///< literal names (folders only)
  std::unordered_set<std::string> suffixes_, folder_suffixes_;  ///< "*.log" -> ".log"
  std::vector<Glob> globs_;
};

}  // namespace gpulint
