// rules/frameworks/vllm.toml: what `vllm serve` reads from the command and its environment.
#include <catch2/catch.hpp>

#include "tests/support/lint_helpers.h"

using namespace gpulint;

using gpulint::testing::HasRule;
using gpulint::testing::RulesOfScript;

TEST_CASE("VLLM_ALLOW_LONG_MAX_MODEL_LEN turns vLLM's refusal of a long context into a warning",
          "[frameworks][rules]") {
  // vllm/config/model.py _get_and_verify_max_len: ValueError unless the variable is set.
  const std::string serve =
      "vllm serve meta-llama/Llama-2-7b-hf --max-model-len 8192 --gpu-memory-utilization 0.9\n";
  const std::string gpu = "# gpulint: gpu=H100-80GB\n";
  CHECK(HasRule(RulesOfScript(gpu + serve), "GL302"));
  CHECK_FALSE(HasRule(RulesOfScript(gpu + "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 " + serve), "GL302"));
  CHECK_FALSE(HasRule(
      RulesOfScript(gpu + "export VLLM_ALLOW_LONG_MAX_MODEL_LEN=1\n" + serve), "GL302"));
  CHECK(HasRule(RulesOfScript(gpu + "VLLM_ALLOW_LONG_MAX_MODEL_LEN=0 " + serve), "GL302"));
}
