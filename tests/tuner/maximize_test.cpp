// --maximize: answers checked against a brute-force scan of the estimator and divisibility
// worked out by hand, and the boundary property over many generated configurations.
#include "tuner/maximize.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "tests/support/analysis_helpers.h"
#include "tuner/apply.h"
#include "tuner/what_if.h"

using namespace gpulint;
using namespace gpulint::testing;

namespace {

// Whether micro-batch `m` fits, asked of the estimator directly (not through the tuner).
bool FitsDirectly(const FileAnalysis& analysis, size_t index, const std::string& setting, long v,
                  double headroom = kDefaultHeadroom) {
  Workload copy = analysis.read.config.workloads[index];
  copy.settings[setting].name = setting;
  copy.settings[setting].value = Value::Number(static_cast<double>(v));
  WorkloadEstimate e = EstimateWorkload(copy, analysis.read.config, analysis.context);
  REQUIRE(e.breakdown);
  // What "fits" means: the high end of the range, within the headroom.
  return e.breakdown->total_high <= e.usable_bytes * (1 - headroom);
}

// The largest micro-batch up to `upto` that fits, by a linear scan of the estimator.
long ScannedMicroBatch(const FileAnalysis& analysis, long upto) {
  long scanned = 0;
  for (long m = 1; m <= upto && FitsDirectly(analysis, 0, "micro_batch", m); ++m) scanned = m;
  return scanned;
}

long After(const Proposal& p, const std::string& setting) {
  for (const Change& c : p.changes)
    if (c.setting == setting) return std::stol(c.after);
  return -1;
}

}  // namespace

TEST_CASE("maximize batch: the largest micro-batch, as a linear scan finds it", "[tuner]") {
  auto a = AnalyzeText("# gpulint: gpu=H100-80GB\n"
                       "torchrun --nproc_per_node 8 train.py --model_name_or_path Qwen/Qwen3-0.6B "
                       "--bf16 --max_seq_length 2048 --per_device_train_batch_size 1\n");
  Proposal p = MaximizeBatch(a->analysis, 0, TunerOptions{});
  const long scanned = ScannedMicroBatch(a->analysis, 256);
  REQUIRE(scanned > 1);
  CHECK(After(p, "micro_batch") == scanned);
  CHECK(p.changes.size() == 1);  // no accumulation written: only the micro-batch changes
}

TEST_CASE("maximize batch keeps micro x accumulation when the script writes accumulation",
          "[tuner]") {
  // 1 x 16 = 16 sequences per GPU per step: the micro-batch must divide 16.
  auto a = AnalyzeText("# gpulint: gpu=H100-80GB\n"
                       "torchrun --nproc_per_node 8 train.py --model_name_or_path Qwen/Qwen3-0.6B "
                       "--bf16 --max_seq_length 2048 --per_device_train_batch_size 1 "
                       "--gradient_accumulation_steps 16\n");
  Proposal p = MaximizeBatch(a->analysis, 0, TunerOptions{});
  long m = After(p, "micro_batch"), g = After(p, "grad_accum");
  REQUIRE(m > 1);
  CHECK(m * g == 16);
  long expected = 1;
  for (long d : {1L, 2L, 4L, 8L, 16L})
    if (FitsDirectly(a->analysis, 0, "micro_batch", d)) expected = d;
  CHECK(m == expected);
}

TEST_CASE("maximize batch respects verl's mini-batch split", "[tuner]") {
  // 256 prompts x 5 samples / 8 GPUs = 160 sequences per GPU per mini-batch.
  auto a = AnalyzeText(
      "# gpulint: gpu=H100-80GB\n"
      "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct "
      "actor_rollout_ref.model.enable_gradient_checkpointing=True "
      "data.max_prompt_length=512 data.max_response_length=512 "
      "actor_rollout_ref.actor.ppo_mini_batch_size=256 "
      "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 "
      "actor_rollout_ref.rollout.n=5 trainer.n_gpus_per_node=8\n");
  size_t train = WorkloadWithRole(a->analysis, "train");
  Proposal p = MaximizeBatch(a->analysis, train, TunerOptions{});
  long m = After(p, "micro_batch");
  REQUIRE(m > 2);
  CHECK(160 % m == 0);
  // The next divisor of 160 above it does not fit.
  for (long d : {1L, 2L, 4L, 5L, 8L, 10L, 16L, 20L, 32L, 40L, 80L, 160L})
    if (d > m) {
      CHECK_FALSE(FitsDirectly(a->analysis, train, "micro_batch", d));
      break;
    }
}

TEST_CASE("maximize batch keeps Megatron's global batch divisible by micro x data-parallel",
          "[tuner]") {
  // TP 2 on 8 GPUs: 4 data-parallel ranks; 64 = micro x 4 x steps, so micro divides 16.
  auto a = AnalyzeText("# gpulint: gpu=H100-80GB\n"
                       "torchrun --nproc_per_node 8 pretrain_gpt.py "
                       "--tokenizer-model meta-llama/Llama-3.2-1B --tensor-model-parallel-size 2 "
                       "--use-distributed-optimizer --bf16 --seq-length 1024 "
                       "--micro-batch-size 1 --global-batch-size 64\n");
  Proposal p = MaximizeBatch(a->analysis, 0, TunerOptions{});
  long m = After(p, "micro_batch");
  REQUIRE(m > 1);
  CHECK(16 % m == 0);
  TunerOptions pow2;
  pow2.pow2 = true;
  long m2 = After(MaximizeBatch(a->analysis, 0, pow2), "micro_batch");
  CHECK((m2 & (m2 - 1)) == 0);
}

TEST_CASE("maximize batch is free under a global batch the framework rounds toward", "[tuner]") {
  // ms-swift aims its default accumulation at 16 sequences and rounds up (swift/trainers/
  // arguments.py:283-285 at 3602360a): any micro-batch is accepted, not only 16's divisors.
  auto a = AnalyzeText("# gpulint: gpu=H100-80GB\n"
                       "CUDA_VISIBLE_DEVICES=0 swift sft --model Qwen/Qwen2.5-0.5B-Instruct "
                       "--tuner_type lora --max_length 1024\n");
  Proposal p = MaximizeBatch(a->analysis, 0, TunerOptions{});
  const long scanned = ScannedMicroBatch(a->analysis, 512);
  REQUIRE(scanned > 16);  // past 16, so a divisor of 16 could not be the answer
  CHECK(After(p, "micro_batch") == scanned);
}

TEST_CASE("boundary property: the proposed micro-batch fits and the next one does not",
          "[tuner]") {
  int checked = 0;
  for (const char* model : {"Qwen/Qwen3-0.6B", "Qwen/Qwen3-1.7B", "meta-llama/Llama-3.2-1B",
                            "Qwen/Qwen2.5-0.5B-Instruct"})
    for (const char* gpu : {"H100-80GB", "A100-40GB", "L4-24GB"})
      for (int length : {512, 2048, 8192})
        for (const char* ckpt : {"", " --gradient_checkpointing"}) {
          std::string script = fmt::format(
              "# gpulint: gpu={}\naccelerate launch --num_processes 1 train.py "
              "--model_name_or_path {} --bf16 --max_seq_length {} "
              "--per_device_train_batch_size 1{}\n",
              gpu, model, length, ckpt);
          auto a = AnalyzeText(script);
          Proposal p = MaximizeBatch(a->analysis, 0, TunerOptions{});
          INFO(script << p.summary << p.note);
          long m = p.changes.empty() ? 1 : After(p, "micro_batch");
          if (!FitsDirectly(a->analysis, 0, "micro_batch", 1)) {
            CHECK(p.changes.empty());  // nothing fits: nothing proposed
            continue;
          }
          CHECK(FitsDirectly(a->analysis, 0, "micro_batch", m));
          CHECK_FALSE(FitsDirectly(a->analysis, 0, "micro_batch", m + 1));
          ++checked;
        }
  CHECK(checked >= 40);
}

TEST_CASE("maximize context: the longest max_model_len whose KV cache holds one sequence",
          "[tuner]") {
  auto a = AnalyzeText("# gpulint: gpu=A100-40GB\n"
                       "vllm serve Qwen/Qwen3-32B --tensor-parallel-size 2 --max-model-len 32768\n");
  Proposal p = MaximizeContext(a->analysis, 0, TunerOptions{});
  long length = After(p, "max_model_len");
  REQUIRE(length > 0);
  CHECK(length % 1024 == 0);
  WhatIf what_if(a->analysis, 0, 0.10);
  auto at = what_if.Estimate({{"max_model_len", std::to_string(length)}});
  auto next = what_if.Estimate({{"max_model_len", std::to_string(length + 1024)}});
  REQUIRE(at);
  REQUIRE(next);
  CHECK(at->kv_cache_tokens >= length);
  CHECK(next->kv_cache_tokens < length + 1024);
}

TEST_CASE("maximize context stops at the model's positions", "[tuner]") {
  // Llama-2 has 4096 positions; an H100 could hold far more.
  auto a = AnalyzeText("# gpulint: gpu=H100-80GB\n"
                       "vllm serve meta-llama/Llama-2-7b-hf --max-model-len 2048\n");
  Proposal p = MaximizeContext(a->analysis, 0, TunerOptions{});
  CHECK(After(p, "max_model_len") == 4096);
}

TEST_CASE("a second run proposes nothing", "[tuner]") {
  auto a = AnalyzeText("# gpulint: gpu=H100-80GB\n"
                       "torchrun --nproc_per_node 8 train.py --model_name_or_path Qwen/Qwen3-0.6B "
                       "--bf16 --max_seq_length 2048 --per_device_train_batch_size 1\n");
  long m = After(MaximizeBatch(a->analysis, 0, TunerOptions{}), "micro_batch");
  auto b = AnalyzeText(fmt::format("# gpulint: gpu=H100-80GB\n"
                                   "torchrun --nproc_per_node 8 train.py --model_name_or_path "
                                   "Qwen/Qwen3-0.6B --bf16 --max_seq_length 2048 "
                                   "--per_device_train_batch_size {}\n",
                                   m));
  Proposal again = MaximizeBatch(b->analysis, 0, TunerOptions{});
  CHECK(again.changes.empty());
  CHECK(again.note.find("already the largest") != std::string::npos);
}

TEST_CASE("a colocated RL job: the reference holds its weights, a waking engine all it claims",
          "[tuner]") {
  const std::string job =
      "# gpulint: gpu=H100-80GB\n"
      "python3 -m openrlhf.cli.train_ppo_ray --actor.model_name_or_path Qwen/Qwen2.5-7B-Instruct "
      "--actor.num_gpus_per_node 4 --vllm.num_engines 4 --train.colocate_all --ds.zero_stage 3 "
      "--data.max_len 2048 --train.micro_batch_size 1 --rollout.micro_batch_size 4 "
      "--vllm.gpu_memory_utilization 0.4 --actor.gradient_checkpointing_enable";
  auto sleeping = AnalyzeText(job + " --vllm.enable_sleep\n");
  const auto& estimates = sleeping->analysis.estimates;
  REQUIRE(estimates.size() == 3);  // train, rollout, reference
  REQUIRE(estimates[2].breakdown);
  const double budget = estimates[0].usable_bytes * (1 - kDefaultHeadroom);
  // The reference's forward runs between the actor's steps: only its weights are beside the
  // actor's peak, not its 20-odd GiB of logits.
  CHECK(WhatIf(sleeping->analysis, 0, kDefaultHeadroom).limit_bytes() ==
        Approx(budget - estimates[2].persistent_bytes));
  CHECK(estimates[2].breakdown->total_high - estimates[2].persistent_bytes > 10e9);
  // Awake through the update, the engine's whole claim is beside it too.
  auto awake = AnalyzeText(job + "\n");
  CHECK(WhatIf(awake->analysis, 0, kDefaultHeadroom).limit_bytes() ==
        Approx(budget - awake->analysis.estimates[2].persistent_bytes -
               awake->analysis.estimates[1].breakdown->total_high));
  // DeepSpeed asserts OpenRLHF's global batch 128 (its default) = micro x 4 ranks x steps.
  long m = After(MaximizeBatch(sleeping->analysis, 0, TunerOptions{}), "micro_batch");
  REQUIRE(m > 1);
  CHECK(32 % m == 0);
  // The engines' length is --data.max_len: it moves with the actor's context, not alone.
  Proposal context = MaximizeContext(sleeping->analysis, 1, TunerOptions{});
  CHECK(context.changes.empty());
  CHECK(context.note.find("job's sequence length") != std::string::npos);
}

TEST_CASE("TRL GRPO's batch grows by whole groups of completions, beside its awake engine",
          "[tuner]") {
  // grpo_config.py asserts micro x processes x steps is a multiple of num_generations (8).
  const std::string job =
      "# gpulint: gpu=H100-80GB\n# gpulint: max_prompt_len=512\n"
      "accelerate launch --num_processes 3 -m trl.scripts.grpo "
      "--model_name_or_path Qwen/Qwen2.5-1.5B-Instruct --use_vllm "
      "--per_device_train_batch_size 8 --max_completion_length 512\n";
  auto a = AnalyzeText(job);
  REQUIRE(a->analysis.estimates.size() == 2);  // train, and the engine in its processes
  Proposal p = MaximizeBatch(a->analysis, 0, TunerOptions{});
  long m = After(p, "micro_batch");
  REQUIRE(m > 8);
  CHECK(m * 3 % 8 == 0);
  CHECK(p.summary.find("completions per prompt") != std::string::npos);
  // The engine's 0.3 of the GPU stays beside the update: the limit leaves it out.
  const double budget = a->analysis.estimates[0].usable_bytes * (1 - kDefaultHeadroom);
  CHECK(WhatIf(a->analysis, 0, kDefaultHeadroom).limit_bytes() ==
        Approx(budget - a->analysis.estimates[1].breakdown->total_high));
}

TEST_CASE("verl: a longer response moves the token budget and the rollout's length with it",
          "[tuner][bounds]") {
  // seqlen_balancing.py asserts budget >= prompt + response under dynamic batching; the rollout
  // cuts responses at max_model_len less the prompt. Both move with the response, or nothing.
  auto a = AnalyzeText(
      "# gpulint: gpu=H100-80GB\n"
      "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct "
      "actor_rollout_ref.rollout.name=vllm data.train_batch_size=64 "
      "data.max_prompt_length=1024 data.max_response_length=1024 "
      "actor_rollout_ref.actor.use_dynamic_bsz=True "
      "actor_rollout_ref.actor.ppo_max_token_len_per_gpu=4096 "
      "actor_rollout_ref.rollout.max_model_len=2048 trainer.n_gpus_per_node=8\n");
  const size_t train = WorkloadWithRole(a->analysis, "train");
  const size_t rollout = WorkloadWithRole(a->analysis, "rollout");
  TunerOptions options;
  options.maps = &a->workspace->maps();
  Proposal p = MaximizeContext(a->analysis, train, options);
  const long response = After(p, "max_response_len");
  REQUIRE(response > 3072);  // past both bounds
  CHECK(After(p, "max_tokens_per_gpu") == 1024 + response);
  CHECK(After(p, "max_model_len") == 1024 + response);
  for (const Change& c : p.changes)
    if (c.setting == "max_model_len") CHECK(c.workload == rollout);
  // All of it is written: the budget on the actor's key, the length on the rollout's.
  ProposalEdits edits = EditsFor(a->analysis, a->workspace->maps(), p);
  CHECK(edits.complete());
  CHECK(edits.edits.size() == 3);
  // The rollout's length follows the job's: it is not searched on its own.
  Proposal own = MaximizeContext(a->analysis, rollout, options);
  CHECK(own.changes.empty());
  // Without the maps (no bounds known) the length would move alone: the bounds are the maps'.
  Proposal alone = MaximizeContext(a->analysis, train, TunerOptions{});
  CHECK(After(alone, "max_tokens_per_gpu") == -1);
}

TEST_CASE("verl: a dynamic batch's budget never drops below the longest sequence",
          "[tuner][bounds]") {
  // On one GPU a 3B model's fp32 weights, gradients and AdamW states (49 GB) beside what the
  // colocated engine keeps leave no room at any budget, and the least budget the search names
  // is prompt + response (8192), the least verl accepts, not the 1024 of its first candidate.
  auto a = AnalyzeText(
      "# gpulint: gpu=H100-80GB\n"
      "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-3B-Instruct "
      "actor_rollout_ref.rollout.name=vllm data.train_batch_size=64 "
      "data.max_prompt_length=2048 data.max_response_length=6144 "
      "actor_rollout_ref.actor.use_dynamic_bsz=True "
      "actor_rollout_ref.actor.ppo_max_token_len_per_gpu=65536 trainer.n_gpus_per_node=1\n");
  const size_t train = WorkloadWithRole(a->analysis, "train");
  TunerOptions options;
  options.maps = &a->workspace->maps();
  Proposal p = MaximizeBatch(a->analysis, train, options);
  CHECK(p.changes.empty());
  CHECK(p.note == "no max_tokens_per_gpu fits, not even 8192: try gpulint fix --fit");
}

TEST_CASE("verl before 0.7: a longer context raises the rollout's prefill budget too",
          "[tuner][bounds]") {
  // vllm_rollout_spmd.py (v0.5.0:138-141) refuses max_num_batched_tokens below max_model_len,
  // which is prompt + response when unset, under chunked prefill (on by default).
  auto a = AnalyzeText(
      "# gpulint: gpu=H100-80GB verl=0.5.0\n"
      "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct "
      "data.train_batch_size=64 data.max_prompt_length=1024 data.max_response_length=1024 "
      "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 trainer.n_gpus_per_node=8\n");
  const size_t train = WorkloadWithRole(a->analysis, "train");
  const size_t rollout = WorkloadWithRole(a->analysis, "rollout");
  REQUIRE(a->analysis.read.config.workloads[train].framework == "verl-0.5");
  TunerOptions options;
  options.maps = &a->workspace->maps();
  Proposal p = MaximizeContext(a->analysis, train, options);
  const long response = After(p, "max_response_len");
  REQUIRE(response > 8192 - 1024);  // past the 8192-token default
  CHECK(After(p, "max_num_batched_tokens") == 1024 + response);
  for (const Change& c : p.changes)
    if (c.setting == "max_num_batched_tokens") CHECK(c.workload == rollout);
  ProposalEdits edits = EditsFor(a->analysis, a->workspace->maps(), p);
  CHECK(edits.complete());  // the budget is inserted under verl's own key
  CHECK(edits.edits.size() == 2);
}

TEST_CASE("verl: a rollout whose length a bound ties to the job's is never searched alone",
          "[tuner][bounds]") {
  // The response length is past any number a framework takes (GL006, unknown): the rollout's
  // written max_model_len still follows the job's lengths, so it is left for the trainer's
  // context search, not raised on its own past what the job writes.
  auto a = AnalyzeText(
      "# gpulint: gpu=H100-80GB\n"
      "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct "
      "data.train_batch_size=64 data.max_prompt_length=1024 "
      "data.max_response_length=99999999999999999999999999 "
      "actor_rollout_ref.rollout.max_model_len=2048\n");
  const size_t rollout = WorkloadWithRole(a->analysis, "rollout");
  TunerOptions options;
  options.maps = &a->workspace->maps();
  Proposal p = MaximizeContext(a->analysis, rollout, options);
  CHECK(p.changes.empty());
  CHECK(p.note.find("job's sequence length") != std::string::npos);
}

TEST_CASE("a longer response leaves the prompt its room, assumed where nothing truncates it",
          "[tuner]") {
  // slime's run-qwen2.5-0.5B-reproducibility.sh shape: no --rollout-max-prompt-len. The
  // estimate prices prompts at 2048 tokens; a response of the whole 32768-token context would
  // leave SGLang no room for any prompt (it rejects or truncates the request).
  auto a = AnalyzeText(
      "# gpulint: gpu=H100-80GB\n"
      "python3 train.py --hf-checkpoint Qwen/Qwen2.5-0.5B-Instruct --actor-num-nodes 1 "
      "--actor-num-gpus-per-node 8 --rollout-num-gpus 8 --colocate "
      "--rollout-max-response-len 1024 --use-dynamic-batch-size --max-tokens-per-gpu 4096 "
      "--recompute-granularity full --recompute-method uniform --recompute-num-layers 1\n");
  const size_t train = WorkloadWithRole(a->analysis, "train");
  TunerOptions options;
  options.maps = &a->workspace->maps();
  Proposal p = MaximizeContext(a->analysis, train, options);
  const long response = After(p, "max_response_len");
  REQUIRE(response > 1024);
  CHECK(response + 2048 <= 32768);
}

TEST_CASE("an optimizer stepping in backward is never given accumulation steps", "[tuner]") {
  // torchtune's llama3_1/8B_full_single_device sets optimizer_in_bwd: True; its recipe raises
  // on gradient_accumulation_steps > 1 (full_finetune_single_device.py:157-158). On a 24 GB GPU
  // 16 sequences of 2048 tokens do not fit, and the global batch cannot be kept by
  // accumulating: no proposal, where one used to write batch_size=2 gradient_accumulation_steps=8.
  auto a = AnalyzeText(
      "# gpulint: gpu=RTX-4090\n"
      "tune run full_finetune_single_device --config llama3_1/8B_full_single_device "
      "batch_size=16 gradient_accumulation_steps=1 tokenizer.max_seq_len=2048\n");
  REQUIRE(a->analysis.read.config.workloads.size() == 1);
  CHECK(a->analysis.read.config.workloads[0].Bool("optimizer_in_bwd").value_or(false));
  Proposal p = MaximizeBatch(a->analysis, 0, TunerOptions{});
  for (const Change& c : p.changes)
    if (c.setting == "grad_accum") CHECK(c.after == "1");
  TunerOptions keep;
  keep.keep_global_batch = true;
  Proposal kept = MaximizeBatch(a->analysis, 0, keep);
  for (const Change& c : kept.changes)
    if (c.setting == "grad_accum") CHECK(c.after == "1");
}

namespace {

// A colocated slime job on 8 GPUs that writes no --global-batch-size: slime derives it from the
// rollout (prompts x samples over the steps per rollout).
std::string SlimeWithoutGlobalBatch(const std::string& prompts, const std::string& samples,
                                    const std::string& steps) {
  return "# gpulint: gpu=H100-80GB\n"
         "python3 train.py --hf-checkpoint Qwen/Qwen2.5-0.5B-Instruct --actor-num-nodes 1 "
         "--actor-num-gpus-per-node 8 --rollout-num-gpus 8 --colocate --rollout-batch-size " +
         prompts + " --n-samples-per-prompt " + samples + " --num-steps-per-rollout " + steps +
         " --rollout-max-prompt-len 512 --rollout-max-response-len 512 --micro-batch-size 1\n";
}

}  // namespace

TEST_CASE("slime's global batch derived from its steps per rollout bounds the micro-batch",
          "[tuner]") {
  // No --global-batch-size: slime takes 128 prompts x 8 samples over 4 steps = 256
  // (slime/utils/arguments.py:1971-1972), and Megatron asserts 256 % (micro x 8 data-parallel
  // ranks) == 0 (num_microbatches_calculator.py:381): the micro-batch divides 32.
  auto a = AnalyzeText(SlimeWithoutGlobalBatch("128", "8", "4"));
  const size_t train = WorkloadWithRole(a->analysis, "train");
  Proposal p = MaximizeBatch(a->analysis, train, TunerOptions{});
  const long micro = After(p, "micro_batch");
  REQUIRE(micro > 1);
  CHECK(256 % (micro * 8) == 0);
}

TEST_CASE("axolotl's ring attention over packed samples keeps one sequence per micro-batch",
          "[tuner]") {
  // validation.py:1659-1663 refuses micro_batch_size > 1 with sample_packing under context
  // parallelism; sequence_parallel_degree is its older name (1635-1639).
  const std::string yaml =
      "cat > lora.yml <<'EOF'\n"
      "base_model: Qwen/Qwen2.5-0.5B\nsequence_len: 4096\nsample_packing: true\n"
      "micro_batch_size: 1\ngradient_accumulation_steps: 4\nadapter: lora\n";
  const std::string run = "EOF\n# gpulint: gpu=H100-80GB\naccelerate launch --num_processes 8 "
                          "-m axolotl.cli.train lora.yml\n";
  for (const char* key : {"context_parallel_size: 2\n", "sequence_parallel_degree: 2\n"}) {
    INFO(key);
    auto a = AnalyzeText(yaml + key + run);
    const size_t train = WorkloadWithRole(a->analysis, "train");
    CHECK(a->analysis.read.config.workloads[train].Number("micro_batch_max") == 1);
    Proposal p = MaximizeBatch(a->analysis, train, TunerOptions{});
    CHECK(After(p, "micro_batch") == -1);  // no change
  }
  // Without context parallelism the same YAML's micro-batch grows.
  auto plain = AnalyzeText(yaml + run);
  CHECK(After(MaximizeBatch(plain->analysis, WorkloadWithRole(plain->analysis, "train"),
                            TunerOptions{}),
              "micro_batch") > 1);
}

TEST_CASE("a derived global batch past what a long holds is not searched", "[tuner][hostile]") {
  // 2e9 prompts x 2e9 samples in one step: 4e18 sequences. Once its divisors were tried one by
  // one (a hang); now the batch counts as unknown and the micro-batch search is the free one.
  auto a = AnalyzeText(SlimeWithoutGlobalBatch("2000000000", "2000000000", "1"));
  const size_t train = WorkloadWithRole(a->analysis, "train");
  Proposal p = MaximizeBatch(a->analysis, train, TunerOptions{});
  CHECK(After(p, "micro_batch") > 1);
  CHECK(p.summary.find("keeps the global batch") == std::string::npos);
}
