// Writing a fixed file in place without ever losing it: the new text goes to a temporary file
// in the same folder, is flushed to disk, takes the old file's mode, and replaces it by rename,
// which is atomic. A file that changed since gpulint read it is left alone.
#pragma once

#include <string>

namespace gpulint {

/// Replaces `path` with `text` when its content is still `expected`. False with `error`
/// ("changed since it was read", or the system error) and the file untouched otherwise.
bool WriteFileSafely(const std::string& path, const std::string& expected, const std::string& text,
                     std::string* error);

}  // namespace gpulint
