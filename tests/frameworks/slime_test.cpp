// rules/frameworks/slime.toml: slime's train.py flags (THUDM/slime at 624b824a).
#include <catch2/catch.hpp>

#include <string>

#include "lint/reader/script_reader.h"
#include "tests/support/reader_helpers.h"

using namespace gpulint;

// --model-name names the conversion of Megatron weights to Hugging Face ones
// (slime/utils/arguments.py:319-327), not a model to load: --hf-checkpoint is the model,
// whichever comes last (scripts/run-minimax-m2.sh writes --model-name minimax_m2 after it).
TEST_CASE("slime's --model-name is not the model", "[frameworks]") {
  SourceMap sources;
  auto read = testing::ReadText(
      "python3 train.py --actor-num-nodes 1 --actor-num-gpus-per-node 8 --colocate "
      "--rollout-num-gpus 8 --hf-checkpoint /root/Qwen3-4B --model-name qwen3 "
      "--rollout-batch-size 32 --n-samples-per-prompt 8\n",
      &sources);
  const Workload* train = testing::Role(read.config, "train");
  REQUIRE(train);
  CHECK(train->framework == "slime");
  CHECK(train->String("model") == "/root/Qwen3-4B");
}
