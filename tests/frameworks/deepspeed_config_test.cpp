// rules/frameworks/deepspeed-config.toml: a DeepSpeed JSON config read through the command that
// names it: who builds the optimizer, and ZeRO-3's sub-group size.
#include <catch2/catch.hpp>

#include <string>

#include "lint/reader/script_reader.h"
#include "tests/support/reader_helpers.h"

using namespace gpulint;

namespace {

// The optimizer setting of a HF Trainer script whose DeepSpeed config is `json` (empty: unset).
std::string OptimizerOf(const std::string& json, SourceMap* sources) {
  auto read = testing::ReadText("cat > ds.json <<'JSON'\n" + json +
                                    "\nJSON\n"
                                    "torchrun --nproc_per_node 8 train.py --model_name_or_path "
                                    "Qwen/Qwen2.5-7B --deepspeed ds.json --bf16\n",
                                sources);
  const Workload* train = testing::Role(read.config, "train");
  REQUIRE(train);
  return train->String("optimizer").value_or("");
}

}  // namespace

// engine.py:2095-2139 at edaa7221: an "optimizer" section of type Adam or AdamW builds
// DeepSpeed's FusedAdam (no torch_adam, no offload); without one, the trainer's own runs.
TEST_CASE("a DeepSpeed optimizer section is DeepSpeed's FusedAdam", "[frameworks]") {
  SourceMap sources;
  CHECK(OptimizerOf("{\"zero_optimization\": {\"stage\": 3}, \"optimizer\": {\"type\": \"AdamW\"}}",
                  &sources) == "fused_adam");
  CHECK(OptimizerOf("{\"zero_optimization\": {\"stage\": 3}, \"optimizer\": {\"type\": \"Adam\"}}",
                  &sources) == "fused_adam");
  // Without one the config sets none: the trainer's flag or default (torch AdamW) stands.
  CHECK(OptimizerOf("{\"zero_optimization\": {\"stage\": 3}}", &sources).empty());
}

TEST_CASE("ZeRO-3's sub_group_size is read, written as JSON writes 1e9", "[frameworks]") {
  SourceMap sources;
  auto read = testing::ReadText(
      "cat > ds.json <<'JSON'\n"
      "{\"zero_optimization\": {\"stage\": 3, \"sub_group_size\": 5e8}}\n"
      "JSON\n"
      "torchrun --nproc_per_node 8 train.py --model_name_or_path Qwen/Qwen2.5-7B "
      "--deepspeed ds.json --bf16\n",
      &sources);
  const Workload* train = testing::Role(read.config, "train");
  REQUIRE(train);
  CHECK(train->Number("zero_sub_group_size") == 5e8);
}
