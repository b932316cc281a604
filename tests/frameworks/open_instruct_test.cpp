// rules/frameworks/open-instruct-grpo.toml, open-instruct-finetune.toml and mason.toml on
// commands shaped like allenai/open-instruct's own scripts (scripts/train/qwen/*.sh at e6c3044a).
#include <catch2/catch.hpp>

#include "estimator/units.h"
#include "lint/analysis/colocation.h"
#include "lint/analysis/workload_estimate.h"
#include "tests/support/analysis_helpers.h"
#include "tests/support/reader_helpers.h"
#include "tuner/fit.h"
#include "tuner/maximize.h"

using namespace gpulint;
using gpulint::testing::AnalyzeText;
using gpulint::testing::Dump;
using gpulint::testing::ReadText;
using gpulint::testing::Role;

namespace {

// qwen3_4b_dapo_math.sh's shape: mason run through uv, the program after `--` on the next line.
const char* kGrpoFast =
    "uv run mason.py --cluster ai2/jupiter --num_nodes 1 --gpus 8 -- \\\n"
    "uv run open_instruct/grpo_fast.py --model_name_or_path Qwen/Qwen2.5-7B \\\n"
    "  --max_prompt_token_length 2048 --response_length 8192 --pack_length 10240 \\\n"
    "  --per_device_train_batch_size 1 --deepspeed_stage 3 --num_learners_per_node 2 2 \\\n"
    "  --vllm_num_engines 4 --vllm_tensor_parallel_size 1\n";

}  // namespace

TEST_CASE("grpo_fast: learners, vLLM engines and the reference policy", "[frameworks]") {
  SourceMap sources;
  ReadResult read = ReadText(kGrpoFast, &sources);
  const Workload* train = Role(read.config, "train");
  const Workload* rollout = Role(read.config, "rollout");
  const Workload* reference = Role(read.config, "reference");
  REQUIRE(train);
  REQUIRE(rollout);
  REQUIRE(reference);
  CHECK(train->framework == "open-instruct-grpo");
  CHECK(train->gpus == 4);    // num_learners_per_node 2 2: one GPU per learner
  CHECK(rollout->gpus == 4);  // 4 engines x TP 1, GPUs of their own
  CHECK(Dump(*train, {"zero_stage", "max_seq_len", "grad_ckpt", "loss_path"}) ==
        "zero_stage=3@4:53(l) max_seq_len=10240@3:71(l) grad_ckpt=true(d) "
        "loss_path=scaled-gather(d)");
  // The rollout engine serves prompt + response.
  CHECK(Dump(*rollout, {"max_prompt_len", "max_response_len", "gpu_memory_utilization"}) ==
        "max_prompt_len=2048@3:29(l) max_response_len=8192@3:52(l) "
        "gpu_memory_utilization=0.9(d)");
  // The reference lives in each learner's process, sharded the same way.
  CHECK(reference->shares_process_gpus);
  CHECK(reference->devices == train->devices);
  CHECK(Dump(*reference, {"zero_stage"}).rfind("zero_stage=3", 0) == 0);
}

TEST_CASE("grpo_fast without a reference policy, and in single-GPU mode", "[frameworks]") {
  SourceMap sources;
  ReadResult no_ref = ReadText(
      "python open_instruct/grpo_fast.py --model_name_or_path Qwen/Qwen2.5-7B "
      "--load_ref_policy False --beta 0.0\n",
      &sources);
  CHECK(Role(no_ref.config, "train"));
  CHECK_FALSE(Role(no_ref.config, "reference"));

  ReadResult single = ReadText(
      "python open_instruct/grpo_fast.py --model_name_or_path Qwen/Qwen2.5-0.5B "
      "--single_gpu_mode --vllm_gpu_memory_utilization 0.3\n",
      &sources);
  const Workload* train = Role(single.config, "train");
  const Workload* rollout = Role(single.config, "rollout");
  REQUIRE(train);
  REQUIRE(rollout);
  CHECK(rollout->devices == train->devices);  // the engine shares the learner's GPU
}

TEST_CASE("grpo_fast 7B at ZeRO-3 over 4 learners fits an H100 with its reference policy",
          "[frameworks]") {
  // What the official 7B recipes run (scripts/train/qwen/grpo_fast_7b.sh: 7B, ZeRO-3, packed
  // 6144-token sequences, gradient checkpointing, H100s). Per learner: bf16 weights, fp32 master
  // and AdamW over 4 ranks, 14 + 2 bytes x 7.6e9 / 4 = 28 GiB; the reference's bf16 shard 3.5.
  auto analyzed = AnalyzeText(std::string("# gpulint: gpu=H100-80GB\n") + kGrpoFast);
  const FileAnalysis& analysis = analyzed->analysis;
  for (const WorkloadEstimate& e : analysis.estimates) REQUIRE(e.breakdown);
  std::vector<DeviceLoad> loads = ComputeDeviceLoads(analysis.read.config, analysis.estimates);
  REQUIRE(!loads.empty());
  for (const DeviceLoad& load : loads) CHECK(load.bytes < 79.6 * gpulint::est::kGiB);
}

TEST_CASE("finetune.py: open-instruct's own defaults, bf16 weights", "[frameworks]") {
  SourceMap sources;
  ReadResult read = ReadText(
      "accelerate launch --mixed_precision bf16 --num_processes 8 open_instruct/finetune.py "
      "--model_name_or_path meta-llama/Llama-3.1-8B --use_lora --max_seq_length 4096\n",
      &sources);
  REQUIRE(read.config.workloads.size() == 1);
  const Workload& w = read.config.workloads[0];
  CHECK(w.framework == "open-instruct-finetune");
  CHECK(Dump(w, {"micro_batch", "lora_rank", "grad_ckpt", "model_dtype"}) ==
        "micro_batch=8(d) lora_rank=64(d) grad_ckpt=false(d) model_dtype=bf16(d)");
}

TEST_CASE("mason.py --gpus 0 runs a CPU step: no estimate, no range error", "[frameworks]") {
  // scripts/merge/direct_merge.sh: a model merge launched through mason with --gpus 0.
  auto analyzed = AnalyzeText(
      "# gpulint: gpu=H100-80GB\n"
      "python mason.py --cluster ai2/jupiter --gpus 0 -- python scripts/merge.py "
      "--model_name_or_path Qwen/Qwen2.5-7B\n");
  const FileAnalysis& analysis = analyzed->analysis;
  REQUIRE(analysis.estimates.size() == 1);
  CHECK_FALSE(analysis.estimates[0].breakdown);
  CHECK(analysis.estimates[0].skipped.find("no GPU") != std::string::npos);
}

TEST_CASE("a flag grpo_fast refuses leaves its workloads unjudged, not priced at one learner",
          "[frameworks]") {
  // scripts/train/rlvr/grpo_qwen_fast_2.5_7B_best.sh passes --actor_num_gpus_per_node 6, which
  // grpo_fast never took: the job stops at argument parsing, and 6 learners were meant, not the
  // default 1 (a 7B under ZeRO-2 on one GPU would read as 127 GiB).
  auto analyzed = AnalyzeText(
      "# gpulint: gpu=H100-80GB\n"
      "python mason.py --cluster ai2/jupiter --num_nodes 2 --gpus 8 -- python "
      "open_instruct/grpo_fast.py --model_name_or_path Qwen/Qwen2.5-7B --deepspeed_stage 2 "
      "--response_length 2048 --actor_num_gpus_per_node 6 --vllm_num_engines 10\n");
  const FileAnalysis& analysis = analyzed->analysis;
  REQUIRE_FALSE(analysis.estimates.empty());
  for (const WorkloadEstimate& e : analysis.estimates) {
    CHECK_FALSE(e.breakdown);
    CHECK(e.skipped.find("grpo_fast refuses") != std::string::npos);
  }
}

TEST_CASE("grpo_fast: a longer response moves pack_length with it, never pack_length alone",
          "[frameworks][tuner]") {
  // data_loader.py:501-503 asserts pack_length >= max_prompt_token_length + response_length.
  auto a = AnalyzeText(std::string("# gpulint: gpu=H100-80GB\n") + kGrpoFast);
  const size_t train = gpulint::testing::WorkloadWithRole(a->analysis, "train");
  TunerOptions options;
  options.maps = &a->workspace->maps();
  Proposal p = MaximizeContext(a->analysis, train, options);
  std::map<std::string, long> after;
  for (const Change& c : p.changes) after[c.setting] = std::stol(c.after);
  REQUIRE(after.count("max_response_len"));
  CHECK(after["max_response_len"] > 8192);
  REQUIRE(after.count("max_seq_len"));
  CHECK(after["max_seq_len"] == 2048 + after["max_response_len"]);
}

TEST_CASE("grpo_fast: sequence parallelism comes with the ZeRO-3 it needs", "[frameworks][tuner]") {
  // scripts/train/debug/envs/sandbox_lm_8gpu.sh's shape: 32k tokens at ZeRO-2 over 4 learners,
  // at the edge of an H100; --fit splits the sequence, and grpo_utils.py:275-276 refuses
  // sequence_parallel_size > 1 under any stage but 3.
  auto a = AnalyzeText(
      "# gpulint: gpu=H100-80GB\n"
      "python open_instruct/grpo_fast.py --model_name_or_path Qwen/Qwen3-4B-Instruct-2507 \\\n"
      "  --max_prompt_token_length 2048 --response_length 30720 --pack_length 32768 \\\n"
      "  --per_device_train_batch_size 1 --deepspeed_stage 2 --num_learners_per_node 4 \\\n"
      "  --vllm_num_engines 4 --vllm_tensor_parallel_size 1 --num_samples_per_prompt_rollout 4 \\\n"
      "  --num_unique_prompts_rollout 16 --gradient_checkpointing\n");
  const size_t train = gpulint::testing::WorkloadWithRole(a->analysis, "train");
  Proposal p = Fit(a->analysis, a->workspace->maps(), train, TunerOptions{});
  bool split = false, stage3 = false;
  for (const Change& c : p.changes) {
    split |= c.setting == "cp" && c.after != "1";
    stage3 |= c.setting == "zero_stage" && c.after == "3";
  }
  REQUIRE(split);
  CHECK(stage3);
}
