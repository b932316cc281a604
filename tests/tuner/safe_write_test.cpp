// In-place writes: atomic, mode kept, refused when the file changed since it was read.
#include "tuner/safe_write.h"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>

#include "tests/support/process.h"

using namespace gpulint;
using namespace gpulint::testing;
namespace fs = std::filesystem;

TEST_CASE("a write replaces the text and keeps the mode", "[tuner][write]") {
  TempDir dir;
  std::string path = dir.Write("run.sh", "old\n");
  REQUIRE(::chmod(path.c_str(), 0751) == 0);
  std::string error;
  REQUIRE(WriteFileSafely(path, "old\n", "new\n", WritePolicy(), &error));
  CHECK(ReadWholeFile(path) == "new\n");
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  CHECK((info.st_mode & 07777) == 0751);
  // No temporary file is left beside it.
  CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 1);
}

TEST_CASE("a file that changed since it was read is not written", "[tuner][write]") {
  TempDir dir;
  std::string path = dir.Write("run.sh", "edited by someone else\n");
  std::string error;
  CHECK_FALSE(WriteFileSafely(path, "what gpulint read\n", "gpulint's fix\n", WritePolicy(), &error));
  CHECK(error.find("changed since gpulint read it") != std::string::npos);
  CHECK(ReadWholeFile(path) == "edited by someone else\n");
}

TEST_CASE("writing through a symbolic link changes the file it points at", "[tuner][write]") {
  TempDir dir;
  std::string target = dir.Write("real.sh", "old\n");
  std::string link = dir.path() + "/link.sh";
  fs::create_symlink(target, link);
  std::string error;
  REQUIRE(WriteFileSafely(link, "old\n", "new\n", WritePolicy(), &error));
  CHECK(fs::is_symlink(link));
  CHECK(ReadWholeFile(target) == "new\n");
}

TEST_CASE("a link that leaves the linted folders is not followed", "[tuner][write]") {
  TempDir tree, outside;
  std::string target = outside.Write("bashrc", "old\n");
  std::string link = tree.path() + "/run.sh";
  fs::create_symlink(target, link);
  WritePolicy policy;
  policy.roots = {tree.path()};
  std::string error;
  CHECK_FALSE(WriteFileSafely(link, "old\n", "new\n", policy, &error));
  CHECK(error.find("outside the linted folders") != std::string::npos);
  CHECK(ReadWholeFile(target) == "old\n");
  policy.follow_symlinks = true;
  REQUIRE(WriteFileSafely(link, "old\n", "new\n", policy, &error));
  CHECK(ReadWholeFile(target) == "new\n");
}

TEST_CASE("a read-only file is not rewritten", "[tuner][write]") {
  TempDir dir;
  std::string path = dir.Write("run.sh", "old\n");
  REQUIRE(::chmod(path.c_str(), 0444) == 0);
  std::string error;
  CHECK_FALSE(WriteFileSafely(path, "old\n", "new\n", WritePolicy(), &error));
  CHECK(error.find("is read-only (mode 0444)") != std::string::npos);
  CHECK(ReadWholeFile(path) == "old\n");
}

TEST_CASE("a file with several hard links is not split", "[tuner][write]") {
  TempDir dir;
  std::string path = dir.Write("run.sh", "old\n");
  REQUIRE(::link(path.c_str(), (dir.path() + "/other-name.sh").c_str()) == 0);
  std::string error;
  CHECK_FALSE(WriteFileSafely(path, "old\n", "new\n", WritePolicy(), &error));
  CHECK(error.find("has 2 hard links") != std::string::npos);
  CHECK(ReadWholeFile(dir.path() + "/other-name.sh") == "old\n");
}

TEST_CASE("another user's file keeps its owner, or is refused", "[tuner][write]") {
  TempDir dir;
  std::string path = dir.Write("run.sh", "old\n");
  REQUIRE(::chmod(path.c_str(), 0666) == 0);
  constexpr uid_t kNobody = 65534;
  if (::chown(path.c_str(), kNobody, kNobody) != 0) {
    SUCCEED("not root: cannot give a file to another user to test this");
    return;
  }
  std::string error;
  REQUIRE(WriteFileSafely(path, "old\n", "new\n", WritePolicy(), &error));
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  CHECK(info.st_uid == kNobody);  // root hands the new file to the old owner
  CHECK(info.st_gid == kNobody);
}

TEST_CASE("WriteFileAtomically replaces a report whole", "[tuner][write]") {
  TempDir dir;
  std::string path = dir.Write("baseline.json", "old baseline\n");
  std::string error;
  REQUIRE(WriteFileAtomically(path, "new baseline\n", &error));
  CHECK(ReadWholeFile(path) == "new baseline\n");
  CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 1);
  CHECK_FALSE(WriteFileAtomically(dir.path() + "/missing/report.txt", "x", &error));
  // A full device: the write fails and says so.
  CHECK_FALSE(WriteFileAtomically("/dev/full", "x", &error));
}

namespace {

// Runs `write` in a child process that may write only 4 KiB per file (RLIMIT_FSIZE, with
// SIGXFSZ ignored, so write() fails with EFBIG as it would with ENOSPC on a full disk): 0 when
// it refused with a reason, 1 when it wrote, 2 when it refused without one.
int OnFullDisk(const std::function<bool(std::string*)>& write) {
  pid_t child = ::fork();
  if (child < 0) return -1;
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    struct rlimit limit {4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    std::string error;
    const bool written = write(&error);
    ::_exit(written ? 1 : error.empty() ? 2 : 0);
  }
  int status = 0;
  if (::waitpid(child, &status, 0) != child || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

}  // namespace

// A disk that fills up while the new text is written: the temporary copy cannot be completed,
// so nothing is renamed over the file.
TEST_CASE("a disk that fills up mid-write leaves the script whole and no temporary file",
          "[tuner][write]") {
  TempDir dir;
  const std::string before = "#!/bin/bash\nvllm serve Qwen/Qwen3-8B --max-model-len 4096\n";
  std::string path = dir.Write("run.sh", before);
  const std::string after = before + "# " + std::string(64 * 1024, 'x') + "\n";
  CHECK(OnFullDisk([&](std::string* error) {
          return WriteFileSafely(path, before, after, WritePolicy(), error);
        }) == 0);  // refused, with a reason
  CHECK(ReadWholeFile(path) == before);
  CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 1);
  // The same for a report gpulint owns (a baseline): the old one stays whole.
  std::string baseline = dir.Write("baseline.json", "{\"findings\": []}\n");
  CHECK(OnFullDisk([&](std::string* error) {
          return WriteFileAtomically(baseline, std::string(64 * 1024, ' '), error);
        }) == 0);
  CHECK(ReadWholeFile(baseline) == "{\"findings\": []}\n");
  CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 2);
}

namespace {

// Whether this file system grants leases (overlay and network file systems may not): without
// them gpulint cannot see a writer that holds a file open, and says nothing stronger.
bool LeasesWork(const TempDir& dir) {
  std::string probe = dir.Write("lease-probe", "x");
  int fd = ::open(probe.c_str(), O_RDONLY);
  bool works = fd >= 0 && ::fcntl(fd, F_SETLEASE, F_RDLCK) == 0;
  if (works) ::fcntl(fd, F_SETLEASE, F_UNLCK);
  if (fd >= 0) ::close(fd);
  ::unlink(probe.c_str());
  return works;
}

}  // namespace

// A writer that opened the file before the swap and writes after it, however late (a process
// descheduled on a loaded CI machine): its bytes land in the file gpulint replaced, so gpulint
// must see that the file is still open for writing and leave it in place.
TEST_CASE("a writer holding the file open across the swap keeps its edit", "[tuner][write]") {
  TempDir dir;
  if (!LeasesWork(dir)) {
    SUCCEED("this file system grants no leases");
    return;
  }
  const std::string original = "vllm serve m --max-num-seqs 8\n";
  std::string path = dir.Write("run.sh", original);
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    int fd = ::open(path.c_str(), O_WRONLY | O_APPEND);
    if (fd < 0 || ::write(ready[1], "x", 1) != 1) ::_exit(1);
    ::usleep(50 * 1000);  // far longer than any fixed wait after the swap
    const char marker[] = "# late edit\n";
    ::_exit(::write(fd, marker, sizeof marker - 1) == sizeof marker - 1 ? 0 : 1);
  }
  char byte = 0;
  REQUIRE(::read(ready[0], &byte, 1) == 1);
  std::string error;
  bool ok = WriteFileSafely(path, original, "vllm serve m --max-num-seqs 16\n", WritePolicy(),
                            &error);
  int status = 0;
  ::waitpid(child, &status, 0);
  ::close(ready[0]);
  ::close(ready[1]);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  CHECK_FALSE(ok);
  CHECK(ReadWholeFile(path) == original + "# late edit\n");
  CHECK(error.find("changed while gpulint was writing") != std::string::npos);
}

// A writer that keeps the file open and has not written yet may still write: the file is left.
TEST_CASE("a file held open for writing throughout is left as it was", "[tuner][write]") {
  TempDir dir;
  if (!LeasesWork(dir)) {
    SUCCEED("this file system grants no leases");
    return;
  }
  std::string path = dir.Write("run.sh", "old\n");
  int writer = ::open(path.c_str(), O_WRONLY | O_APPEND);
  REQUIRE(writer >= 0);
  std::string error;
  CHECK_FALSE(WriteFileSafely(path, "old\n", "new\n", WritePolicy(), &error));
  CHECK(error.find("held open for writing") != std::string::npos);
  REQUIRE(::write(writer, "late\n", 5) == 5);  // its late write lands in the file at `path`
  ::close(writer);
  CHECK(ReadWholeFile(path) == "old\nlate\n");
  CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 1);
}

// A process that only reads the file (a pager, `tail -f`) does not stop the write.
TEST_CASE("a reader holding the file open does not stop the write", "[tuner][write]") {
  TempDir dir;
  std::string path = dir.Write("run.sh", "old\n");
  int reader = ::open(path.c_str(), O_RDONLY);
  REQUIRE(reader >= 0);
  std::string error;
  CHECK(WriteFileSafely(path, "old\n", "new\n", WritePolicy(), &error));
  CHECK(ReadWholeFile(path) == "new\n");
  ::close(reader);
}

// Another process edits the file while gpulint writes it, at a random moment, by appending in
// place or by replacing it (as editors save): its edit must survive every time, and an append
// gpulint did not refuse must have gone into gpulint's text.
TEST_CASE("a concurrent edit is never lost (1,000 trials)", "[tuner][write][stress]") {
  TempDir dir;
  const std::string path = dir.path() + "/run.sh";
  std::mt19937 random(12345);
  int refused = 0, written = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    const std::string original = "vllm serve m --max-num-seqs 8\n";
    {
      std::ofstream(path, std::ios::trunc) << original;
    }
    const int delay_us = static_cast<int>(random() % 400);
    const bool by_rename = trial % 2 == 1;
    const std::string marker = fmt::format("# edit {}\n", trial);
    pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      ::usleep(static_cast<useconds_t>(delay_us));
      if (by_rename) {
        std::string other = path + ".editor";
        int fd = ::open(other.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        std::string text;
        int in = ::open(path.c_str(), O_RDONLY);
        char buffer[4096];
        ssize_t n = ::read(in, buffer, sizeof buffer);
        if (n > 0) text.assign(buffer, static_cast<size_t>(n));
        ::close(in);
        text += marker;
        if (::write(fd, text.data(), text.size()) < 0) ::_exit(2);
        ::close(fd);
        ::_exit(::rename(other.c_str(), path.c_str()) == 0 ? 0 : 1);
      }
      int fd = ::open(path.c_str(), O_WRONLY | O_APPEND);
      ssize_t n = ::write(fd, marker.data(), marker.size());
      ::_exit(n == static_cast<ssize_t>(marker.size()) ? 0 : 1);
    }
    std::string error;
    bool ok = WriteFileSafely(path, original, "vllm serve m --max-num-seqs 16\n", WritePolicy(),
                              &error);
    int status = 0;
    ::waitpid(child, &status, 0);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    std::string after = ReadWholeFile(path);
    INFO("trial " << trial << (by_rename ? " (rename)" : " (append)") << ": " << after);
    CHECK(after.find(marker) != std::string::npos);  // the other edit survived
    if (ok) {
      // An append then went into gpulint's file (a rename may have replaced it with the other
      // writer's own copy: that is the other writer's choice, and its edit is kept).
      if (!by_rename) CHECK(after.find("--max-num-seqs 16") != std::string::npos);
      ++written;
    } else {
      CHECK(error.find("changed") != std::string::npos);
      ++refused;
    }
  }
  // Both outcomes occur: the trials do race.
  CHECK(written > 0);
  CHECK(refused > 0);
}

TEST_CASE("the write roots are the paths given, not the working directory besides",
          "[tuner][write]") {
  using gpulint::WriteRootsFor;
  CHECK(WriteRootsFor({}) == std::vector<std::string>{"."});
  CHECK(WriteRootsFor({"-"}) == std::vector<std::string>{"."});
  CHECK(WriteRootsFor({"run.sh"}) == std::vector<std::string>{"."});  // its folder
  CHECK(WriteRootsFor({"scripts/run.sh"}) == std::vector<std::string>{"scripts"});
  TempDir dir;
  dir.Write("repo/a.sh", "x\n");
  CHECK(WriteRootsFor({dir.path() + "/repo"}) == std::vector<std::string>{dir.path() + "/repo"});
}
