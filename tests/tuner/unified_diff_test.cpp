// Unified diffs: the exact text (checked by hand) and that git applies them.
#include "tuner/unified_diff.h"

#include <catch2/catch.hpp>

#include "tests/support/process.h"

using namespace gpulint;
using namespace gpulint::testing;

TEST_CASE("a one-line change has three lines of context on each side", "[tuner][diff]") {
  std::string before = "a\nb\nc\nd\ne\nf\ng\nh\n";
  std::string after = "a\nb\nc\nd\nE\nf\ng\nh\n";
  CHECK(UnifiedDiff("run.sh", before, after) ==
        "--- a/run.sh\n+++ b/run.sh\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n");
  CHECK(UnifiedDiff("run.sh", before, before).empty());
}

TEST_CASE("changes far apart are separate hunks, a missing final newline is marked",
          "[tuner][diff]") {
  std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12";
  std::string after = "one\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\ntwelve";
  CHECK(UnifiedDiff("x.sh", before, after) ==
        "--- a/x.sh\n+++ b/x.sh\n"
        "@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n"
        "@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n\\ No newline at end of file\n"
        "+twelve\n\\ No newline at end of file\n");
}

TEST_CASE("git apply accepts the diff and produces the new text", "[tuner][diff]") {
  TempDir dir;
  std::string before = "#!/bin/bash\nexport X=1\ntorchrun --nproc_per_node 8 train.py \\\n"
                       "  --per_device_train_batch_size 4 \\\n  --bf16\necho done\n";
  std::string after = "#!/bin/bash\nexport X=1\ntorchrun --nproc_per_node 8 train.py \\\n"
                      "  --per_device_train_batch_size 16 --gradient_accumulation_steps 2 \\\n"
                      "  --bf16\necho done\n";
  dir.Write("jobs/run.sh", before);
  dir.Write("fix.patch", UnifiedDiff("jobs/run.sh", before, after));
  auto init = RunProcess("git", {"init", "-q", "."}, "", dir.path());
  REQUIRE(init.exit_code == 0);
  auto apply = RunProcess("git", {"apply", "fix.patch"}, "", dir.path());
  INFO(apply.err);
  REQUIRE(apply.exit_code == 0);
  CHECK(ReadWholeFile(dir.path() + "/jobs/run.sh") == after);
}

TEST_CASE("a diff names a file inside the working folder relatively, one outside absolutely",
          "[tuner][diff]") {
  // Inside: git apply and patch -p1 take a/x.sh whatever way the path was typed.
  CHECK(DiffPath("x.sh", "/w/repo") == "x.sh");
  CHECK(DiffPath("./jobs/../x.sh", "/w/repo") == "x.sh");
  CHECK(DiffPath("/w/repo/jobs/x.sh", "/w/repo") == "jobs/x.sh");
  CHECK(DiffPath("/w/repo/jobs/x.sh", "/w/repo/") == "jobs/x.sh");
  // Outside: a/../x.sh would patch repo/x.sh under patch -p1, and git apply refuses it.
  CHECK(DiffPath("../x.sh", "/w/repo") == "/w/x.sh");
  CHECK(DiffPath("/w/repository/x.sh", "/w/repo") == "/w/repository/x.sh");
  CHECK(UnifiedDiff(DiffPath("../x.sh", "/w/repo"), "a\n", "b\n") ==
        "--- /w/x.sh\n+++ /w/x.sh\n@@ -1,1 +1,1 @@\n-a\n+b\n");
  // The working folder unknown: as typed.
  CHECK(DiffPath("../x.sh", "") == "../x.sh");
}
