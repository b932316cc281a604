// Estimates of whole workloads through the catalog: the examples of the estimator issue.
#include "lint/analysis/workload_estimate.h"

#include <catch2/catch.hpp>

#include <algorithm>

#include "estimator/units.h"
#include "lint/analysis/colocation.h"
#include "tests/support/reader_helpers.h"

using namespace gpulint;

namespace {

EstimateContext Context(const Catalog& catalog, const std::string& gpu) {
  EstimateContext context;
  context.catalog = &catalog;
  context.resolve.use_filesystem = false;
  context.gpu_override = gpu;
  return context;
}

// The first workload of `script`, estimated on `gpu`.
WorkloadEstimate EstimateFirst(const Catalog& catalog, const std::string& script,
                               const std::string& gpu = "H100-80GB") {
  SourceMap sources;
  auto read = testing::ReadText(script, &sources);
  REQUIRE(!read.config.workloads.empty());
  return EstimateWorkload(read.config.workloads[0], read.config, Context(catalog, gpu));
}

}  // namespace

TEST_CASE("a 30B MoE stores every expert: ~57 GiB of bf16 weights, not 6", "[analysis]") {
  Catalog catalog;
  SourceMap sources;
  auto read = testing::ReadText("vllm serve Qwen/Qwen3-30B-A3B --max-model-len 8192\n", &sources);
  REQUIRE(read.config.workloads.size() == 1);
  auto estimate = EstimateWorkload(read.config.workloads[0], read.config,
                                   Context(catalog, "H100-80GB"));
  REQUIRE(estimate.breakdown);
  // 30.53e9 parameters x 2 bytes = 61.1e9 bytes = 56.9 GiB.
  CHECK(est::BytesToGib(estimate.breakdown->weights) == Approx(56.9).epsilon(0.01));
}

TEST_CASE("a 4B model at micro-batch 16 x 32k tokens without checkpointing needs far more than "
          "10 GB", "[analysis]") {
  Catalog catalog;
  SourceMap sources;
  auto read = testing::ReadText(
      "torchrun --nproc_per_node 8 -m verl.trainer.fsdp_sft_trainer "
      "model.partial_pretrain=Qwen/Qwen3-4B data.micro_batch_size_per_gpu=16 "
      "data.max_length=32768 model.enable_gradient_checkpointing=false\n",
      &sources);
  REQUIRE(read.config.workloads.size() == 1);
  auto estimate = EstimateWorkload(read.config.workloads[0], read.config,
                                   Context(catalog, "H100-80GB"));
  REQUIRE(estimate.breakdown);
  // 524,288 tokens x 36 layers x >100 KB per token per layer of saved activations alone is
  // over a terabyte; the logits (524,288 x 151,936 x 12 bytes) are ~890 GiB.
  CHECK(est::BytesToGib(estimate.breakdown->total) > 1000);
  CHECK_FALSE(estimate.fits);
}

TEST_CASE("two engines each claiming 90% of one GPU do not fit together", "[analysis]") {
  Catalog catalog;
  SourceMap sources;
  auto read = testing::ReadText(
      "vllm serve Qwen/Qwen3-0.6B --port 8000 &\n"
      "vllm serve Qwen/Qwen3-0.6B --port 8001 &\n"
      "wait\n",
      &sources);
  REQUIRE(read.config.workloads.size() == 2);
  std::vector<WorkloadEstimate> estimates;
  for (const auto& w : read.config.workloads)
    estimates.push_back(EstimateWorkload(w, read.config, Context(catalog, "H100-80GB")));
  REQUIRE(estimates[0].fits);  // alone, each fits
  auto loads = ComputeDeviceLoads(read.config, estimates);
  REQUIRE(loads.size() == 1);  // both on GPU 0 (no CUDA_VISIBLE_DEVICES)
  CHECK(loads[0].shared);
  CHECK(loads[0].bytes > estimates[0].usable_bytes * 1.7);
}

TEST_CASE("an unknown model is skipped with a reason, never guessed", "[analysis]") {
  Catalog catalog;
  SourceMap sources;
  auto read = testing::ReadText("vllm serve acme/unknown-13b\n", &sources);
  auto estimate = EstimateWorkload(read.config.workloads[0], read.config,
                                   Context(catalog, "H100-80GB"));
  CHECK_FALSE(estimate.breakdown);
  CHECK(estimate.skipped == "unknown model 'acme/unknown-13b'");
}

TEST_CASE("no GPU declared: skipped with the ways to declare one", "[analysis]") {
  Catalog catalog;
  SourceMap sources;
  auto read = testing::ReadText("vllm serve Qwen/Qwen3-8B\n", &sources);
  auto estimate = EstimateWorkload(read.config.workloads[0], read.config, Context(catalog, ""));
  CHECK_FALSE(estimate.breakdown);
  CHECK(estimate.skipped.find("no GPU declared") == 0);
}

TEST_CASE("defaults filled in are listed as assumptions", "[analysis]") {
  Catalog catalog;
  SourceMap sources;
  auto read = testing::ReadText("trl sft --model_name_or_path Qwen/Qwen3-8B\n", &sources);
  auto estimate = EstimateWorkload(read.config.workloads[0], read.config,
                                   Context(catalog, "H100-80GB"));
  REQUIRE(estimate.breakdown);
  bool micro_batch_default = false;
  for (const std::string& a : estimate.assumptions)
    micro_batch_default = micro_batch_default || a.find("micro_batch = 8") == 0;
  CHECK(micro_batch_default);  // TrainingArguments.per_device_train_batch_size
}

TEST_CASE("a global batch larger than one micro-batch per GPU means accumulation", "[analysis]") {
  Catalog catalog;
  // LitGPT accumulates inside FSDP's no_sync: with 128 / (1 x 2 GPUs) = 64 micro-batches per
  // step each GPU holds the blocks' whole bf16 gradients (6.476e9 x 2 bytes = 12.06 GiB); with a
  // global batch of 2 there is no accumulation, and the reduce-scattered half remains (6.03).
  auto gradients_gib = [&](const std::string& global_batch) {
    SourceMap sources;
    auto read = testing::ReadText(
        "litgpt finetune_lora meta-llama/Llama-2-7b-hf --devices 2 --precision bf16-true "
        "--train.micro_batch_size 1 --train.global_batch_size " +
            global_batch + "\n",
        &sources);
    REQUIRE(read.config.workloads.size() == 1);
    auto estimate =
        EstimateWorkload(read.config.workloads[0], read.config, Context(catalog, "A100-80GB"));
    REQUIRE(estimate.breakdown);
    return est::BytesToGib(estimate.breakdown->gradients);
  };
  const double adapters = 4 * 4.194304e6 / (1 << 30);  // rank 8 on q and v, 32 layers, fp32
  CHECK(gradients_gib("128") == Approx(12.06 + adapters).epsilon(0.005));
  CHECK(gradients_gib("2") == Approx(12.06 / 2 + adapters).epsilon(0.005));
}

TEST_CASE("an accumulation derived from the global batch is listed as an assumption",
          "[analysis]") {
  Catalog catalog;
  SourceMap sources;
  auto read = testing::ReadText(
      "litgpt finetune_lora meta-llama/Llama-2-7b-hf --devices 2 --train.micro_batch_size 1 "
      "--train.global_batch_size 128\n",
      &sources);
  REQUIRE(read.config.workloads.size() == 1);
  auto estimate =
      EstimateWorkload(read.config.workloads[0], read.config, Context(catalog, "A100-80GB"));
  bool listed = false;
  for (const std::string& a : estimate.assumptions)
    listed = listed || a == "grad_accum not set: 64 assumed (global_batch / (micro_batch x "
                            "data-parallel GPUs))";
  CHECK(listed);  // 128 / (1 x 2)
}

namespace {

// verl's tuning example for Qwen2.5-Coder-14B on 4 H800s (examples/tuning/14b), with `extra`
// appended and `leading` lines before it: 16 sequences of up to 1024 + 1024 tokens per micro
// batch.
WorkloadEstimate VerlFourteenB(const Catalog& catalog, const std::string& extra,
                               const std::string& leading = "") {
  return EstimateFirst(catalog,
                       leading + "python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo "
                       "data.max_prompt_length=1024 data.max_response_length=1024 "
                       "actor_rollout_ref.model.path=Qwen/Qwen2.5-Coder-14B-Instruct "
                       "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=16 "
                       "trainer.n_gpus_per_node=4 " + extra + "\n",
                       "H800-80GB");
}

}  // namespace

TEST_CASE("verl's unpadded micro batches take the tokens the data has: a verdict only full-length "
          "sequences break is left open", "[analysis]") {
  Catalog catalog;
  // use_remove_padding is verl's default: 16 x 2048 tokens is a ceiling, not the batch.
  auto unpadded = VerlFourteenB(catalog, "");
  REQUIRE(unpadded.breakdown);
  CHECK(unpadded.breakdown->total > unpadded.usable_bytes);
  CHECK(std::find(unpadded.unknown_inputs.begin(), unpadded.unknown_inputs.end(),
                  "data_seq_len") != unpadded.unknown_inputs.end());
  CHECK(unpadded.undecided.find("sequences are not padded") != std::string::npos);
  CHECK(unpadded.undecided.find("micro batches of 16") != std::string::npos);

  // Padded, every sequence is 2048 tokens long whatever the data: the verdict is decided.
  auto padded = VerlFourteenB(catalog, "actor_rollout_ref.model.use_remove_padding=False");
  REQUIRE(padded.breakdown);
  CHECK_FALSE(padded.fits);
  CHECK(padded.unknown_inputs.empty());
  CHECK(padded.undecided.empty());
}

TEST_CASE("a stated data length settles an unpadded job", "[analysis]") {
  Catalog catalog;
  auto stated = VerlFourteenB(catalog, "", "# gpulint: data_seq_len=500\n");
  auto full = VerlFourteenB(catalog, "actor_rollout_ref.model.use_remove_padding=False");
  REQUIRE(stated.breakdown);
  REQUIRE(full.breakdown);
  CHECK(stated.unknown_inputs.empty());
  // A quarter of the tokens: activations and logits shrink, the model's state does not.
  CHECK(stated.breakdown->activations < full.breakdown->activations / 3);
  CHECK(stated.breakdown->optimizer == Approx(full.breakdown->optimizer));
}

TEST_CASE("an unpadded job whose state alone does not fit is out of memory at any length",
          "[analysis]") {
  Catalog catalog;
  SourceMap sources;
  auto read = testing::ReadText(
      "python3 -m verl.trainer.main_ppo data.max_prompt_length=1024 "
      "data.max_response_length=1024 actor_rollout_ref.model.path=Qwen/Qwen2.5-72B-Instruct "
      "trainer.n_gpus_per_node=1\n",
      &sources);
  REQUIRE(!read.config.workloads.empty());
  auto estimate = EstimateWorkload(read.config.workloads[0], read.config,
                                   Context(catalog, "H100-80GB"));
  REQUIRE(estimate.breakdown);
  CHECK_FALSE(estimate.fits);
  CHECK(estimate.unknown_inputs.empty());
}

// hiyouga/LlamaFactory#1221: the README's ZeRO-2 config on 8 V100s, no length anywhere. The
// state and the step's temporaries alone are past the GPU's typical total at any length, so
// the data deciding the length does not leave the verdict open.
TEST_CASE("a job whose shortest data is likely past the GPU is judged there", "[analysis]") {
  Catalog catalog;
  const std::string config =
      "cat > ds.json <<'JSON'\n"
      "{\"fp16\": {\"enabled\": \"auto\"}, \"zero_optimization\": {\"stage\": 2}}\n"
      "JSON\n";
  const std::string launch =
      "deepspeed --num_gpus 8 train.py --deepspeed ds.json --model_name_or_path "
      "huggyllama/llama-7b --per_device_train_batch_size 1 --fp16\n";
  auto estimate = EstimateFirst(catalog, config + launch, "V100-32GB");
  REQUIRE(estimate.breakdown);
  CHECK(estimate.unknown_inputs.empty());
  CHECK(estimate.undecided.empty());
  CHECK(estimate.breakdown->peak_phase == "optimizer step");
  CHECK(estimate.breakdown->total > estimate.usable_bytes);
  CHECK(estimate.breakdown->total_low <= estimate.usable_bytes);
  CHECK(std::any_of(estimate.assumptions.begin(), estimate.assumptions.end(),
                    [](const std::string& a) {
                      return a.find("judged at the shortest") != std::string::npos;
                    }));
  // On an 80 GB card it fits even at the 2048 tokens assumed for data of unknown length.
  auto roomy = EstimateFirst(catalog, config + launch, "A100-80GB");
  REQUIRE(roomy.breakdown);
  CHECK(roomy.fits);
  CHECK(roomy.undecided.empty());
}

// slime's MiniMax-M2.5 recipe (scripts/run-minimax-m2.sh): the Hugging Face checkpoint is FP8,
// the Megatron model trains 16-bit parameters loaded from it; not a quantized base.
TEST_CASE("a Megatron trainer's weights are 16-bit whatever the checkpoint's format",
          "[analysis]") {
  Catalog catalog;
  auto estimate = EstimateFirst(
      catalog,
      "python3 train.py --actor-num-nodes 16 --actor-num-gpus-per-node 8 --colocate "
      "--hf-checkpoint MiniMaxAI/MiniMax-M2.5 --rollout-batch-size 128 --n-samples-per-prompt 8 "
      "--tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 "
      "--expert-model-parallel-size 4\n");
  REQUIRE(estimate.breakdown);
  CHECK(estimate.skipped.empty());
  CHECK(std::any_of(estimate.assumptions.begin(), estimate.assumptions.end(),
                    [](const std::string& a) {
                      return a.find("loaded into Megatron's 16-bit parameters") !=
                             std::string::npos;
                    }));
}

// With the GPU count unknown and the least this job needs past the GPU, the estimate divides its
// states as over any number of GPUs; where no length is set, the length up to which it fits is
// found on that same reading, not on undivided states.
TEST_CASE("the length a job fits up to is found on the reading its estimate states",
          "[analysis]") {
  Catalog catalog;
  auto job = [](const std::string& count) {
    return "cat > ds.json <<'JSON'\n"
           "{\"bf16\": {\"enabled\": true}, \"zero_optimization\": {\"stage\": 3}}\n"
           "JSON\n"
           "torchrun --nproc_per_node " + count + " train.py --deepspeed ds.json "
           "--model_name_or_path Qwen/Qwen2.5-3B --per_device_train_batch_size 16 --bf16\n";
  };
  auto unknown = EstimateFirst(catalog, job("$NGPU"));
  auto many = EstimateFirst(catalog, job("65536"));  // as many GPUs as the least reading takes
  REQUIRE_FALSE(unknown.undecided_bound.empty());
  CHECK(unknown.undecided_bound == many.undecided_bound);
}

TEST_CASE("Megatron's distributed optimizer shards over data x context parallel ranks",
          "[analysis]") {
  // slime's run-glm4-9B.sh: TP 2 x CP 2 on 4 GPUs leaves one data-parallel rank, but the two
  // context-parallel ranks share the optimizer (intra_dp_cp_group): 9.4B / 2 (TP) / 2 (CP).
  Catalog catalog;
  auto optimizer_gib = [&](const std::string& cp) {
    auto estimate = EstimateFirst(
        catalog,
        "python3 train.py --hf-checkpoint THUDM/GLM-Z1-9B-0414 --actor-num-nodes 1 "
        "--actor-num-gpus-per-node 4 --rollout-num-gpus 4 --tensor-model-parallel-size 2 "
        "--context-parallel-size " + cp + " --rollout-max-response-len 8192 "
        "--use-dynamic-batch-size --max-tokens-per-gpu 4608\n");
    REQUIRE(estimate.breakdown);
    return est::BytesToGib(estimate.breakdown->optimizer);
  };
  // fp32 master + two Adam moments, 12 bytes over 9.4e9 / 4 parameters: ~26 GiB, not 52.
  CHECK(optimizer_gib("2") == Approx(26.3).epsilon(0.03));
  // CP 1 on the same 4 GPUs is DP 2: the same shard.
  CHECK(optimizer_gib("1") == Approx(optimizer_gib("2")));
}

TEST_CASE("a token budget holds at most a GPU's share of the mini-batch", "[analysis]") {
  Catalog catalog;
  // 8 prompts x 1 sample over 4 GPUs: 2 sequences of up to 2048 tokens per GPU, 4096 tokens,
  // however large the budget (padded, so the data cannot make it less).
  const std::string share =
      "actor_rollout_ref.model.use_remove_padding=False actor_rollout_ref.actor.use_dynamic_bsz="
      "True actor_rollout_ref.actor.ppo_mini_batch_size=8 ";
  const std::string budget = "actor_rollout_ref.actor.ppo_max_token_len_per_gpu=";
  auto large = VerlFourteenB(catalog, share + budget + "65536");
  auto exact = VerlFourteenB(catalog, share + budget + "4096");
  REQUIRE(large.breakdown);
  REQUIRE(exact.breakdown);
  CHECK(large.breakdown->activations == exact.breakdown->activations);
  CHECK(large.breakdown->logits == exact.breakdown->logits);
}

TEST_CASE("a token budget is each GPU's, and a longer sequence runs alone", "[analysis]") {
  // slime's run-glm4-9B.sh shape: TP 2 on 4 GPUs with --max-tokens-per-gpu 4608. Its micro
  // batches gather 4608 x CP tokens and context parallelism splits them, so each GPU holds
  // 4608 tokens at CP 1 and at CP 2 (slime/utils/dp_schedule.py:120).
  Catalog catalog;
  auto estimate = [&](const std::string& cp, const std::string& response) {
    auto e = EstimateFirst(
        catalog,
        "python3 train.py --hf-checkpoint THUDM/GLM-Z1-9B-0414 --actor-num-nodes 1 "
        "--actor-num-gpus-per-node 4 --rollout-num-gpus 4 --tensor-model-parallel-size 2 "
        "--context-parallel-size " + cp + " --rollout-max-prompt-len 1024 "
        "--rollout-max-response-len " + response +
            " --use-dynamic-batch-size --max-tokens-per-gpu 4608\n");
    REQUIRE(e.breakdown);
    return *e.breakdown;
  };
  CHECK(estimate("2", "2048").activations == Approx(estimate("1", "2048").activations));
  CHECK(estimate("2", "2048").logits == Approx(estimate("1", "2048").logits));
  // A 1024 + 32768-token sample is never split across micro batches: slime puts it alone in one
  // (dp_schedule.py:28-31), 33792 / 2 tokens per GPU, far past the budget.
  CHECK(estimate("2", "32768").logits > 3 * estimate("2", "2048").logits);
}

TEST_CASE("unpadded sequences fill a token budget only when they are long: that verdict is left "
          "open", "[analysis]") {
  Catalog catalog;
  // 64 prompts x 8 samples over 4 GPUs = 128 sequences per GPU; a 65536-token budget is full
  // only when they average 512 tokens.
  auto estimate = VerlFourteenB(
      catalog,
      "actor_rollout_ref.actor.use_dynamic_bsz=True actor_rollout_ref.actor.ppo_mini_batch_size=64 "
      "actor_rollout_ref.rollout.n=8 actor_rollout_ref.actor.ppo_max_token_len_per_gpu=65536");
  REQUIRE(estimate.breakdown);
  CHECK(estimate.breakdown->total_high > estimate.usable_bytes);
  CHECK(std::find(estimate.unknown_inputs.begin(), estimate.unknown_inputs.end(),
                  "data_seq_len") != estimate.unknown_inputs.end());
  CHECK(estimate.undecided.find("its 128 sequences of a mini-batch into micro batches of at most "
                                "65536 tokens, which they fill only if they average 512 tokens") !=
        std::string::npos);
  // Stating the length the data reaches settles it: micro batches of 128 x 100 tokens.
  auto stated = VerlFourteenB(
      catalog,
      "actor_rollout_ref.actor.use_dynamic_bsz=True actor_rollout_ref.actor.ppo_mini_batch_size=64 "
      "actor_rollout_ref.rollout.n=8 actor_rollout_ref.actor.ppo_max_token_len_per_gpu=65536",
      "# gpulint: data_seq_len=100\n");
  REQUIRE(stated.breakdown);
  CHECK(stated.unknown_inputs.empty());
  CHECK(stated.undecided.empty());
  CHECK(stated.breakdown->activations < estimate.breakdown->activations / 4);
}

TEST_CASE("sharded states over a GPU count the script leaves unresolved are not judged",
          "[analysis]") {
  Catalog catalog;
  auto estimate = EstimateFirst(
      catalog,
      "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen3-8B "
      "trainer.n_gpus_per_node=$SLURM_GPUS_PER_NODE trainer.nnodes=1\n");
  // FSDP would divide the states by a count gpulint does not know: one GPU is not a guess.
  CHECK(std::find(estimate.unknown_inputs.begin(), estimate.unknown_inputs.end(), "gpus") !=
        estimate.unknown_inputs.end());
}

TEST_CASE("a Megatron-core actor recomputes by its granularity, not a Hugging Face switch",
          "[analysis]") {
  Catalog catalog;
  auto activations_gib = [&](const std::string& extra) {
    auto estimate = EstimateFirst(
        catalog,
        "python3 -m verl.trainer.main_ppo --config-name ppo_megatron_trainer "
        "actor_rollout_ref.model.path=Qwen/Qwen3-8B trainer.n_gpus_per_node=8 trainer.nnodes=1 "
        "data.max_prompt_length=1024 data.max_response_length=4096 "
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 " + extra + "\n");
    REQUIRE(estimate.breakdown);
    return est::BytesToGib(estimate.breakdown->activations);
  };
  // verl's Megatron workers never read model.enable_gradient_checkpointing (verl.toml cites it).
  const double plain = activations_gib("");
  CHECK(activations_gib("actor_rollout_ref.model.enable_gradient_checkpointing=True") ==
        Approx(plain));
  // Its recompute does: full recompute keeps far fewer activations.
  CHECK(activations_gib("+actor_rollout_ref.actor.megatron.override_transformer_config."
                        "recompute_granularity=full") < plain / 2);
}

TEST_CASE("vLLM 0.9.2 runs V0 under VLLM_USE_V1=0 and on a Volta GPU, V1 elsewhere",
          "[analysis][version]") {
  Catalog catalog;
  const std::string serve =
      "# gpulint: vllm=0.9.2\nvllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 32768\n";
  auto eras_of = [](const WorkloadEstimate& e) {
    for (const std::string& a : e.assumptions)
      if (a.rfind("vllm 0.9.2", 0) == 0) return a;
    return std::string();
  };
  WorkloadEstimate v1 = EstimateFirst(catalog, serve, "A100-80GB");
  WorkloadEstimate v0 = EstimateFirst(catalog, "export VLLM_USE_V1=0\n" + serve, "A100-80GB");
  WorkloadEstimate volta = EstimateFirst(catalog, serve, "V100-32GB");
  REQUIRE(v1.breakdown);
  REQUIRE(v0.breakdown);
  REQUIRE(volta.breakdown);
  CHECK(eras_of(v1).find("V1, per-instance") != std::string::npos);
  CHECK(eras_of(v0).find("V0 engine in a V1 release") != std::string::npos);
  CHECK(eras_of(v0).find("VLLM_USE_V1=0") != std::string::npos);
  CHECK(eras_of(volta).find("before Ampere") != std::string::npos);
  // V0 profiles a whole 32768-token prompt (no chunked prefill at 32768) where V1 takes its
  // 2048-token budget (the map's default for 0.11): a larger activation peak, a smaller pool.
  CHECK(v0.breakdown->activations > 8 * v1.breakdown->activations);
  CHECK(v0.breakdown->kv_cache < v1.breakdown->kv_cache);
}

namespace {

// The first workload of a YAML config linted alone (an axolotl config), estimated on `gpu`.
WorkloadEstimate EstimateConfig(const Catalog& catalog, const std::string& yaml,
                                const std::string& gpu) {
  SourceMap sources;
  ReadResult read = ReadScript("config.yml", yaml, testing::TestMaps(), {}, &sources);
  REQUIRE(!read.config.workloads.empty());
  return EstimateWorkload(read.config.workloads[0], read.config, Context(catalog, gpu));
}

bool HasAssumption(const WorkloadEstimate& estimate, const std::string& text) {
  return std::any_of(estimate.assumptions.begin(), estimate.assumptions.end(),
                     [&](const std::string& a) { return a.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("axolotl's adapter: lora without lora_r is LoRA of PEFT's default rank, not a full "
          "fine-tune", "[analysis]") {
  // The config keys of axolotl issue #814 (Mistral-7B, 8-bit base, LoRA, 4096 tokens).
  Catalog catalog;
  WorkloadEstimate lora = EstimateConfig(catalog,
                                         "base_model: mistralai/Mistral-7B-v0.1\n"
                                         "load_in_8bit: true\n"
                                         "adapter: lora\n"
                                         "sequence_len: 4096\n"
                                         "micro_batch_size: 1\n",
                                         "A100-80GB");
  REQUIRE(lora.breakdown);
  CHECK(HasAssumption(lora, "lora_rank not set: 8 assumed"));
  // 7.2e9 int8 weights are ~7 GiB; adapters of rank 8 on q and v have gradients and AdamW
  // moments of megabytes, where a full fine-tune's would be 13.5 and 27 GiB.
  CHECK(est::BytesToGib(lora.breakdown->weights) < 8.0);
  CHECK(est::BytesToGib(lora.breakdown->gradients) < 0.5);
  CHECK(est::BytesToGib(lora.breakdown->optimizer) < 0.5);
}

TEST_CASE("a quantized base with no adapter is not estimated: transformers refuses to train it",
          "[analysis]") {
  Catalog catalog;
  WorkloadEstimate full = EstimateConfig(catalog,
                                         "base_model: mistralai/Mistral-7B-v0.1\n"
                                         "load_in_8bit: true\n"
                                         "sequence_len: 4096\n",
                                         "A100-80GB");
  CHECK(!full.breakdown);
  CHECK(full.skipped.find("purely quantized") != std::string::npos);
}

TEST_CASE("expandable segments bring a trainer's high end down to the typical slack",
          "[analysis][allocator]") {
  Catalog catalog;
  const std::string train =
      "torchrun --nproc_per_node 8 -m verl.trainer.fsdp_sft_trainer "
      "model.partial_pretrain=Qwen/Qwen3-4B data.micro_batch_size_per_gpu=4 "
      "data.max_length=4096\n";
  WorkloadEstimate fixed = EstimateFirst(catalog, train);
  WorkloadEstimate expandable =
      EstimateFirst(catalog, "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True " + train);
  REQUIRE(fixed.breakdown);
  REQUIRE(expandable.breakdown);
  // The same tensors and the same typical run...
  CHECK(expandable.breakdown->torch_allocated == Approx(fixed.breakdown->torch_allocated));
  CHECK(expandable.breakdown->total == Approx(fixed.breakdown->total));
  // ...but holes no longer end a long run: its high end is the typical total.
  CHECK(expandable.breakdown->total_high == Approx(expandable.breakdown->total));
  CHECK(fixed.breakdown->total_high > fixed.breakdown->total * 1.05);
  CHECK(HasAssumption(expandable, "expandable_segments:True"));
  CHECK(!HasAssumption(fixed, "expandable_segments"));
}

TEST_CASE("a serving process's weights take the dtype it loads them in", "[analysis][dtype]") {
  Catalog catalog;
  // Qwen2.5-7B-Instruct ships bf16: 7.62e9 parameters x 2 bytes = 14.2 GiB.
  WorkloadEstimate checkpoint =
      EstimateFirst(catalog, "vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 4096\n");
  REQUIRE(checkpoint.breakdown);
  CHECK(est::BytesToGib(checkpoint.breakdown->weights) == Approx(7.62e9 * 2 / est::kGiB).epsilon(0.01));
  // --dtype float32 (vLLM also spells it "float"): 4 bytes a parameter, twice the weights.
  for (const char* dtype : {"float32", "float"}) {
    INFO(dtype);
    WorkloadEstimate fp32 = EstimateFirst(
        catalog, std::string("vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 4096 --dtype ") +
                     dtype + "\n");
    REQUIRE(fp32.breakdown);
    CHECK(fp32.breakdown->weights == Approx(2 * checkpoint.breakdown->weights).epsilon(1e-6));
  }
  // A trainer's precision default is not how a model beside it is loaded: the HF Trainer's
  // fp32 (no --bf16) leaves an evaluator in its process at the checkpoint's dtype.
  {
    SourceMap sources;
    auto read = testing::ReadText(
        "python train.py --model_name_or_path Qwen/Qwen2.5-0.5B --per_device_train_batch_size 1 "
        "--evaluator-model Qwen/Qwen2.5-7B-Instruct\n",
        &sources);
    const Workload* eval = nullptr;
    for (const Workload& w : read.config.workloads)
      if (w.role == "eval") eval = &w;
    REQUIRE(eval);
    WorkloadEstimate e = EstimateWorkload(*eval, read.config, Context(catalog, "H100-80GB"));
    REQUIRE(e.breakdown);
    CHECK(e.breakdown->weights == Approx(checkpoint.breakdown->weights).epsilon(1e-6));
  }
  // "auto" keeps the checkpoint's.
  WorkloadEstimate automatic = EstimateFirst(
      catalog, "vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 4096 --dtype auto\n");
  REQUIRE(automatic.breakdown);
  CHECK(automatic.breakdown->weights == Approx(checkpoint.breakdown->weights).epsilon(1e-6));
}

TEST_CASE("an MXFP4 checkpoint trains on bf16 weights unless the script keeps it packed",
          "[analysis]") {
  Catalog catalog;
  const std::string train =
      "CUDA_VISIBLE_DEVICES=0 swift sft --model openai/gpt-oss-20b --tuner_type lora "
      "--target_modules all-linear "
      "--torch_dtype bfloat16 --per_device_train_batch_size 1 --max_length 2048\n";
  // Served, the checkpoint stays packed: about 13 GiB.
  WorkloadEstimate served = EstimateFirst(catalog, "vllm serve openai/gpt-oss-20b\n");
  REQUIRE(served.breakdown);
  CHECK(est::BytesToGib(served.breakdown->weights) < 15);
  // Trained, it is unpacked: 20.9B parameters x 2 bytes, as ms-swift's example measured (42 GB).
  WorkloadEstimate trained = EstimateFirst(catalog, train);
  REQUIRE(trained.breakdown);
  CHECK(est::BytesToGib(trained.breakdown->weights) > 38);
  CHECK(std::any_of(trained.assumptions.begin(), trained.assumptions.end(),
                    [](const std::string& a) { return a.find("MXFP4 weights trained") == 0; }));
  // Told it stays packed, it is priced packed.
  WorkloadEstimate packed = EstimateFirst(catalog, "# gpulint: dequantize=false\n" + train);
  REQUIRE(packed.breakdown);
  CHECK(est::BytesToGib(packed.breakdown->weights) < 15);
}
