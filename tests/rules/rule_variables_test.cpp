// What rules see of a model: values the catalog marks uncertain are missing to them.
#include "lint/rules/rule_variables.h"

#include <catch2/catch.hpp>

#include "tests/support/lint_helpers.h"
#include "tests/support/process.h"

using gpulint::testing::LintPath;
using gpulint::testing::TempDir;

namespace {

bool Reports(const std::vector<gpulint::Finding>& findings, const std::string& id) {
  for (const gpulint::Finding& f : findings)
    if (f.rule == id) return true;
  return false;
}

}  // namespace

TEST_CASE("a model field the catalog marks uncertain does not fire a rule", "[rules]") {
  TempDir dir;
  // allenai/Olmo-3-1025-7B: max_position_embeddings 8192 is read from a copy (maxtext), and
  // the catalog lists it in uncertain_fields; long-context releases extend it with YaRN.
  std::string uncertain = dir.Write(
      "olmo3.sh",
      "# gpulint: gpu=H100-80GB\n"
      "trl sft --model_name_or_path allenai/Olmo-3-1025-7B --use_peft --gradient_checkpointing "
      "--per_device_train_batch_size 1 --max_length 16384\n");
  auto outcome = LintPath(uncertain);
  REQUIRE(outcome.ok);
  CHECK_FALSE(Reports(outcome.findings, "GL304"));

  // Llama-2-7b's 4096 positions are its own config's: the same job past them is reported.
  std::string known = dir.Write(
      "llama2.sh",
      "# gpulint: gpu=H100-80GB\n"
      "trl sft --model_name_or_path meta-llama/Llama-2-7b-hf --use_peft --gradient_checkpointing "
      "--per_device_train_batch_size 1 --max_length 16384\n");
  outcome = LintPath(known);
  REQUIRE(outcome.ok);
  CHECK(Reports(outcome.findings, "GL304"));
}

TEST_CASE("attention splits over tp / dp under SGLang's DP attention, and MLA has no KV heads "
          "to split", "[rules]") {
  TempDir dir;
  // zai-org/GLM-4.7-Flash: 20 query heads, multi-head latent attention (slime's
  // examples/delta_weight_sync/run-glm4.7-30B-A3B-delta.sh runs it at TP 8 with DP attention 8).
  std::string dp_attention = dir.Write(
      "dp.sh",
      "# gpulint: gpu=H100-80GB\n"
      "python -m sglang.launch_server --model-path zai-org/GLM-4.7-Flash --tp 8 --dp 8 "
      "--enable-dp-attention --context-length 8192\n");
  auto outcome = LintPath(dp_attention);
  REQUIRE(outcome.ok);
  CHECK_FALSE(Reports(outcome.findings, "GL201"));
  CHECK_FALSE(Reports(outcome.findings, "GL202"));

  // Without it, 8 does not divide 20 query heads; the latent KV cache is not split at all.
  std::string plain = dir.Write(
      "tp.sh",
      "# gpulint: gpu=H100-80GB\n"
      "python -m sglang.launch_server --model-path zai-org/GLM-4.7-Flash --tp 8 "
      "--context-length 8192\n");
  outcome = LintPath(plain);
  REQUIRE(outcome.ok);
  CHECK(Reports(outcome.findings, "GL201"));
  CHECK_FALSE(Reports(outcome.findings, "GL202"));
}
