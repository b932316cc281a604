// Rewriting a setting where it is written, or inserting the framework's flag in the style of the
// command. Expected texts are written by hand.
#include "tuner/setting_edit.h"

#include <catch2/catch.hpp>

#include "tests/support/analysis_helpers.h"
#include "tuner/edits.h"

using namespace gpulint;
using namespace gpulint::testing;

namespace {

// The script after setting `name` to `value` in its first workload ("" and the reason in
// `reason` when it cannot be written).
std::string SetIn(const std::string& script, const std::string& name, const std::string& value,
                  std::string* reason = nullptr) {
  auto a = AnalyzeText(script);
  std::string why;
  auto edit = EditSetting(a->analysis, a->workspace->maps(), 0, name, value, &why);
  if (reason) *reason = why;
  if (!edit) return "";
  std::string out, error;
  REQUIRE(ApplyEdits(script, {*edit}, &out, &error));
  return out;
}

}  // namespace

TEST_CASE("booleans keep the spelling of the file", "[tuner][edit]") {
  CHECK(SpellLike("False", "true") == "True");
  CHECK(SpellLike("false", "true") == "true");
  CHECK(SpellLike("FALSE", "true") == "TRUE");
  CHECK(SpellLike("0", "true") == "1");
  CHECK(SpellLike("no", "true") == "yes");
  CHECK(SpellLike("16", "8") == "8");
}

TEST_CASE("a literal value is rewritten in place, quotes and comments kept", "[tuner][edit]") {
  CHECK(SetIn("vllm serve Qwen/Qwen3-8B --max-model-len \"32768\"  # keep\n", "max_model_len",
              "16384") == "vllm serve Qwen/Qwen3-8B --max-model-len \"16384\"  # keep\n");
  CHECK(SetIn("python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen3-8B \\\n"
              "  actor_rollout_ref.model.enable_gradient_checkpointing=False\n",
              "grad_ckpt", "true") ==
        "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen3-8B \\\n"
        "  actor_rollout_ref.model.enable_gradient_checkpointing=True\n");
}

TEST_CASE("a value from a variable is rewritten where the variable gets it", "[tuner][edit]") {
  CHECK(SetIn("MICRO=${MICRO:-4}\ntorchrun --nproc_per_node 8 train.py "
              "--model_name_or_path Qwen/Qwen3-0.6B --per_device_train_batch_size $MICRO\n",
              "micro_batch", "16") ==
        "MICRO=${MICRO:-16}\ntorchrun --nproc_per_node 8 train.py "
        "--model_name_or_path Qwen/Qwen3-0.6B --per_device_train_batch_size $MICRO\n");
  CHECK(SetIn("LEN=8192\nvllm serve Qwen/Qwen3-8B --max-model-len \"$LEN\"\n", "max_model_len",
              "4096") == "LEN=4096\nvllm serve Qwen/Qwen3-8B --max-model-len \"$LEN\"\n");
}

TEST_CASE("a value from an unknown environment variable is not edited, with the reason",
          "[tuner][edit]") {
  std::string reason;
  CHECK(SetIn("vllm serve Qwen/Qwen3-8B --max-model-len $CONTEXT\n", "max_model_len", "4096",
              &reason)
            .empty());
  CHECK(reason.find("CONTEXT") != std::string::npos);
}

TEST_CASE("an absent setting is inserted beside a related one, in the command's style",
          "[tuner][edit]") {
  // Underscore flags: the HF Trainer spelling with underscores; one flag per line, so a line of
  // its own after the related flag's, indented like the others.
  CHECK(SetIn("torchrun --nproc_per_node 8 train.py --model_name_or_path Qwen/Qwen3-0.6B \\\n"
              "  --per_device_train_batch_size 4 \\\n  --bf16\n",
              "grad_accum", "2") ==
        "torchrun --nproc_per_node 8 train.py --model_name_or_path Qwen/Qwen3-0.6B \\\n"
        "  --per_device_train_batch_size 4 \\\n  --gradient_accumulation_steps 2 \\\n"
        "  --bf16\n");
  // The related flag shares its line with another: beside it on that line.
  CHECK(SetIn("torchrun --nproc_per_node 8 train.py --model_name_or_path Qwen/Qwen3-0.6B \\\n"
              "  --per_device_train_batch_size 4 --bf16 \\\n  --output_dir out\n",
              "grad_accum", "2") ==
        "torchrun --nproc_per_node 8 train.py --model_name_or_path Qwen/Qwen3-0.6B \\\n"
        "  --per_device_train_batch_size 4 --gradient_accumulation_steps 2 --bf16 \\\n"
        "  --output_dir out\n");
  // Dashed flags: vLLM.
  CHECK(SetIn("vllm serve Qwen/Qwen3-8B --max-model-len 8192\n", "kv_cache_dtype", "fp8") ==
        "vllm serve Qwen/Qwen3-8B --max-model-len 8192 --kv-cache-dtype fp8\n");
  // Hydra overrides: key=value, booleans as the command writes them.
  CHECK(SetIn("python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen3-8B "
              "actor_rollout_ref.actor.use_kl_loss=True $@\n",
              "grad_ckpt", "true") ==
        "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen3-8B "
        "actor_rollout_ref.actor.use_kl_loss=True "
        "actor_rollout_ref.model.enable_gradient_checkpointing=True $@\n");
  // A number that reads like a boolean stays a number: a micro-batch of 1, not `true`.
  CHECK(SetIn("torchrun --nproc_per_node 8 -m verl.trainer.fsdp_sft_trainer "
              "model.partial_pretrain=Qwen/Qwen3-4B data.max_length=4096 trainer.total_epochs=3\n",
              "micro_batch", "1") ==
        "torchrun --nproc_per_node 8 -m verl.trainer.fsdp_sft_trainer "
        "model.partial_pretrain=Qwen/Qwen3-4B data.max_length=4096 "
        "data.micro_batch_size_per_gpu=1 trainer.total_epochs=3\n");
  // A switch that turns the setting on is added bare; with no related setting written, after
  // the last argument.
  CHECK(SetIn("accelerate launch train.py --model_name_or_path Qwen/Qwen3-0.6B --bf16\n",
              "grad_ckpt", "true") ==
        "accelerate launch train.py --model_name_or_path Qwen/Qwen3-0.6B --bf16 "
        "--gradient_checkpointing\n");
}
