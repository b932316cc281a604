// rules/frameworks/torchtune.toml and its built-in configs (torchtune-configs.toml): what
// `tune run` reads, and the recipes it says it does not model.
#include <catch2/catch.hpp>

#include "tests/support/lint_helpers.h"
#include "tests/support/process.h"
#include "tests/support/reader_helpers.h"

using namespace gpulint;
using gpulint::testing::ReadText;
using gpulint::testing::Role;

TEST_CASE("tune run's PPO recipe is not read as a fine-tune of batch_size sequences",
          "[frameworks]") {
  // recipes/ppo_full_finetune_single_device.py:410-416 at bd2a0fc7: batch_size counts the
  // trajectories of a step; the backward micro-batch is ppo_batch_size / gradient_accumulation_steps.
  SourceMap sources;
  ReadResult ppo = ReadText(
      "tune run ppo_full_finetune_single_device --config "
      "llama2/1B_full_ppo_low_memory_single_device\n",
      &sources);
  const Workload* train = Role(ppo.config, "train");
  REQUIRE(train);
  REQUIRE(train->String("unmodelled"));
  CHECK(train->String("unmodelled")->find("PPO") != std::string::npos);
  // A plain fine-tune config by name stays read.
  ReadResult lora = ReadText(
      "tune run lora_finetune_single_device --config llama3_1/8B_lora_single_device\n", &sources);
  const Workload* lora_train = Role(lora.config, "train");
  REQUIRE(lora_train);
  CHECK_FALSE(lora_train->String("unmodelled"));
}

TEST_CASE("a recipe gpulint does not model is said once, not as an unknown model",
          "[frameworks][rules]") {
  // The model is known (TinyLlama's checkpoint folder); only the recipe is not modelled, so
  // GL007 says so and GL003's advice to declare the model would mislead.
  gpulint::testing::TempDir dir;
  std::string script = dir.Write(
      "ppo.sh",
      "# gpulint: gpu=H100-80GB\n"
      "tune run ppo_full_finetune_single_device --config "
      "llama2/1B_full_ppo_low_memory_single_device\n");
  gpulint::testing::LintOutcome outcome = gpulint::testing::LintPath(script);
  REQUIRE(outcome.ok);
  CHECK(gpulint::testing::RuleIds(outcome.findings) == std::vector<std::string>{"GL007"});
}

TEST_CASE("torchtune's generation and evaluation configs are not training steps", "[frameworks]") {
  // recipes/configs/generation.yaml (max_new_tokens: recipes/generate.py) and
  // eleuther_evaluation.yaml (tasks: recipes/eleuther_eval.py:483) run the model forward only.
  SourceMap sources;
  for (const char* command :
       {"tune run generate --config generation\n",
        "tune run eleuther_eval --config eleuther_evaluation\n",
        "tune run --nproc_per_node 8 dev/generate_v2_distributed --config "
        "llama3/70B_generation_distributed\n"}) {
    INFO(command);
    ReadResult read = ReadText(command, &sources);
    const Workload* workload = Role(read.config, "train");
    REQUIRE(workload);
    CHECK(workload->String("unmodelled"));
  }
}
