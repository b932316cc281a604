// rules/frameworks/llamafactory.toml: LLaMA-Factory's stages. DPO pairs every example's chosen
// and rejected sequences in one batch and, for a full fine-tune, keeps a frozen reference;
// the stages it does not price are named.
#include <catch2/catch.hpp>

#include "lint/analysis/workload_estimate.h"
#include "tests/support/analysis_helpers.h"
#include "tests/support/reader_helpers.h"

using namespace gpulint;
using gpulint::testing::AnalyzeText;
using gpulint::testing::Dump;
using gpulint::testing::Role;

namespace {

std::string Yaml(const std::string& extra) {
  return "model_name_or_path: Qwen/Qwen2.5-0.5B-Instruct\ncutoff_len: 1024\n" + extra;
}

}  // namespace

TEST_CASE("LLaMA-Factory DPO: paired sequences, and a reference beside a full fine-tune",
          "[frameworks]") {
  auto full = AnalyzeText(Yaml("stage: dpo\nfinetuning_type: full\n"), "dpo_full.yaml");
  const RunConfig& config = full->analysis.read.config;
  REQUIRE(Role(config, "train"));
  CHECK(Dump(*Role(config, "train"), {"stage", "sequences_per_example"}) ==
        "stage=dpo@3:8(c) sequences_per_example=2(d)");
  REQUIRE(Role(config, "reference"));
  CHECK(Role(config, "reference")->shares_process_gpus);

  auto lora = AnalyzeText(Yaml("stage: dpo\nfinetuning_type: lora\n"), "dpo_lora.yaml");
  CHECK_FALSE(Role(lora->analysis.read.config, "reference"));  // the adapters are switched off
  auto simpo = AnalyzeText(Yaml("stage: dpo\nfinetuning_type: full\npref_loss: simpo\n"),
                           "simpo.yaml");
  CHECK_FALSE(Role(simpo->analysis.read.config, "reference"));
  auto sft = AnalyzeText(Yaml("stage: sft\nfinetuning_type: full\n"), "sft.yaml");
  CHECK_FALSE(Role(sft->analysis.read.config, "train")->Find("sequences_per_example"));
}

TEST_CASE("LLaMA-Factory's reward, PPO and KTO stages are named, not priced as SFT",
          "[frameworks]") {
  for (const char* stage : {"rm", "ppo", "kto"}) {
    INFO(stage);
    auto analyzed = AnalyzeText("# gpulint: gpu=H100-80GB\n" +
                                    Yaml(std::string("stage: ") + stage + "\nfinetuning_type: lora\n"),
                                "stage.yaml");
    const WorkloadEstimate& e = analyzed->analysis.estimates[0];
    CHECK_FALSE(e.breakdown);
    CHECK(e.skipped.find("stage: ") != std::string::npos);
  }
}

TEST_CASE("llamafactory-cli train without a YAML takes every key as a flag", "[frameworks]") {
  // LLaMA-Factory hands sys.argv to HfArgumentParser when no YAML comes first (issue #5380's
  // command line): --fp16 True, --packing True and --stage pt are its keys.
  auto analyzed = AnalyzeText(
      "llamafactory-cli train --stage pt --model_name_or_path Qwen/Qwen1.5-14B-Chat \\\n"
      "  --finetuning_type lora --cutoff_len 512 --packing True --fp16 True\n",
      "train.sh");
  const Workload* train = Role(analyzed->analysis.read.config, "train");
  REQUIRE(train);
  CHECK(Dump(*train, {"stage", "dtype", "packing", "max_seq_len"}) ==
        "stage=pt@1:32(l) dtype=amp-fp16@2:65(l) packing=true@2:53(l) max_seq_len=512@2:39(l)");
}

TEST_CASE("LLaMA-Factory's enable_liger_kernel: Liger's norms and GLU, a fused loss but in DPO",
          "[frameworks]") {
  // liger_kernel.py applies Liger's defaults; loader.py asks for the logits outside pt and sft.
  auto sft = AnalyzeText(Yaml("stage: sft\nfinetuning_type: lora\nenable_liger_kernel: true\n"),
                         "sft.yaml");
  CHECK(Dump(*Role(sft->analysis.read.config, "train"),
             {"liger", "fused_ce", "liger_rms_norm", "liger_glu"}) ==
        "liger=true@5:22(c) fused_ce=true(d) liger_rms_norm=true(d) liger_glu=true(d)");
  auto dpo = AnalyzeText(Yaml("stage: dpo\nfinetuning_type: lora\nenable_liger_kernel: true\n"),
                         "dpo.yaml");
  const Workload& train = *Role(dpo->analysis.read.config, "train");
  CHECK_FALSE(train.Find("fused_ce"));
  CHECK(Dump(train, {"liger_rms_norm", "liger_glu"}) == "liger_rms_norm=true(d) liger_glu=true(d)");
  auto off = AnalyzeText(Yaml("stage: sft\nfinetuning_type: lora\n"), "off.yaml");
  CHECK_FALSE(Role(off->analysis.read.config, "train")->Find("liger_rms_norm"));
}

TEST_CASE("LLaMA-Factory's fsdp key shards the model as the HF Trainer's does", "[frameworks]") {
  // examples/extras/fp8/llama3_fp8_fsdp_sft.yaml writes `fsdp: [full_shard, auto_wrap]`; the
  // YAML is parsed into Seq2SeqTrainingArguments (hparams/parser.py:60-66).
  auto listed = AnalyzeText(
      Yaml("stage: sft\nfinetuning_type: full\nfsdp:\n  - full_shard\n  - auto_wrap\n"),
      "fsdp.yaml");
  const Workload* train = Role(listed->analysis.read.config, "train");
  REQUIRE(train);
  CHECK(Dump(*train, {"fsdp"}).rfind("fsdp=full_shard@", 0) == 0);
  auto flag_form = AnalyzeText(
      Yaml("stage: sft\nfinetuning_type: full\nfsdp: shard_grad_op auto_wrap\n"), "fsdp2.yaml");
  REQUIRE(Role(flag_form->analysis.read.config, "train"));
  CHECK(Dump(*Role(flag_form->analysis.read.config, "train"), {"fsdp"})
            .rfind("fsdp=shard_grad_op@", 0) == 0);
}
