// Reading files that may be anything: a prefix of a regular file, and what is refused.
#include <catch2/catch.hpp>

#include <cerrno>

#include "lint/util/read_file.h"
#include "tests/support/process.h"

using gpulint::ReadFilePrefix;
using gpulint::ReadStatus;
using gpulint::ReadStatusText;
using gpulint::testing::TempDir;

TEST_CASE("ReadFilePrefix reads the first bytes and refuses a shorter file", "[util]") {
  TempDir dir;
  const std::string path = dir.Write("header.bin", "12345678rest");
  std::string text;
  REQUIRE(ReadFilePrefix(path, 8, &text) == ReadStatus::kOk);
  CHECK(text == "12345678");
  std::string unchanged = "kept";
  errno = EACCES;  // a stale error from earlier must not be reported for a short file
  CHECK(ReadFilePrefix(path, 64, &unchanged) == ReadStatus::kError);
  CHECK(unchanged == "kept");
  CHECK(ReadStatusText(ReadStatus::kError).find("Permission denied") == std::string::npos);
  CHECK(ReadFilePrefix(dir.path() + "/missing.bin", 8, &text) == ReadStatus::kMissing);
  CHECK(ReadFilePrefix(dir.path(), 8, &text) == ReadStatus::kNotRegular);
}
