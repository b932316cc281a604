// value_check: a value the script writes that no framework takes is reported, not estimated.
#include "lint/analysis/value_check.h"

#include <catch2/catch.hpp>

#include <string>

#include "tests/support/analysis_helpers.h"

namespace {

const gpulint::RunConfig& Read(const std::string& tp) {
  static std::unique_ptr<gpulint::testing::Analyzed> keep;
  keep = gpulint::testing::AnalyzeText(
      "vllm serve Qwen/Qwen3-8B --max-model-len 4096 --tensor-parallel-size " + tp + "\n",
      "run.sh");
  return keep->analysis.read.config;
}

}  // namespace

TEST_CASE("a number written as text is no number, not the framework's default",
          "[analysis][value_check]") {
  // argparse's int() refuses these: the engine never starts (it was estimated on one GPU).
  for (const char* text : {"abc", "1e999", "0x7fffffff", "2,"}) {
    INFO(text);
    const gpulint::RunConfig& config = Read(text);
    REQUIRE(config.invalid.size() == 1);
    CHECK(config.invalid[0].name == "tp");
    CHECK(config.invalid[0].value == text);
    CHECK(config.invalid[0].reason == "not a number");
    CHECK(config.invalid[0].span.col == 70);  // the value, where the finding points
    CHECK(config.workloads[0].Find("tp")->value.kind == gpulint::Value::Kind::kNone);
  }
  // A count with a unit suffix (vLLM's human_readable_int takes "32k"; argparse's int() does
  // not): not known, so no rule judges it either way.
  const gpulint::RunConfig& suffixed = Read("32k");
  CHECK(suffixed.invalid.empty());
  bool unresolved = false;
  for (const gpulint::Unresolved& u : suffixed.unresolved)
    unresolved = unresolved || (u.name == "tp" && u.reason.find("'32k'") != std::string::npos);
  CHECK(unresolved);
  // A word a framework defines stays as read ("auto" in a DeepSpeed config defers to the
  // trainer's flag), and a number is a number.
  CHECK(Read("auto").invalid.empty());
  CHECK(Read("2").workloads[0].Find("tp")->value.number == 2);
}
