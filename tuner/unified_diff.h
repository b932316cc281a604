// A unified diff (the format `git apply` and `patch -p1` read) between a file's text before and
// after edits that replace text within lines.
#pragma once

#include <string>

namespace gpulint {

/// "" when the texts are equal. A relative `path` is named a/path and b/path (git apply,
/// patch -p1), an absolute one as it is (patch -p0); `context` lines around each change.
std::string UnifiedDiff(const std::string& path, const std::string& before,
                        const std::string& after, int context = 3);

/// The name a diff gives the file at `path`, as typed, when run from the absolute folder `cwd`:
/// relative to `cwd` when the file is inside it ("./a/../x.sh" and "/cwd/x.sh" are "x.sh"), else
/// absolute ("../x.sh" is "/parent/x.sh": git apply refuses a path that leaves the tree, and
/// a/../x.sh would patch another file under patch -p1). Lexical: links are not followed. An
/// empty `cwd` (not known) leaves `path` as typed.
std::string DiffPath(const std::string& path, const std::string& cwd);

}  // namespace gpulint
