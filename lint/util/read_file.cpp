#include "lint/util/read_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gpulint {
namespace {

// Reads `fd` to its end into `text`, starting with room for `expected` bytes; false with
// kTooLarge past `max_bytes`.
ReadStatus ReadAll(int fd, size_t expected, size_t max_bytes, std::string* text) {
  std::string content;
  // One byte more than expected: a short read then says the end is reached (regular files read
  // short only at their end); a file that grew meanwhile takes further reads.
  content.resize(std::min(expected, max_bytes) + 1);
  size_t used = 0;
  while (true) {
    if (used == content.size()) {
      if (used > max_bytes) return ReadStatus::kTooLarge;
      content.resize(std::min(content.size() * 2, max_bytes + 1));
    }
    ssize_t got = read(fd, content.data() + used, content.size() - used);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return ReadStatus::kError;
    if (got == 0) break;
    used += static_cast<size_t>(got);
  }
  if (used > max_bytes) return ReadStatus::kTooLarge;
  content.resize(used);
  *text = std::move(content);
  return ReadStatus::kOk;
}

// Opens `path` for reading when it is a regular file; fills `info`. open, fstat: a lint of a
// large tree reads tens of thousands of small files, and system calls are a good part of its
// time. O_NONBLOCK: opening a FIFO must not wait for a writer (it is then refused as not a
// regular file). On kOk the caller closes `*fd`.
ReadStatus OpenRegular(const std::string& path, int* fd, struct stat* info) {
  *fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (*fd < 0)
    return errno == ENOENT || errno == ENOTDIR ? ReadStatus::kMissing : ReadStatus::kError;
  ReadStatus status = ReadStatus::kOk;
  if (fstat(*fd, info) != 0) {
    status = ReadStatus::kError;
  } else if (!S_ISREG(info->st_mode)) {
    status = ReadStatus::kNotRegular;
  }
  if (status != ReadStatus::kOk) close(*fd);
  return status;
}

}  // namespace

ReadStatus ReadRegularFile(const std::string& path, std::string* text, size_t max_bytes) {
  int fd = -1;
  struct stat info;
  ReadStatus status = OpenRegular(path, &fd, &info);
  if (status != ReadStatus::kOk) return status;
  if (static_cast<unsigned long long>(info.st_size) > max_bytes) {
    status = ReadStatus::kTooLarge;
  } else {
    status = ReadAll(fd, static_cast<size_t>(info.st_size), max_bytes, text);
  }
  close(fd);
  return status;
}

ReadStatus ReadFilePrefix(const std::string& path, size_t bytes, std::string* text) {
  int fd = -1;
  struct stat info;
  ReadStatus status = OpenRegular(path, &fd, &info);
  if (status != ReadStatus::kOk) return status;
  if (static_cast<unsigned long long>(info.st_size) < bytes) {
    close(fd);
    errno = 0;  // no system error to report: the file is shorter than asked
    return ReadStatus::kError;
  }
  std::string content(bytes, '\0');
  size_t used = 0;
  while (used < bytes) {
    ssize_t got = read(fd, content.data() + used, bytes - used);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    used += static_cast<size_t>(got);
  }
  close(fd);
  if (used != bytes) return ReadStatus::kError;  // it shrank while being read
  *text = std::move(content);
  return ReadStatus::kOk;
}

ReadStatus ReadStdin(std::string* text, size_t max_bytes) {
  return ReadAll(0, 64 << 10, max_bytes, text);
}

std::string ReadStatusText(ReadStatus status, size_t max_bytes) {
  switch (status) {
    case ReadStatus::kOk:
      return "was read";
    case ReadStatus::kMissing:
      return "does not exist";
    case ReadStatus::kNotRegular:
      return "is not a regular file";
    case ReadStatus::kTooLarge:
      return fmt::format("is larger than {} MiB, more than any launch script or config",
                         max_bytes >> 20);
    case ReadStatus::kError:
      return fmt::format("cannot be read ({})", std::strerror(errno));
  }
  return "cannot be read";
}

}  // namespace gpulint
