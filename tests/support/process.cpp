#include "tests/support/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gpulint::testing {

namespace {

ProcessResult Run(const std::string& program, const std::vector<std::string>& args,
                  const std::string& stdin_text, const std::string& working_dir,
                  const ProcessLimits& limits) {
  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (pipe(in_pipe) || pipe(out_pipe) || pipe(err_pipe)) throw std::runtime_error("pipe failed");
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    dup2(in_pipe[0], 0);
    if (!limits.stdin_path.empty()) {
      int file = open(limits.stdin_path.c_str(), O_RDONLY);
      if (file < 0) _exit(127);
      dup2(file, 0);
      close(file);
    }
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]})
      close(fd);
    if (!working_dir.empty() && chdir(working_dir.c_str()) != 0) _exit(127);
    // Its own process group, so that a timeout kills whatever it started too.
    setpgid(0, 0);
    if (limits.memory_bytes > 0 && !limits.sanitized) {
      rlimit as{limits.memory_bytes, limits.memory_bytes};
      setrlimit(RLIMIT_AS, &as);
    }
    for (const std::string& assignment : limits.env) putenv(const_cast<char*>(assignment.c_str()));
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(program.c_str()));
    for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    execvp(program.c_str(), argv.data());
    _exit(127);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  // Feed stdin and drain both outputs together so that no pipe fills up and blocks the child.
  ProcessResult result;
  size_t written = 0;
  if (stdin_text.empty()) close(in_pipe[1]);
  bool in_open = !stdin_text.empty(), out_open = true, err_open = true;
  fcntl(in_pipe[1], F_SETFL, O_NONBLOCK);
  char buffer[65536];
  const auto start = std::chrono::steady_clock::now();
  while (out_open || err_open || in_open) {
    int wait_ms = -1;
    if (limits.timeout_s > 0) {
      double left_s =
          limits.timeout_s -
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (left_s <= 0) {
        result.timed_out = true;
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
        break;
      }
      wait_ms = static_cast<int>(left_s * 1000) + 1;
    }
    pollfd fds[3];
    int n = 0;
    if (out_open) fds[n++] = {out_pipe[0], POLLIN, 0};
    if (err_open) fds[n++] = {err_pipe[0], POLLIN, 0};
    if (in_open) fds[n++] = {in_pipe[1], POLLOUT, 0};
    int ready = poll(fds, n, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) break;
    for (int i = 0; i < n; ++i) {
      if (!fds[i].revents) continue;
      if (fds[i].fd == in_pipe[1]) {
        ssize_t w = write(in_pipe[1], stdin_text.data() + written, stdin_text.size() - written);
        if (w > 0) written += static_cast<size_t>(w);
        if (w < 0 || written == stdin_text.size()) {
          close(in_pipe[1]);
          in_open = false;
        }
        continue;
      }
      ssize_t r = read(fds[i].fd, buffer, sizeof buffer);
      bool is_out = fds[i].fd == out_pipe[0];
      if (r <= 0) {
        (is_out ? out_open : err_open) = false;
      } else {
        (is_out ? result.out : result.err).append(buffer, static_cast<size_t>(r));
      }
    }
  }
  close(out_pipe[0]);
  close(err_pipe[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

}  // namespace

ProcessResult RunProcess(const std::string& program, const std::vector<std::string>& args,
                         const std::string& stdin_text, const std::string& working_dir) {
  return Run(program, args, stdin_text, working_dir, ProcessLimits());
}

ProcessResult RunProcessLimited(const std::string& program, const std::vector<std::string>& args,
                                const ProcessLimits& limits, const std::string& working_dir) {
  return Run(program, args, "", working_dir, limits);
}

bool GpulintIsSanitized() {
#ifdef GPULINT_SANITIZED
  return true;
#else
  return false;
#endif
}

std::string GpulintBinary() {
  return GPULINT_BINARY;
}

ProcessResult RunGpulint(const std::vector<std::string>& args, const std::string& stdin_text,
                         const std::string& working_dir) {
  return RunProcess(GPULINT_BINARY, args, stdin_text, working_dir);
}

std::string SourcePath(const std::string& relative) {
  return std::string(GPULINT_SOURCE_DIR) + "/" + relative;
}

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "gpulint-test-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string TempDir::Write(const std::string& relative, const std::string& content) const {
  std::filesystem::path full = std::filesystem::path(path_) / relative;
  std::filesystem::create_directories(full.parent_path());
  std::ofstream(full, std::ios::binary) << content;
  return full.string();
}

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace gpulint::testing
