// readings: a team's own trainer decides what --bf16 means; where that decides the verdict,
// gpulint prices both meanings and waits for the script to state one.
#include "lint/analysis/readings.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "tests/support/analysis_helpers.h"
#include "tests/support/lint_helpers.h"
#include "tests/support/process.h"

namespace {

using gpulint::testing::TempDir;

// Seed guide 002's job: full fine-tuning of a 7.62B model at batch 8 x 1024 tokens on one H200.
// Mixed precision over fp32 weights: 16 bytes a parameter (weights, gradients, two moments) =
// 113.5 GiB before activations: past the GPU. Weights loaded in bf16: 8 bytes a parameter
// (weights, gradients and moments in bf16) = 56.8 GiB, and the job fits.
std::string Script(const std::string& directive) {
  return "# gpulint: gpu=H200\n" + directive +
         "accelerate launch src/main.py --model Qwen/Qwen2.5-7B-Instruct --batch-size 8 \\\n"
         "  --max-seq-length 1024 --bf16\n";
}

std::set<std::string> RuleIds(const std::string& path) {
  gpulint::testing::LintOutcome outcome = gpulint::testing::LintPath(path);
  REQUIRE(outcome.ok);
  std::set<std::string> ids;
  for (const gpulint::Finding& f : outcome.findings) ids.insert(f.rule);
  return ids;
}

}  // namespace

TEST_CASE("a --bf16 whose meaning decides the verdict is a warning with both numbers",
          "[analysis][readings]") {
  TempDir dir;
  std::string path = dir.Write("train.sh", Script(""));
  CHECK(RuleIds(path) == std::set<std::string>{"GL009"});

  auto analyzed = gpulint::testing::AnalyzeText(Script(""), "train.sh");
  const gpulint::WorkloadEstimate& e =
      analyzed->analysis.estimates[gpulint::testing::WorkloadWithRole(analyzed->analysis, "train")];
  REQUIRE(e.breakdown);
  CHECK(e.breakdown->total_low > e.usable_bytes);  // as taken: does not fit
  CHECK(e.breakdown->weights == Approx(7.62e9 * 4).epsilon(0.01));
  CHECK(e.reading_decides.find("read as mixed precision over fp32 weights") != std::string::npos);
  CHECK(e.reading_decides.find("it does not fit") != std::string::npos);
  CHECK(e.reading_decides.find("it fits") != std::string::npos);
  CHECK(e.reading_decides.find("'# gpulint: dtype=bf16'") != std::string::npos);
  CHECK(std::find(e.unknown_inputs.begin(), e.unknown_inputs.end(), "dtype") !=
        e.unknown_inputs.end());
  bool listed = false;
  for (const std::string& a : e.assumptions)
    listed = listed || (a.rfind("--bf16 read as mixed precision over fp32 weights", 0) == 0 &&
                        a.find("; if it loads the model in bf16") != std::string::npos);
  CHECK(listed);
}

TEST_CASE("stating what --bf16 means makes the verdict exact", "[analysis][readings]") {
  TempDir dir;
  // Loaded in bf16: it fits, nothing to report.
  CHECK(RuleIds(dir.Write("bf16.sh", Script("# gpulint: dtype=bf16\n"))).empty());
  // Mixed precision over fp32 weights: out of memory, as an error.
  CHECK(RuleIds(dir.Write("amp.sh", Script("# gpulint: dtype=amp-bf16\n"))).count("GL101") == 1);
  CHECK(RuleIds(dir.Write("amp.sh", Script("# gpulint: dtype=amp-bf16\n"))).count("GL009") == 0);
}

TEST_CASE("a reading that does not change the verdict is listed, not warned about",
          "[analysis][readings]") {
  // 0.49B parameters at batch 1 x 512 tokens fit an H200 either way.
  const std::string script =
      "# gpulint: gpu=H200\naccelerate launch train.py --model Qwen/Qwen2.5-0.5B "
      "--batch-size 1 --max-seq-length 512 --bf16\n";
  TempDir dir;
  std::set<std::string> ids = RuleIds(dir.Write("train.sh", script));
  CHECK(ids.count("GL009") == 0);
  CHECK(ids.count("GL101") == 0);
  auto analyzed = gpulint::testing::AnalyzeText(script, "train.sh");
  const gpulint::WorkloadEstimate& e = analyzed->analysis.estimates[0];
  CHECK(e.reading_decides.empty());
  CHECK(e.unknown_inputs.empty());
  bool listed = false;
  for (const std::string& a : e.assumptions) listed = listed || a.rfind("--bf16 read as", 0) == 0;
  CHECK(listed);
}
