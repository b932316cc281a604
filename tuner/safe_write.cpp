#include "tuner/safe_write.h"

#include <fcntl.h>
#include <signal.h>
#include <fmt/format.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>

namespace gpulint {
namespace fs = std::filesystem;
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

// The whole content of an open file, read from its start.
bool ReadAll(int fd, std::string* text) {
  text->clear();
  char buffer[65536];
  off_t at = 0;
  while (true) {
    ssize_t n = ::pread(fd, buffer, sizeof buffer, at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) return true;
    text->append(buffer, static_cast<size_t>(n));
    at += n;
  }
}

bool ReadPath(const std::string& path, std::string* text) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  bool ok = ReadAll(fd, text);
  ::close(fd);
  return ok;
}

std::string SystemError(const std::string& what, const std::string& path) {
  return fmt::format("{} {}: {}", what, path, std::strerror(errno));
}

bool Within(const fs::path& path, const fs::path& root) {
  auto [root_end, path_end] = std::mismatch(root.begin(), root.end(), path.begin(), path.end());
  return root_end == root.end();
}

// A temporary file beside `target`, with `text`, flushed, and the mode, owner and group of
// `like`. Its path in `temp`; false with `error` (and nothing left behind) otherwise.
bool WriteTemporary(const std::string& target, const std::string& text, const struct stat& like,
                    bool keep_owner, std::string* temp, std::string* error) {
  fs::path file(target);
  std::string folder = file.parent_path().empty() ? "." : file.parent_path().string();
  *temp = (fs::path(folder) / ("." + file.filename().string() + ".gpulint-XXXXXX")).string();
  int fd = ::mkstemp(temp->data());
  if (fd < 0) {
    *error = SystemError("cannot create a temporary file beside", target);
    return false;
  }
  bool ok = WriteAll(fd, text);
  if (!ok) *error = SystemError("cannot write", *temp);
  if (ok && keep_owner && (like.st_uid != ::geteuid() || like.st_gid != ::getegid()) &&
      ::fchown(fd, like.st_uid, like.st_gid) != 0) {
    ok = false;
    *error = fmt::format(
        "{} belongs to user {} group {}, and gpulint cannot give the new file to them (only "
        "they or root can write it in place)",
        target, like.st_uid, like.st_gid);
  }
  if (ok && ::fchmod(fd, like.st_mode & 07777) != 0) {
    ok = false;
    *error = SystemError("cannot set the mode of", *temp);
  }
  if (ok && ::fsync(fd) != 0) {
    ok = false;
    *error = SystemError("cannot flush", *temp);
  }
  if (::close(fd) != 0 && ok) {
    ok = false;
    *error = SystemError("cannot close", *temp);
  }
  if (!ok) ::unlink(temp->c_str());
  return ok;
}

// Whether a process holds `path` open for writing. The kernel grants a read lease on a file
// only when nobody has it open for writing (fcntl(2), F_SETLEASE), which makes the lease an exact
// test; it is taken and dropped at once. kUnknown where leases are unavailable (some network
// and overlay file systems, a file owned by someone else without CAP_LEASE).
enum class Writers { kNone, kSome, kUnknown };

Writers OpenWriters(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return Writers::kUnknown;
  // An opener breaking the lease in the instant it is held signals the holder: SIGIO by default,
  // which would end gpulint; SIGURG is ignored unless a handler is installed.
  ::fcntl(fd, F_SETSIG, SIGURG);
  Writers writers = Writers::kUnknown;
  if (::fcntl(fd, F_SETLEASE, F_RDLCK) == 0) {
    ::fcntl(fd, F_SETLEASE, F_UNLCK);
    writers = Writers::kNone;
  } else if (errno == EAGAIN) {
    writers = Writers::kSome;
  }
  ::close(fd);
  return writers;
}

void SyncFolder(const std::string& path) {
  fs::path parent = fs::path(path).parent_path();
  int dir = ::open(parent.empty() ? "." : parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

}  // namespace

std::vector<std::string> WriteRootsFor(const std::vector<std::string>& paths) {
  std::vector<std::string> roots = {"."};
  std::error_code ec;
  for (const std::string& path : paths) {
    if (path == "-") continue;
    roots.push_back(fs::is_directory(path, ec) ? path : fs::path(path).parent_path().string());
    if (roots.back().empty()) roots.back() = ".";
  }
  return roots;
}

bool WriteFileSafely(const std::string& given_path, const std::string& expected,
                     const std::string& text, const WritePolicy& policy, std::string* error) {
  std::error_code ec;
  // Through a symbolic link, the file it points at is the one to replace, if it may be.
  fs::path real = fs::canonical(given_path, ec);
  if (ec) {
    *error = fmt::format("cannot resolve {}: {}", given_path, ec.message());
    return false;
  }
  if (!policy.roots.empty() && !policy.follow_symlinks) {
    bool inside = false;
    for (const std::string& root : policy.roots) {
      fs::path real_root = fs::canonical(root, ec);
      if (!ec && Within(real, real_root)) inside = true;
    }
    if (!inside) {
      *error = fmt::format(
          "{} leads to {}, outside the linted folders; not written "
          "(--follow-symlinks writes through such links)",
          given_path, real.string());
      return false;
    }
  }
  const std::string path = real.string();
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    *error = SystemError("cannot read again before writing", path);
    return false;
  }
  struct stat info {};
  std::string current;
  bool ok = ::fstat(fd, &info) == 0 && ReadAll(fd, &current);
  ::close(fd);
  if (!ok) {
    *error = SystemError("cannot read again before writing", path);
    return false;
  }
  if (!S_ISREG(info.st_mode)) {
    *error = fmt::format("{} is not a regular file; not written", path);
    return false;
  }
  if (info.st_nlink > 1) {
    *error = fmt::format(
        "{} has {} hard links; replacing it would leave the other names with "
        "the old text, so it is not written (apply the diff instead)",
        path, info.st_nlink);
    return false;
  }
  // Root may write anything; a file nobody may write is still not gpulint's to change.
  if ((info.st_mode & 0222) == 0 || ::access(path.c_str(), W_OK) != 0) {
    *error = fmt::format("{} is read-only (mode {:04o}); not written", path, info.st_mode & 07777);
    return false;
  }
  if (current != expected) {
    *error =
        fmt::format("{} changed since gpulint read it; not written (run gpulint fix again)", path);
    return false;
  }
  std::string temp;
  if (!WriteTemporary(path, text, info, /*keep_owner=*/true, &temp, error)) return false;

  // The swap exchanges the two names atomically, so that what was replaced can be checked: an
  // edit made since the check above (by an editor saving in place or by rename) is in it, and
  // is then put back. Where the file system cannot exchange, a plain rename follows a last
  // check (a smaller window, not none).
  bool exchanged =
      ::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, path.c_str(), RENAME_EXCHANGE) == 0;
  if (!exchanged) {
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) {
      *error = SystemError("cannot replace", path);
      ::unlink(temp.c_str());
      return false;
    }
    std::string now;
    if (!ReadPath(path, &now) || now != expected) {
      ::unlink(temp.c_str());
      *error = fmt::format("{} changed while gpulint was writing it; not written", path);
      return false;
    }
    if (::rename(temp.c_str(), path.c_str()) != 0) {
      *error = SystemError("cannot replace", path);
      ::unlink(temp.c_str());
      return false;
    }
    SyncFolder(path);
    return true;
  }
  // `temp` now names the old file. A writer that opened it before the swap writes into it, as
  // late as it likes (a process descheduled on a loaded machine): the old file is kept until
  // nobody holds it open for writing, then compared. Where that cannot be known, a short wait
  // and a second read narrow the window.
  Writers writers = OpenWriters(temp);
  constexpr int kWaitForWritersMs = 2000;
  for (int waited_ms = 0; writers == Writers::kSome && waited_ms < kWaitForWritersMs;
       ++waited_ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    writers = OpenWriters(temp);
  }
  std::string replaced;
  bool intact = writers != Writers::kSome && ReadPath(temp, &replaced) && replaced == expected;
  if (intact && writers == Writers::kUnknown) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    intact = ReadPath(temp, &replaced) && replaced == expected;
  }
  if (!intact) {
    // Put the other writer's file back where it was; gpulint's text goes away.
    ::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, path.c_str(), RENAME_EXCHANGE);
    ::unlink(temp.c_str());
    *error = writers == Writers::kSome
                 ? fmt::format(
                       "{} is held open for writing by another process; left as it was (run "
                       "gpulint fix again once it is closed)",
                       path)
                 : fmt::format(
                       "{} changed while gpulint was writing it; left as the other writer "
                       "made it (run gpulint fix again)",
                       path);
    return false;
  }
  ::unlink(temp.c_str());
  SyncFolder(path);
  return true;
}

bool WriteFileAtomically(const std::string& path, const std::string& text, std::string* error) {
  struct stat info {};
  bool exists = ::stat(path.c_str(), &info) == 0;
  if (exists && !S_ISREG(info.st_mode)) {
    // A device or FIFO the user named (/dev/stdout) is written directly: there is nothing to
    // replace atomically.
    int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    bool ok = fd >= 0 && WriteAll(fd, text);
    if (fd >= 0) ::close(fd);
    if (!ok) *error = SystemError("cannot write", path);
    return ok;
  }
  if (!exists) {
    mode_t mask = ::umask(0);
    ::umask(mask);
    info.st_mode = 0666 & ~mask;
    info.st_uid = ::geteuid();
    info.st_gid = ::getegid();
  }
  std::string temp;
  if (!WriteTemporary(path, text, info, /*keep_owner=*/false, &temp, error)) {
    // The reason, said of the file the user named: "cannot write PATH: No space left".
    size_t reason = error->rfind(": ");
    *error = fmt::format("cannot write {}{}", path,
                         reason == std::string::npos ? "" : error->substr(reason));
    return false;
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    *error = SystemError("cannot write", path);
    ::unlink(temp.c_str());
    return false;
  }
  SyncFolder(path);
  return true;
}

}  // namespace gpulint
