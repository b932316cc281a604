// Reading input that may come from a stranger's pull request: only regular files (a FIFO would
// hang, /dev/zero would never end), and never more than a cap, so that the cost of a run stays
// linear in the size of the tree it reads.
#pragma once

#include <cstddef>
#include <string>

namespace gpulint {

/// Launch scripts, configs and model descriptions are kilobytes; 8 MiB is far past any real
/// one and small enough that every parser behind it stays within memory.
constexpr size_t kMaxInputBytes = size_t{8} << 20;

enum class ReadStatus { kOk, kMissing, kNotRegular, kTooLarge, kError };

/// Reads `path` into `text` when it is a regular file (symbolic links followed) of at most
/// `max_bytes`. Opens without blocking (a FIFO is refused, not waited on).
ReadStatus ReadRegularFile(const std::string& path, std::string* text,
                           size_t max_bytes = kMaxInputBytes);

/// Reads the first `bytes` bytes of a regular file (a safetensors header in front of gigabytes of
/// weights); kError when the file is shorter.
ReadStatus ReadFilePrefix(const std::string& path, size_t bytes, std::string* text);

/// Reads standard input to its end, or fails past `max_bytes`.
ReadStatus ReadStdin(std::string* text, size_t max_bytes = kMaxInputBytes);

/// "is not a regular file", "is larger than 8 MiB", ...: the end of "PATH <why>".
std::string ReadStatusText(ReadStatus status, size_t max_bytes = kMaxInputBytes);

}  // namespace gpulint
