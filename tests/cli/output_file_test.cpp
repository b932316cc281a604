// Files the user names on the command line: a report or baseline that cannot be written is an
// error with exit code 2, never a run that looks fine and left nothing behind.
#include "lint/cli/output_file.h"

#include <catch2/catch.hpp>

#include "tests/support/process.h"

using namespace gpulint::testing;

TEST_CASE("WriteOutputFile replaces the file, or says why it cannot", "[cli][output]") {
  TempDir dir;
  std::string path = dir.Write("report.txt", "old and longer text\n");
  std::string error;
  REQUIRE(gpulint::WriteOutputFile(path, "new\n", &error));
  CHECK(ReadWholeFile(path) == "new\n");
  CHECK_FALSE(gpulint::WriteOutputFile(dir.path() + "/missing/report.txt", "x", &error));
  CHECK(error == "cannot write " + dir.path() + "/missing/report.txt: No such file or directory");
}

TEST_CASE("an unwritable --output-file or --write-baseline exits 2", "[cli][output]") {
  TempDir dir;
  std::string script =
      dir.Write("serve.sh", "vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 3\n");
  std::string nowhere = dir.path() + "/missing/out";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"lint", "--isolated", "--format", "json", "--output-file", nowhere,
                                 script},
        {"lint", "--isolated", "--write-baseline", nowhere, script},
        {"estimate", "--isolated", "--gpu", "H100-80GB", "--format", "json", "--output-file",
         nowhere, script},
        {"fix", "--isolated", "--gpu", "H100-80GB", "--maximize", "batch", "--output-file", nowhere,
         script}}) {
    auto result = RunGpulint(args);
    INFO(args[0] << " " << args[args.size() - 3]);
    CHECK(result.exit_code == 2);
    CHECK(result.err.find("gpulint: error: cannot write " + nowhere) != std::string::npos);
  }
}
