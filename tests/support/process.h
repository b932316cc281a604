// Runs the built gpulint binary (or any program) for end-to-end tests and captures its output.
#pragma once

#include <string>
#include <vector>

namespace gpulint::testing {

struct ProcessResult {
  int exit_code = -1;
  std::string out;         ///< stdout
  std::string err;         ///< stderr
  bool timed_out = false;  ///< killed at ProcessLimits::timeout_s
};

/// Bounds for a program fed hostile input: a wall-clock limit after which it is killed, an
/// address-space limit (RLIMIT_AS; sanitized binaries get ASan's malloc limit instead, since
/// ASan reserves terabytes of address space for its shadow memory), and extra environment.
struct ProcessLimits {
  double timeout_s = 0;          ///< 0: none
  size_t memory_bytes = 0;       ///< 0: none
  bool sanitized = false;        ///< the program is built with ASan
  std::vector<std::string> env;  ///< NAME=VALUE added to the environment
  std::string stdin_path;        ///< a file to read stdin from ("": /dev/null)
};

/// Runs `program args...` with `stdin_text` on stdin, in `working_dir` when not empty.
ProcessResult RunProcess(const std::string& program, const std::vector<std::string>& args,
                         const std::string& stdin_text = "", const std::string& working_dir = "");

/// Runs `program args...` within `limits`, stdin from `limits.stdin_path` or /dev/null.
ProcessResult RunProcessLimited(const std::string& program, const std::vector<std::string>& args,
                                const ProcessLimits& limits, const std::string& working_dir = "");

/// Whether the gpulint binary under test is built with the sanitizers.
bool GpulintIsSanitized();

/// Path of the gpulint binary built with the tests.
std::string GpulintBinary();

/// Runs the gpulint binary built with the tests.
ProcessResult RunGpulint(const std::vector<std::string>& args, const std::string& stdin_text = "",
                         const std::string& working_dir = "");

/// Absolute path of a file in the source tree, e.g. SourcePath("fixtures/scripts/x.sh").
std::string SourcePath(const std::string& relative);

/// A fresh empty directory under the system temp dir, removed when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  /// Writes `content` to path()/relative (creating folders) and returns the full path.
  std::string Write(const std::string& relative, const std::string& content) const;

 private:
  std::string path_;
};

/// The whole content of a file ("" when it cannot be read).
std::string ReadWholeFile(const std::string& path);

}  // namespace gpulint::testing
