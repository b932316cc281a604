// ReportInput::LineText: the line a finding points at, from its own file's sources first and
// from any file that read the path otherwise.
#include <catch2/catch.hpp>

#include "lint/report/reporter.h"

using namespace gpulint;

TEST_CASE("a finding's line comes from its own file, or from the file that read the path",
          "[report]") {
  SourceMap train_sources;
  train_sources.Add("train.sh", "#!/bin/bash\nsource env.sh\ntorchrun x.py\n");
  train_sources.Add("env.sh", "export A=1\nexport B=2\n");
  SourceMap serve_sources;
  serve_sources.Add("serve.sh", "vllm serve M\n");
  ReportInput input;
  input.files.resize(2);
  input.files[0].path = "train.sh";
  input.files[0].sources = &train_sources;
  input.files[1].path = "serve.sh";
  input.files[1].sources = &serve_sources;

  CHECK(input.LineText(input.files[0], "train.sh", 3) == "torchrun x.py");
  CHECK(input.LineText(input.files[0], "env.sh", 2) == "export B=2");
  // serve.sh's own sources do not hold env.sh: the index of every file's sources answers.
  CHECK(input.LineText(input.files[1], "env.sh", 1) == "export A=1");
  CHECK(input.LineText(input.files[1], "serve.sh", 1) == "vllm serve M");
  CHECK(input.LineText(input.files[1], "serve.sh", 7).empty());
  CHECK(input.LineText(input.files[1], "missing.sh", 1).empty());
  CHECK(input.LineText("train.sh", 2) == "source env.sh");
}
