// rules/frameworks/vllm.toml: what `vllm serve` reads from the command and its environment.
#include <catch2/catch.hpp>

#include <algorithm>

#include "tests/support/lint_helpers.h"
#include "tests/support/process.h"

using namespace gpulint;

namespace {

std::vector<std::string> RulesOf(const std::string& script) {
  gpulint::testing::TempDir dir;
  gpulint::testing::LintOutcome outcome =
      gpulint::testing::LintPath(dir.Write("serve.sh", script));
  REQUIRE(outcome.ok);
  return gpulint::testing::RuleIds(outcome.findings);
}

bool Has(const std::vector<std::string>& rules, const char* id) {
  return std::find(rules.begin(), rules.end(), id) != rules.end();
}

}  // namespace

TEST_CASE("VLLM_ALLOW_LONG_MAX_MODEL_LEN turns vLLM's refusal of a long context into a warning",
          "[frameworks][rules]") {
  // vllm/config/model.py _get_and_verify_max_len: ValueError unless the variable is set.
  const std::string serve =
      "vllm serve meta-llama/Llama-2-7b-hf --max-model-len 8192 --gpu-memory-utilization 0.9\n";
  CHECK(Has(RulesOf("# gpulint: gpu=H100-80GB\n" + serve), "GL302"));
  CHECK_FALSE(
      Has(RulesOf("# gpulint: gpu=H100-80GB\nVLLM_ALLOW_LONG_MAX_MODEL_LEN=1 " + serve), "GL302"));
  CHECK_FALSE(Has(RulesOf("# gpulint: gpu=H100-80GB\nexport VLLM_ALLOW_LONG_MAX_MODEL_LEN=1\n" +
                          serve),
                  "GL302"));
  CHECK(Has(RulesOf("# gpulint: gpu=H100-80GB\nVLLM_ALLOW_LONG_MAX_MODEL_LEN=0 " + serve),
            "GL302"));
}
