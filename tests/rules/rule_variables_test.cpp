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

TEST_CASE("a checkpoint dtype the config does not name is not judged", "[rules]") {
  TempDir dir;
  // huggyllama/llama-7b: the catalog's copy of its config lacks torch_dtype, so the estimate
  // prices two bytes a weight but GL110 has no dtype to compare fp16 with.
  auto lint = [&](const char* model) {
    std::string path = dir.Write(
        "fp16.sh", std::string("# gpulint: gpu=H100-80GB\ntrl sft --model_name_or_path ") + model +
                       " --use_peft --per_device_train_batch_size 1 --max_length 1024 --fp16\n");
    gpulint::testing::LintOutcome outcome = LintPath(path);
    REQUIRE(outcome.ok);
    return Reports(outcome.findings, "GL110");
  };
  CHECK_FALSE(lint("huggyllama/llama-7b"));
  // Llama-3.1-8B's config says bfloat16: fp16 training of it is reported.
  CHECK(lint("meta-llama/Llama-3.1-8B"));
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

TEST_CASE("GL204 checks Megatron's expert layout, ETP x EP x PP, beside TP x PP x CP",
          "[rules]") {
  TempDir dir;
  // slime's scripts/run-glm4.7-30B-A3B.sh as committed: 8 GPUs, TP2 x PP2 x CP2 = 8, but
  // ETP1 x EP8 x PP2 = 16 (Megatron: "world_size (8) is not divisible by
  // expert_tensor_model_pipeline_parallel size (16)").
  auto script = [&](const std::string& name, const std::string& ep) {
    return dir.Write(name,
                     "torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 "
                     "--pipeline-model-parallel-size 2 --context-parallel-size 2 "
                     "--expert-model-parallel-size " + ep +
                         " --expert-tensor-parallel-size 1\n");
  };
  auto outcome = LintPath(script("ep8.sh", "8"));
  REQUIRE(outcome.ok);
  CHECK(Reports(outcome.findings, "GL204"));
  outcome = LintPath(script("ep4.sh", "4"));  // 1 x 4 x 2 = 8
  REQUIRE(outcome.ok);
  CHECK_FALSE(Reports(outcome.findings, "GL204"));
}

TEST_CASE("GL113 names what expandable segments make of the high end, unless they are on",
          "[rules]") {
  TempDir dir;
  const std::string job =
      "accelerate launch --num_processes 1 train.py --model_name_or_path meta-llama/Llama-3.2-1B "
      "--bf16 --gradient_checkpointing --max_seq_length 4608 --per_device_train_batch_size 3\n";
  auto message = [](const std::vector<gpulint::Finding>& findings) {
    for (const gpulint::Finding& f : findings)
      if (f.rule == "GL113") return f.message;
    return std::string("(no GL113)");
  };
  // 36.2 GiB of live tensors, 0.75 of context: 36.9-48.9 GiB with the default allocator; with
  // expandable segments the high end is the typical slack, 36.2 x 1.07 + 0.75 = 39.4 GiB.
  auto plain = LintPath(dir.Write("plain.sh", "# gpulint: gpu=A100-40GB\n" + job));
  REQUIRE(plain.ok);
  CHECK(message(plain.findings).find(
            "with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True the high end is 39.4 GiB, "
            "which fits") != std::string::npos);
  // Already on, and still straddling (a longer sequence, 38.1-40.7 GiB): nothing to suggest.
  std::string longer = job;
  longer.replace(longer.find("4608"), 4, "4864");
  auto on = LintPath(dir.Write("on.sh", "# gpulint: gpu=A100-40GB\n"
                                        "export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\n" +
                                            longer));
  REQUIRE(on.ok);
  CHECK(message(on.findings).find("the peak is 38.1-40.7 GiB") != std::string::npos);
  CHECK(message(on.findings).find("expandable_segments") == std::string::npos);
  // A 70B LoRA whose frozen base is nearly all its memory: its typical slack is its high end
  // already (138.8-141.2 GiB either way), so the segments are not offered.
  auto base = LintPath(dir.Write(
      "base.sh",
      "# gpulint: gpu=H200-141GB\n"
      "trl sft --model_name_or_path meta-llama/Llama-3.1-70B --use_peft --torch_dtype bfloat16 "
      "--gradient_checkpointing --per_device_train_batch_size 1 --max_length 2304\n"));
  REQUIRE(base.ok);
  CHECK(message(base.findings).find("the peak is 138.8-141.2 GiB") != std::string::npos);
  CHECK(message(base.findings).find("expandable_segments") == std::string::npos);
}
