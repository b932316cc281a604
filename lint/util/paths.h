// Lexical path arithmetic on strings, as std::filesystem does it on POSIX but without building
// path objects: the reader joins and normalizes a few candidate paths for every file a script
// names, and std::filesystem spent thousands of instructions on each.
#pragma once

#include <string>
#include <string_view>

namespace gpulint {

/// `base / path` as std::filesystem::path::operator/ joins them: `path` when it is absolute or
/// `base` is empty, else the two with one '/' between (an empty `path` leaves a trailing '/').
std::string JoinPath(std::string_view base, std::string_view path);

/// std::filesystem::path::lexically_normal on POSIX: "." and "x/.." removed, repeated '/'
/// collapsed, ".." kept at the start of a relative path and dropped at the root, "." for a
/// path that normalizes to nothing ("" stays ""). "//" becomes "/" (libstdc++ keeps
/// a path of only slashes as it is).
std::string LexicallyNormal(std::string_view path);

/// JoinPath, then LexicallyNormal.
std::string JoinNormal(std::string_view base, std::string_view path);

/// `path` as reports name it: "." elements and repeated '/' dropped ("./a//b" is "a/b"), and an
/// absolute path under `working_dir` (absolute, as getcwd gives it) made relative to it. ".."
/// stays: removing "x/.." would change the file named when x is a symbolic link. GitHub attaches
/// annotations only to such paths, and GitLab's Code Quality spec forbids "./".
std::string ReportPath(std::string_view path, std::string_view working_dir);

}  // namespace gpulint
