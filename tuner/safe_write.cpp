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
#include <memory>
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

// A read lease on a file, held while gpulint replaces it. The kernel grants a read lease only
// while no process has the file open for writing, and breaks it when one opens it for writing
// (fcntl(2), F_SETLEASE): held from before the swap until the old file is gone, it sees every
// writer of the old file, including one that looked the name up before the swap and opens it
// late (a process descheduled on a loaded machine). Not available on some network and overlay
// file systems, or for a file owned by someone else without CAP_LEASE: `state()` is kUnknown.
class WriterWatch {
 public:
  enum class State { kHeld, kWriters, kUnknown };

  explicit WriterWatch(const std::string& path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd_ < 0) return;
    // A writer breaking the lease signals the holder: SIGIO by default, which would end
    // gpulint; SIGURG is ignored unless a handler is installed.
    ::fcntl(fd_, F_SETSIG, SIGURG);
    if (::fcntl(fd_, F_SETLEASE, F_RDLCK) == 0) {
      state_ = State::kHeld;
    } else if (errno == EAGAIN) {
      state_ = State::kWriters;
    }
  }
  ~WriterWatch() {
    if (state_ == State::kHeld) ::fcntl(fd_, F_SETLEASE, F_UNLCK);
    if (fd_ >= 0) ::close(fd_);
  }
  WriterWatch(const WriterWatch&) = delete;
  WriterWatch& operator=(const WriterWatch&) = delete;

  State state() const { return state_; }
  /// Whether a process opened the file for writing since the lease was taken (that opener
  /// waits until the lease is released, then writes into this file).
  bool Broken() const {
    return state_ == State::kHeld && ::fcntl(fd_, F_GETLEASE) != F_RDLCK;
  }

 private:
  int fd_ = -1;
  State state_ = State::kUnknown;
};

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
  // Not the working directory besides: `fix --write repo` from repo's parent rewrote a
  // ../bashrc that repo/run.sh links to, because the parent was a root too.
  std::vector<std::string> roots;
  std::error_code ec;
  for (const std::string& path : paths) {
    if (path == "-") continue;
    roots.push_back(fs::is_directory(path, ec) ? path : fs::path(path).parent_path().string());
    if (roots.back().empty()) roots.back() = ".";
  }
  if (roots.empty()) roots.push_back(".");  // `gpulint fix` with no path works on "."
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

  // Wait for any process that holds the file open for writing to close it; then every later
  // writer of the old file breaks the lease, and what it wrote is not lost.
  constexpr int kWaitForWritersMs = 2000;
  auto watch = std::make_unique<WriterWatch>(path);
  for (int waited_ms = 0;
       watch->state() == WriterWatch::State::kWriters && waited_ms < kWaitForWritersMs;
       ++waited_ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    watch = std::make_unique<WriterWatch>(path);
  }
  std::string now;
  if (watch->state() == WriterWatch::State::kWriters || !ReadPath(path, &now) ||
      now != expected) {
    ::unlink(temp.c_str());
    *error = watch->state() == WriterWatch::State::kWriters
                 ? fmt::format(
                       "{} is held open for writing by another process; not written (run "
                       "gpulint fix again once it is closed)",
                       path)
                 : fmt::format("{} changed while gpulint was writing it; not written", path);
    return false;
  }

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
    if (!ReadPath(path, &now) || now != expected || watch->Broken()) {
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
  // `temp` now names the old file. A writer that looked its name up before the swap may open
  // it a moment later; the lease, still held, sees it for as long as the old file is kept, so
  // it is kept a little while. Without a lease, a short wait and a second read narrow the window.
  const bool leased = watch->state() == WriterWatch::State::kHeld;
  std::this_thread::sleep_for(std::chrono::milliseconds(leased ? 20 : 2));
  std::string replaced;
  bool intact = !watch->Broken() && ReadPath(temp, &replaced) && replaced == expected;
  if (!intact) {
    // Put the other writer's file back where it was, then let a waiting writer go on into it;
    // gpulint's text goes away.
    ::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, path.c_str(), RENAME_EXCHANGE);
    watch.reset();
    ::unlink(temp.c_str());
    *error = fmt::format(
        "{} changed while gpulint was writing it; left as the other writer "
        "made it (run gpulint fix again)",
        path);
    return false;
  }
  ::unlink(temp.c_str());
  // A writer that opened the old file between the check and the unlink writes into a file that
  // no name reaches any more: rare (it looked the name up before the swap and was held up for
  // longer than the wait), but said rather than hidden.
  if (watch->Broken()) {
    *error = fmt::format(
        "{} was written, but another process opened the old file for writing at that moment; "
        "its edit went to the replaced copy (check the file)",
        path);
    return false;
  }
  watch.reset();
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
