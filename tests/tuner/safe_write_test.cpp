// In-place writes: atomic, mode kept, refused when the file changed since it was read.
#include "tuner/safe_write.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <sys/stat.h>

#include "tests/support/process.h"

using namespace gpulint;
using namespace gpulint::testing;
namespace fs = std::filesystem;

TEST_CASE("a write replaces the text and keeps the mode", "[tuner][write]") {
  TempDir dir;
  std::string path = dir.Write("run.sh", "old\n");
  REQUIRE(::chmod(path.c_str(), 0751) == 0);
  std::string error;
  REQUIRE(WriteFileSafely(path, "old\n", "new\n", &error));
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
  CHECK_FALSE(WriteFileSafely(path, "what gpulint read\n", "gpulint's fix\n", &error));
  CHECK(error.find("changed since gpulint read it") != std::string::npos);
  CHECK(ReadWholeFile(path) == "edited by someone else\n");
}

TEST_CASE("writing through a symbolic link changes the file it points at", "[tuner][write]") {
  TempDir dir;
  std::string target = dir.Write("real.sh", "old\n");
  std::string link = dir.path() + "/link.sh";
  fs::create_symlink(target, link);
  std::string error;
  REQUIRE(WriteFileSafely(link, "old\n", "new\n", &error));
  CHECK(fs::is_symlink(link));
  CHECK(ReadWholeFile(target) == "new\n");
}
