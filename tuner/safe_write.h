// Writing a fixed file in place without ever losing it or writing where nobody asked.
//
// The new text goes to a temporary file in the same folder, is flushed to disk and takes the
// old file's mode, owner and group; it then replaces the old file atomically. The file is
// refused, untouched, when
//   - it changed since gpulint read it (checked again at the moment of the swap: the swap
//     exchanges the two files, so what it replaced can be compared, once no process holds it
//     open for writing, and, if another writer got there first, put back),
//   - another process holds it open for writing for more than two seconds (gpulint waits that
//     long for it to close the file before the swap),
//   - it is not a regular file, is read-only or not writable by the user,
//   - it has more than one hard link (replacing one name would split it from the others),
//   - it belongs to someone gpulint cannot give the new file to,
//   - it lies, after following symbolic links, outside the folders the user linted
//     (a link in a stranger's pull request pointing at ~/.bashrc), unless links are followed.
#pragma once

#include <string>
#include <vector>

namespace gpulint {

struct WritePolicy {
  /// Folders a written file must lie in once links are resolved (absolute or relative to the
  /// working directory); empty: anywhere.
  std::vector<std::string> roots;
  /// Write through a symbolic link that leaves `roots` (--follow-symlinks).
  bool follow_symlinks = false;
};

/// Replaces `path` with `text` when its content is still `expected`. False with `error`
/// saying why and the file untouched otherwise.
bool WriteFileSafely(const std::string& path, const std::string& expected, const std::string& text,
                     const WritePolicy& policy, std::string* error);

/// Creates or replaces a file gpulint owns the content of (a report, a baseline) atomically:
/// a full disk or a crash leaves the old file or the new one, never half of one.
bool WriteFileAtomically(const std::string& path, const std::string& text, std::string* error);

/// The roots a --write may touch for these command-line paths: each folder given and the folder
/// of each file given (the working directory only when no path is given). A file found in a
/// folder that links outside it is refused; a path named on the command line is the user's
/// word, links in it included (`fix --write sub/t.sh` where sub links elsewhere writes there).
std::vector<std::string> WriteRootsFor(const std::vector<std::string>& paths);

}  // namespace gpulint
