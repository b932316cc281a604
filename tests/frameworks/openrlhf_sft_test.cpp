// rules/frameworks/openrlhf-sft.toml and openrlhf-sft-0.9.toml: OpenRLHF's SFT trainer
// (openrlhf.cli.train_sft), a DeepSpeed process per GPU, in the dotted and the underscore
// spellings.
#include <catch2/catch.hpp>

#include <string>

#include "tests/support/analysis_helpers.h"
#include "tests/support/process.h"
#include "tests/support/reader_helpers.h"

TEST_CASE("OpenRLHF SFT: the dotted flags of 0.10.2 on and the underscore flags before",
          "[frameworks]") {
  gpulint::SourceMap sources;
  auto dotted = gpulint::testing::ReadText(
      "deepspeed --num_gpus 8 --module openrlhf.cli.train_sft --model.model_name_or_path "
      "Qwen/Qwen3-8B --train.micro_batch_size 2 --train.batch_size 64 --data.max_len 8192 "
      "--ds.zero_stage 3 --model.gradient_checkpointing_enable --ds.ring_attn_size 2\n",
      &sources);
  REQUIRE(dotted.config.workloads.size() == 1);
  const gpulint::Workload& d = dotted.config.workloads[0];
  CHECK(d.framework == "openrlhf-sft");
  CHECK(d.gpus == 8);
  CHECK(gpulint::testing::Dump(d, {"micro_batch", "max_seq_len", "zero_stage", "cp", "grad_ckpt"}) ==
        "micro_batch=2@1:122(l) max_seq_len=8192@1:161(l) zero_stage=3@1:182(l) "
        "cp=2@1:242(l) grad_ckpt=true@1:184(l)");
  // train_sft.py:166 (0.11) and :164 (0.9.7): eight sequences per GPU unless set.
  auto old = gpulint::testing::ReadText(
      "deepspeed --module openrlhf.cli.train_sft --pretrain Qwen/Qwen3-8B --zero_stage 3 --bf16\n",
      &sources);
  REQUIRE(old.config.workloads.size() == 1);
  CHECK(old.config.workloads[0].framework == "openrlhf-sft-0.9");
  CHECK(gpulint::testing::Dump(old.config.workloads[0], {"micro_batch", "dtype"}) ==
        "micro_batch=8(d) dtype=amp-bf16@1:83(l)");
}

TEST_CASE("OpenRLHF issue #346: a global batch that 7 GPUs do not divide", "[frameworks][rules]") {
  // DeepSpeed asserts train_batch == micro_batch x grad_acc x world_size (deepspeed/runtime/
  // config.py _batch_assertion): 256 is not a multiple of 2 x 7; 252 is.
  auto lint = [](const char* global_batch) {
    gpulint::testing::TempDir dir;
    return gpulint::testing::RunGpulint(
        {"lint", "--isolated",
         dir.Write("a.sh", std::string("deepspeed --num_gpus 7 --module openrlhf.cli.train_sft "
                                       "--pretrain meta-llama/Meta-Llama-3-8B --train_batch_size ") +
                               global_batch +
                               " --micro_train_batch_size 2 --max_len 2048 --zero_stage 2 "
                               "--bf16\n")});
  };
  auto broken = lint("256");
  CHECK(broken.exit_code == 1);
  CHECK(broken.out.find("GL301") != std::string::npos);
  CHECK(broken.out.find("2 x 7 data-parallel rank(s) = 14") != std::string::npos);
  auto fixed = lint("252");
  CHECK(fixed.out.find("GL301") == std::string::npos);
}
