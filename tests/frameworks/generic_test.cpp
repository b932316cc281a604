// rules/frameworks/generic.toml: the common spellings a team's own trainer uses, on commands
// shaped like the public scripts they come from.
#include <catch2/catch.hpp>

#include "estimator/units.h"
#include "lint/analysis/workload_estimate.h"
#include "tests/support/analysis_helpers.h"
#include "tests/support/reader_helpers.h"

using namespace gpulint;
using gpulint::testing::Dump;
using gpulint::testing::ReadText;

TEST_CASE("PEFT's SFT example spells QLoRA its own way", "[frameworks]") {
  // huggingface/peft examples/sft/run_peft_qlora_deepspeed_stage3.sh, less its DeepSpeed config.
  SourceMap sources;
  ReadResult read = ReadText(
      "python train.py --model_name_or_path meta-llama/Llama-2-70b-hf --max_length 2048 \\\n"
      "  --bf16 True --packing True --per_device_train_batch_size 2 \\\n"
      "  --gradient_checkpointing True --use_peft_lora True --lora_r 8 --lora_dropout 0.1 \\\n"
      "  --lora_target_modules all-linear --use_4bit_quantization True --use_nested_quant True\n",
      &sources);
  REQUIRE(read.config.workloads.size() == 1);
  const Workload& w = read.config.workloads[0];
  CHECK(Dump(w, {"quant", "lora_enabled", "lora_targets", "lora_dropout", "packing"}) ==
        "quant=nf4-dq@4:84(l) lora_enabled=true@3:49(l) lora_targets=all-linear@4:25(l) "
        "lora_dropout=0.1@3:80(l) packing=true@2:25(l)");
  auto analyzed = gpulint::testing::AnalyzeText(
      "# gpulint: gpu=A100-80GB\n"
      "python train.py --model_name_or_path meta-llama/Llama-2-70b-hf --max_length 2048 "
      "--per_device_train_batch_size 2 --use_peft_lora True --lora_r 8 "
      "--use_4bit_quantization True --use_nested_quant True\n");
  REQUIRE(analyzed->analysis.estimates.size() == 1);
  const WorkloadEstimate& estimate = analyzed->analysis.estimates[0];
  REQUIRE(estimate.breakdown);
  // 69B parameters at ~4.1 bits (NF4 with double-quantized scales): ~34 GiB on one GPU, not
  // the 128 GiB of bf16 weights.
  CHECK(est::BytesToGib(estimate.breakdown->weights) < 40);
  CHECK(est::BytesToGib(estimate.breakdown->weights) > 30);
}

TEST_CASE("PEFT's example with use_4bit_quantization False loads the base in 16 bits", "[frameworks]") {
  SourceMap sources;
  ReadResult read = ReadText(
      "python train.py --model_name_or_path meta-llama/Llama-2-7b-hf "
      "--per_device_train_batch_size 2 --use_4bit_quantization False\n",
      &sources);
  REQUIRE(read.config.workloads.size() == 1);
  CHECK(read.config.workloads[0].Find("quant") == nullptr);
}
