// Text output on a terminal wraps messages, fixes and the summary at its width; elsewhere (a
// pipe, a file, a CI log) each stays on one line.
#include <catch2/catch.hpp>

#include <sstream>

#include "lint/report/reporter.h"

using namespace gpulint;

namespace {

ReportInput OneFinding(SourceMap* sources) {
  sources->Add("jobs/train.sh", "torchrun train.py --micro-batch 16\n");
  Finding f;
  f.rule = "GL101";
  f.name = "out-of-memory";
  f.severity = Severity::kError;
  f.message =
      "the peak needs at least 93.4 GiB per GPU (live tensors, before the allocator's slack), "
      "more than the 80.0 GiB of A100-80GB (peak at backward through the last layer: weights "
      "2.1, optimizer 0.0, activations 90.0, logits 0.0, KV cache 0.0 GiB)";
  f.span.path = "jobs/train.sh";
  f.span.line = 1;
  f.span.col = 33;
  f.span.length = 2;
  f.fixes.push_back({"shorter sequences (longer samples are truncated): max_seq_len 512000 -> "
                     "131072; peak up to 128.3 -> 35.9 GiB per GPU, 80.0 GiB allowed",
                     {}, false});
  ReportInput input;
  input.files.push_back({"jobs/train.sh", {f}, sources, nullptr});
  return input;
}

std::string Collapse(const std::string& text) {  // every "\n    " back to the one space
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 5, "\n    ") == 0) {
      out += ' ';
      i += 4;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace

TEST_CASE("text wraps messages and fixes at the terminal's width, and only there", "[report]") {
  SourceMap sources;
  ReportInput input = OneFinding(&sources);
  const std::string flat = FindReporter("text")->render(input);
  input.wrap_columns = 80;
  const std::string wrapped = FindReporter("text")->render(input);
  CHECK(wrapped != flat);
  std::istringstream lines(wrapped);
  int count = 0;
  for (std::string line; std::getline(lines, line); ++count) {
    INFO(line);
    CHECK(line.size() <= 80);
  }
  CHECK(count > 8);  // the message, the fix and the summary each take several lines
  // Wrapping only turns spaces into breaks (the caret line, indented as deep, collapses alike).
  CHECK(Collapse(wrapped) == Collapse(flat));
  // The source line and caret are not wrapped.
  CHECK(wrapped.find("\n  torchrun train.py --micro-batch 16\n") != std::string::npos);
}
