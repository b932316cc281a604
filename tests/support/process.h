// Runs the built gpulint binary (or any program) for end-to-end tests and captures its output.
#pragma once

#include <string>
#include <vector>

namespace gpulint::testing {

struct ProcessResult {
  int exit_code = -1;
  std::string out;  ///< stdout
  std::string err;  ///< stderr
};

/// Runs `program args...` with `stdin_text` on stdin, in `working_dir` when not empty.
ProcessResult RunProcess(const std::string& program, const std::vector<std::string>& args,
                         const std::string& stdin_text = "", const std::string& working_dir = "");

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
