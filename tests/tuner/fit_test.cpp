// --fit: the cheapest change set that fits, ranked.
#include "tuner/fit.h"

#include <catch2/catch.hpp>

#include "tests/support/analysis_helpers.h"

using namespace gpulint;
using namespace gpulint::testing;

namespace {

std::string Changes(const Proposal& p) {
  std::string out;
  for (const Change& c : p.changes) out += c.setting + "=" + c.after + " ";
  return out;
}

}  // namespace

TEST_CASE("checkpointing comes first when it is what makes the step fit", "[tuner][fit]") {
  auto a = AnalyzeText(ReadWholeFile(SourcePath("fixtures/rules/GL107/bad.sh")));
  Proposal p = Fit(a->analysis, a->workspace->maps(), 0, TunerOptions{});
  CHECK(Changes(p) == "grad_ckpt=true ");
  CHECK(p.safe);
  CHECK(p.total_after_bytes <= p.limit_bytes);
}

TEST_CASE("a smaller micro-batch keeps the global batch through accumulation", "[tuner][fit]") {
  // micro 3 x accumulation 1 = 3; checkpointing is already on. Micro 1 with accumulation 3
  // keeps the 3 sequences per step; micro 2 does not divide 3.
  auto a = AnalyzeText(ReadWholeFile(SourcePath("fixtures/rules/GL113/bad.sh")));
  Proposal p = Fit(a->analysis, a->workspace->maps(), 0, TunerOptions{});
  CHECK(Changes(p) == "micro_batch=1 grad_accum=3 ");
  CHECK_FALSE(p.safe);
  CHECK_FALSE(p.alternatives.empty());
}

TEST_CASE("an fp8 KV cache before a shorter context on a GPU that has fp8", "[tuner][fit]") {
  // Qwen3-32B on one H100: after 61 GiB of weights, vLLM's 90% leaves ~4 GiB of KV cache,
  // 262 KB a token in bf16 (64 layers x 8 KV heads x 128 x 2 x 2 bytes): ~16k tokens, not the
  // 24576 asked. fp8 halves the bytes per token: ~32k.
  auto a = AnalyzeText("# gpulint: gpu=H100-80GB\n"
                       "vllm serve Qwen/Qwen3-32B --max-model-len 24576\n");
  Proposal p = Fit(a->analysis, a->workspace->maps(), 0, TunerOptions{});
  CHECK(Changes(p) == "kv_cache_dtype=fp8 ");
  REQUIRE(p.alternatives.size() == 1);
  CHECK(p.alternatives[0].find("max_model_len") != std::string::npos);
}

TEST_CASE("a workload that fits gets no change", "[tuner][fit]") {
  auto a = AnalyzeText(ReadWholeFile(SourcePath("fixtures/rules/GL107/good.sh")));
  Proposal p = Fit(a->analysis, a->workspace->maps(), 0, TunerOptions{});
  CHECK(p.changes.empty());
  CHECK(p.note.find("fits already") == 0);
}

TEST_CASE("without alternatives the search stops at the cheapest option, and picks the same",
          "[tuner][fit]") {
  for (const char* fixture : {"fixtures/rules/GL101/bad.sh", "fixtures/rules/GL102/bad.sh",
                              "fixtures/rules/GL107/bad.sh"}) {
    INFO(fixture);
    auto a = AnalyzeText(ReadWholeFile(SourcePath(fixture)));
    Proposal all = Fit(a->analysis, a->workspace->maps(), 0, TunerOptions{});
    TunerOptions cheapest_only;
    cheapest_only.alternatives = false;
    Proposal best = Fit(a->analysis, a->workspace->maps(), 0, cheapest_only);
    CHECK(Changes(best) == Changes(all));
    CHECK(best.summary == all.summary);
    CHECK(best.alternatives.size() <= all.alternatives.size());
  }
  // Checkpointing alone fits GL107/bad.sh: nothing costlier is searched, so none is listed.
  auto a = AnalyzeText(ReadWholeFile(SourcePath("fixtures/rules/GL107/bad.sh")));
  TunerOptions cheapest_only;
  cheapest_only.alternatives = false;
  CHECK(Fit(a->analysis, a->workspace->maps(), 0, cheapest_only).alternatives.empty());
  CHECK_FALSE(Fit(a->analysis, a->workspace->maps(), 0, TunerOptions{}).alternatives.empty());
}

TEST_CASE("a Megatron job is offered the distributed optimizer, not a bitsandbytes optimizer",
          "[tuner][fit]") {
  // Llama-3.1-8B at TP 2 on 8 H100s: Adam's fp32 states over 2-way TP alone take ~45 GiB per
  // GPU; the distributed optimizer shards them over the 4 data-parallel ranks. Megatron's
  // --optimizer takes adam, sgd, muon, lion or soap (arguments.py:2913-2914): no 8-bit AdamW.
  auto a = AnalyzeText(
      "# gpulint: gpu=H100-80GB model=meta-llama/Llama-3.1-8B\n"
      "torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 "
      "--micro-batch-size 1 --global-batch-size 64 --seq-length 1024 "
      "--max-position-embeddings 8192 --bf16\n");
  Proposal p = Fit(a->analysis, a->workspace->maps(), 0, TunerOptions{});
  CHECK(Changes(p) == "use_distributed_optimizer=true ");
  CHECK(p.total_after_bytes <= p.limit_bytes);
  for (const std::string& alternative : p.alternatives)
    CHECK(alternative.find("8-bit") == std::string::npos);
}

TEST_CASE("full recompute comes with the method and layer count Megatron-core needs",
          "[tuner][fit]") {
  // Llama-3.1-8B at TP 2 over 8k tokens: selective recompute leaves the MLP's activations, which
  // do not fit; full recompute keeps one checkpoint per layer. Without --recompute-method and
  // --recompute-num-layers Megatron-core refuses the config (transformer_config.py:1908-1923).
  auto a = AnalyzeText(
      "# gpulint: gpu=H100-80GB model=meta-llama/Llama-3.1-8B\n"
      "torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 "
      "--micro-batch-size 1 --global-batch-size 64 --seq-length 8192 "
      "--max-position-embeddings 131072 --bf16 --use-distributed-optimizer\n");
  Proposal p = Fit(a->analysis, a->workspace->maps(), 0, TunerOptions{});
  CHECK(Changes(p) == "recompute=full recompute_method=uniform recompute_num_layers=1 ");
  CHECK(p.total_after_bytes <= p.limit_bytes);
  CHECK(p.safe);
}

TEST_CASE("block recompute over part of a stage is priced as no recompute, an upper bound",
          "[tuner][fit]") {
  const std::string script =
      "# gpulint: gpu=H100-80GB model=meta-llama/Llama-3.1-8B\n"
      "torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 "
      "--micro-batch-size 1 --global-batch-size 64 --seq-length 8192 "
      "--max-position-embeddings 131072 --bf16 --use-distributed-optimizer "
      "--recompute-granularity full ";
  auto every = AnalyzeText(script + "--recompute-method block --recompute-num-layers 32\n");
  auto part = AnalyzeText(script + "--recompute-method block --recompute-num-layers 8\n");
  auto none = AnalyzeText(script.substr(0, script.find("--recompute")) + "\n");
  const auto& e = every->analysis.estimates[0];
  const auto& p = part->analysis.estimates[0];
  REQUIRE(e.breakdown);
  REQUIRE(p.breakdown);
  CHECK(p.breakdown->activations > 2 * e.breakdown->activations);
  CHECK(p.breakdown->activations == none->analysis.estimates[0].breakdown->activations);
  bool said = false;
  for (const std::string& assumption : p.assumptions)
    said = said || assumption.find("block recompute over 8 of 32 layers") != std::string::npos;
  CHECK(said);
}

TEST_CASE("Megatron's optimizer moves to the CPU with the precision-aware optimizer it needs",
          "[tuner][fit]") {
  // Llama-3.1-8B over 2 GPUs, already sharding its optimizer and recomputing every layer: the
  // fp32 main parameters and Adam's states still do not fit; on the CPU they do. Megatron
  // refuses --optimizer-cpu-offload without --use-precision-aware-optimizer
  // (arguments.py:1884-1888).
  auto a = AnalyzeText(
      "# gpulint: gpu=H100-80GB model=meta-llama/Llama-3.1-8B\n"
      "torchrun --nproc_per_node 2 pretrain_gpt.py --micro-batch-size 1 --global-batch-size 64 "
      "--seq-length 2048 --max-position-embeddings 131072 --bf16 --use-distributed-optimizer "
      "--recompute-granularity full --recompute-method uniform --recompute-num-layers 1\n");
  Proposal p = Fit(a->analysis, a->workspace->maps(), 0, TunerOptions{});
  CHECK(Changes(p) == "offload=optimizer use_precision_aware_optimizer=true ");
  CHECK_FALSE(p.safe);  // slower steps
  CHECK(p.total_after_bytes <= p.limit_bytes);
}

TEST_CASE("sequence parallelism leaves the GPUs tensor parallelism holds", "[tuner][fit]") {
  // TP 2 on 8 GPUs: a context-parallel split of 4 fills them; 8 would need 16. Already
  // recomputing every layer, a longer sequence leaves the split as the way to fit.
  auto a = AnalyzeText(
      "# gpulint: gpu=H100-80GB model=meta-llama/Llama-3.1-8B\n"
      "torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 "
      "--micro-batch-size 1 --global-batch-size 64 --seq-length 65536 "
      "--max-position-embeddings 131072 --bf16 --use-distributed-optimizer "
      "--recompute-granularity full --recompute-method uniform --recompute-num-layers 1\n");
  Proposal p = Fit(a->analysis, a->workspace->maps(), 0, TunerOptions{});
  CHECK(Changes(p).rfind("cp=", 0) == 0);
  for (const std::string& alternative : p.alternatives)
    CHECK(alternative.find("cp (not set) -> 8") == std::string::npos);
}

TEST_CASE("sequence parallelism splits whole KV heads", "[tuner][fit]") {
  // ms-swift's Ulysses group is gcd(KV heads, size), the rest ring attention that it refuses
  // without padding-free batches (swift/sequence_parallel/sequence_parallel.py:344-346, 373-375):
  // Qwen2.5-3B has 16 query heads but 2 KV heads, so only a split of 2 may be offered (its 16
  // heads alone would allow 4 and 8, which fit here).
  auto a = AnalyzeText(
      "# gpulint: gpu=H100-80GB\n"
      "NPROC_PER_NODE=8 swift sft --model Qwen/Qwen2.5-3B --train_type full "
      "--max_length 65536 --per_device_train_batch_size 1 --gradient_checkpointing true "
      "--deepspeed zero3 --torch_dtype bfloat16\n");
  Proposal p = Fit(a->analysis, a->workspace->maps(), 0, TunerOptions{});
  REQUIRE(!p.changes.empty());
  for (const Change& c : p.changes)
    if (c.setting == "cp") CHECK(c.after == "2");
  for (const std::string& alternative : p.alternatives) {
    CHECK(alternative.find("cp (not set) -> 4") == std::string::npos);
    CHECK(alternative.find("cp (not set) -> 8") == std::string::npos);
  }
}

TEST_CASE("a colocated engine that holds its memory through the update is put to sleep first",
          "[tuner][fit]") {
  // OpenRLHF's engines keep 70% of each GPU while the actor updates unless --vllm.enable_sleep
  // sleeps them (ppo_trainer.py wakes and sleeps them only under it): Qwen3-4B's update at 16k
  // tokens of logits per GPU does not fit beside 56 GiB of engine; asleep, it has the GPU.
  const std::string script =
      "# gpulint: gpu=H100-80GB\n"
      "python3 -m openrlhf.cli.train_ppo_ray --actor.model_name_or_path Qwen/Qwen3-4B "
      "--actor.num_gpus_per_node 4 --ref.num_gpus_per_node 4 --vllm.num_engines 2 "
      "--vllm.tensor_parallel_size 2 --vllm.gpu_memory_utilization 0.7 --train.colocate_all "
      "--ds.zero_stage 3 --actor.gradient_checkpointing_enable --ds.packing_samples "
      "--train.dynamic_batch_enable --train.max_tokens_per_gpu 16192 --data.max_len 8192 "
      "--ds.enable_sleep";
  auto a = AnalyzeText(script + "\n");
  REQUIRE(a->analysis.read.config.workloads.size() == 3);
  REQUIRE(a->analysis.read.config.workloads[1].role == "rollout");
  Proposal p = Fit(a->analysis, a->workspace->maps(), 0, TunerOptions{});
  REQUIRE(p.changes.size() == 1);
  CHECK(p.changes[0].setting == "engine_sleeps");
  CHECK(p.changes[0].after == "true");
  CHECK(p.changes[0].workload == 1);
  CHECK(p.safe);
  CHECK(p.total_after_bytes <= p.limit_bytes);
  // Asleep already: nothing held, the update fits.
  auto slept = AnalyzeText(script + " --vllm.enable_sleep\n");
  CHECK(Fit(slept->analysis, slept->workspace->maps(), 0, TunerOptions{}).note.find(
            "fits already") == 0);
  // Async training puts the engines on GPUs of their own: nothing held beside the update, which
  // fits as it does beside sleeping engines, and nothing to put to sleep.
  auto async = AnalyzeText(script + " --train.async_enable\n");
  Proposal apart = Fit(async->analysis, async->workspace->maps(), 0, TunerOptions{});
  CHECK(apart.changes.empty());
  CHECK(apart.note.find("fits already") == 0);
}

// hiyouga/LlamaFactory#1221's shape: ZeRO-2 on 8 V100s whose state alone likely overfills them,
// no length set. ZeRO-3 fits short data but leaves long data to decide: no verdict to offer;
// with the length stated it is the change.
TEST_CASE("a job judged at its shortest data is offered a change once its length is stated",
          "[tuner][fit]") {
  const std::string job =
      "cat > ds.json <<'JSON'\n"
      "{\"fp16\": {\"enabled\": \"auto\"}, \"zero_optimization\": {\"stage\": 2}}\n"
      "JSON\n"
      "deepspeed --num_gpus 8 train.py --deepspeed ds.json --model_name_or_path "
      "huggyllama/llama-7b --per_device_train_batch_size 1 --fp16\n";
  auto open = AnalyzeText("# gpulint: gpu=V100-32GB\n" + job);
  Proposal unstated = Fit(open->analysis, open->workspace->maps(), 0, TunerOptions{});
  CHECK(unstated.changes.empty());
  CHECK(unstated.note.find("whatever the data's length") != std::string::npos);
  auto stated = AnalyzeText("# gpulint: gpu=V100-32GB\n# gpulint: max_seq_len=512\n" + job);
  Proposal p = Fit(stated->analysis, stated->workspace->maps(), 0, TunerOptions{});
  CHECK(Changes(p) == "zero_stage=3 ");
}
