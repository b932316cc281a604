#include "tuner/safe_write.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace gpulint {
namespace {

bool WriteAll(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

std::string SystemError(const std::string& what, const std::string& path) {
  return fmt::format("{} {}: {}", what, path, std::strerror(errno));
}

}  // namespace

bool WriteFileSafely(const std::string& given_path, const std::string& expected,
                     const std::string& text, std::string* error) {
  // Through a symbolic link, the file it points at is the one to replace.
  std::error_code ec;
  std::string path = std::filesystem::is_symlink(given_path, ec)
                         ? std::filesystem::canonical(given_path, ec).string()
                         : given_path;
  if (ec) path = given_path;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = fmt::format("cannot read {} again before writing it", path);
    return false;
  }
  std::stringstream current;
  current << in.rdbuf();
  if (current.str() != expected) {
    *error = fmt::format("{} changed since gpulint read it; not written (run gpulint fix again)",
                         path);
    return false;
  }
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    *error = SystemError("cannot stat", path);
    return false;
  }
  std::filesystem::path target(path);
  std::string folder = target.parent_path().empty() ? "." : target.parent_path().string();
  std::string temp = (std::filesystem::path(folder) / ("." + target.filename().string() +
                                                        ".gpulint-XXXXXX"))
                         .string();
  int fd = ::mkstemp(temp.data());
  if (fd < 0) {
    *error = SystemError("cannot create a temporary file beside", path);
    return false;
  }
  bool ok = WriteAll(fd, text) && ::fchmod(fd, info.st_mode & 07777) == 0 && ::fsync(fd) == 0;
  if (ok && ::fchown(fd, info.st_uid, info.st_gid) != 0) {
    // Only root can give a file away; anyone else keeps owning what they write.
  }
  if (!ok) *error = SystemError("cannot write", temp);
  if (::close(fd) != 0 && ok) {
    ok = false;
    *error = SystemError("cannot close", temp);
  }
  if (ok && ::rename(temp.c_str(), path.c_str()) != 0) {
    ok = false;
    *error = SystemError("cannot replace", path);
  }
  if (!ok) {
    ::unlink(temp.c_str());
    return false;
  }
  // The rename itself is durable once the folder is synced.
  int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return true;
}

}  // namespace gpulint
