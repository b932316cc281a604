// The reader on fixtures that each exercise one syntax feature or one framework. Every expected
// position was counted by hand in the fixture (line:column of the first character of the value).
#include "lint/reader/script_reader.h"

#include <catch2/catch.hpp>

#include "tests/support/reader_helpers.h"

using gpulint::ReadResult;
using gpulint::SourceMap;
using gpulint::testing::Dump;
using gpulint::testing::ReadFixture;

namespace {

struct Row {
  const char* fixture;
  size_t workload;
  const char* role_framework;           // "serve/vllm"
  std::vector<std::string> names;
  const char* expected;
};

}  // namespace

TEST_CASE("fixtures: settings, values and where they are written", "[reader]") {
  const Row rows[] = {
      // MODEL_PATH=${MODEL_PATH:-Qwen/...} line 5; TP_SIZE="2" line 6; : "${MAX_LEN:=16384}"
      // line 7; export GPU_UTIL=0.85 line 8.
      {"fixtures/scripts/syntax/variables_and_defaults.sh", 0, "serve/vllm",
       {"model", "tp", "max_model_len", "gpu_memory_utilization"},
       "model=Qwen/Qwen2.5-7B-Instruct@5:26(v) tp=2@6:10(v) max_model_len=16384@7:15(v) "
       "gpu_memory_utilization=0.85@8:17(v)"},
      // Array elements keep their own positions (lines 4, 5, 7, 8).
      {"fixtures/scripts/syntax/arrays.sh", 0, "serve/sglang",
       {"model", "tp", "gpu_memory_utilization", "max_model_len"},
       "model=Qwen/Qwen3-8B@4:17(v) tp=2@5:14(v) gpu_memory_utilization=0.7@7:36(v) "
       "max_model_len=32768@8:32(v)"},
      {"fixtures/scripts/syntax/env_prefix_and_cvd.sh", 1, "serve/vllm", {"tp"},
       "tp=2@4:84(l)"},
      // The decided if (MODE=serve) picks TP=4 on line 5; MAX_LEN differs between branches.
      {"fixtures/scripts/syntax/branches.sh", 0, "serve/vllm", {"tp", "max_model_len"},
       "tp=4@5:6(v) max_model_len=?@11:11(v)"},
      // case h100|h200 -> UTIL=0.92 (line 6); the function's $1 and $2 come from line 16.
      {"fixtures/scripts/syntax/case_and_functions.sh", 0, "serve/vllm",
       {"gpu_memory_utilization", "model", "tp"},
       "gpu_memory_utilization=0.92@6:19(v) model=Qwen/Qwen3-8B@16:7(v) tp=1@16:21(v)"},
      {"fixtures/scripts/syntax/for_loop.sh", 1, "train/hf-trainer", {"model", "micro_batch"},
       "model=Qwen/Qwen2.5-1.5B-Instruct@3:41(v) micro_batch=8@6:35(l)"},
      // $MBS inside the heredoc is MBS=4 on line 3; the other values sit in the heredoc body.
      {"fixtures/scripts/syntax/heredoc_config.sh", 0, "train/hf-trainer",
       {"micro_batch", "grad_accum", "zero_stage", "dtype"},
       "micro_batch=4@3:5(v) grad_accum=8@7:34(c) zero_stage=3@8:34(c) dtype=amp-bf16@9:23(c)"},
      {"fixtures/scripts/syntax/continuations_and_quotes.sh", 0, "train/hf-trainer",
       {"model", "micro_batch", "grad_accum", "grad_ckpt", "nodes"},
       "model=meta-llama/Llama-3.2-3B@5:25(l) micro_batch=2@6:33(l) grad_accum=16@7:34(l) "
       "grad_ckpt=true@10:3(l) nodes=1@3:38(l)"},
      {"fixtures/scripts/syntax/unknown_env.sh", 0, "train/hf-trainer",
       {"micro_batch", "max_seq_len", "model"},
       "micro_batch=?@5:33(l) max_seq_len=?@6:20(l) model=Qwen/Qwen3-8B@4:24(l)"},
      // MODEL_ARGS comes from sourced_model_args.sh line 2.
      {"fixtures/scripts/syntax/sourced.sh", 0, "serve/sglang",
       {"model", "tp", "max_model_len", "gpu_memory_utilization"},
       "model=Qwen/Qwen3-4B@2:26(v) tp=1@2:50(v) max_model_len=40960@2:69(v) "
       "gpu_memory_utilization=0.8@6:74(l)"},
      {"fixtures/scripts/frameworks/slime_opd.sh", 1, "train/slime",
       {"tp", "recompute", "sp", "global_batch", "rollout_gpus", "max_tokens_per_gpu"},
       "tp=2@33:33(v) recompute=full@35:28(v) sp=true@34:4(l) global_batch=64@29:24(v) "
       "rollout_gpus=4@52:23(l) max_tokens_per_gpu=16384@37:25(v)"},
      {"fixtures/scripts/frameworks/slime_opd.sh", 2, "rollout/slime",
       {"gpu_memory_utilization", "rollout_tp"},
       "gpu_memory_utilization=0.4@42:33(v) rollout_tp=1@41:34(v)"},
      {"fixtures/scripts/frameworks/verl_grpo.sh", 0, "train/verl",
       {"micro_batch", "ppo_mini_batch", "grad_ckpt", "offload", "rollout_tp"},
       "micro_batch=40@14:58(l) ppo_mini_batch=256@13:49(l) grad_ckpt=true@12:59(l) "
       "offload=actor.optimizer@17:59(l) rollout_tp=2@18:58(l)"},
      {"fixtures/scripts/frameworks/verl_grpo.sh", 1, "rollout/verl",
       {"gpu_memory_utilization", "n_samples", "engine"},
       "gpu_memory_utilization=0.6@20:54(l) n_samples=5@21:33(l) engine=vllm@19:36(l)"},
      {"fixtures/scripts/frameworks/verl_sft.sh", 0, "train/verl-sft",
       {"micro_batch", "max_seq_len", "grad_ckpt", "model"},
       "micro_batch=4@7:35(l) max_seq_len=4096@8:21(l) grad_ckpt=false@10:41(l) "
       "model=Qwen/Qwen3-4B@9:28(l)"},
      // The underscore flags of OpenRLHF 0.9 and before, read with that release's defaults.
      {"fixtures/scripts/frameworks/openrlhf_ppo.sh", 0, "train/openrlhf-0.9",
       {"micro_batch", "zero_stage", "colocate", "rollout_tp", "max_response_len"},
       "micro_batch=8@12:29(l) zero_stage=3@16:17(l) colocate=true@9:4(l) rollout_tp=2@8:32(l) "
       "max_response_len=1024@15:23(l)"},
      // The dotted flags of 0.10.2 on, most from a bash array (values there are the array's,
      // "v"); the reference policy shares the actor's GPUs under --train.colocate_all and
      // forwards in the rollout's micro-batches. Columns counted by hand.
      {"fixtures/scripts/frameworks/openrlhf_dotted.sh", 0, "train/openrlhf",
       {"model", "max_seq_len", "zero_stage", "offload_train", "actor_gpus_per_node"},
       "model=Qwen/Qwen2.5-7B-Instruct@18:31(l) max_seq_len=4096@19:19(l) zero_stage=3@13:20(v) "
       "offload_train=true@12:4(l) actor_gpus_per_node=4@6:30(v)"},
      {"fixtures/scripts/frameworks/openrlhf_dotted.sh", 1, "rollout/openrlhf",
       {"rollout_tp", "engine_sleeps", "gpu_memory_utilization", "colocate"},
       "rollout_tp=1@8:32(v) engine_sleeps=true@10:4(l) gpu_memory_utilization=0.6@9:34(v) "
       "colocate=true@11:4(l)"},
      {"fixtures/scripts/frameworks/openrlhf_dotted.sh", 2, "reference/openrlhf",
       {"rollout_micro_batch", "ref_model", "zero_stage"},
       "rollout_micro_batch=4@21:31(l) ref_model=true(d) zero_stage=3@13:20(v)"},
      {"fixtures/scripts/frameworks/trl_sft.sh", 0, "train/trl",
       {"micro_batch", "lora_rank", "quant", "zero_stage"},
       "micro_batch=4@7:33(l) lora_rank=32@11:12(l) quant=nf4@12:3(l) zero_stage=2@5:15(c)"},
      {"fixtures/scripts/frameworks/trl_direct.sh", 0, "train/trl-dpo", {"grad_ckpt", "max_seq_len"},
       "grad_ckpt=true@6:28(l) max_seq_len=1024@7:16(l)"},
      {"fixtures/scripts/frameworks/llamafactory.sh", 0, "train/llamafactory",
       {"micro_batch", "lora_rank", "max_seq_len", "grad_ckpt"},
       "micro_batch=2@11:30(c) lora_rank=16@6:12(c) max_seq_len=2048@9:13(c) grad_ckpt=true(d)"},
      {"fixtures/scripts/frameworks/megatron_pretrain.sh", 0, "train/megatron",
       {"tp", "pp", "recompute", "nodes"},
       "tp=4@7:34(v) pp=2@8:36(v) recompute=selective@15:5(l) nodes=2@4:11(v)"},
      // tp comes from the shell (--tensor_parallel_size 2), the rest from create_data.py.
      {"fixtures/scripts/frameworks/vllm_python.sh", 0, "serve/vllm",
       {"tp", "model", "max_model_len", "gpu_memory_utilization"},
       "tp=2@3:71(l) model=Qwen/Qwen3-30B-A3B@6:15(c) max_model_len=32768@7:11(c) "
       "gpu_memory_utilization=0.9@13:73(c)"},
      {"fixtures/scripts/frameworks/hf_generate.sh", 0, "eval/transformers",
       {"model", "device_map", "quant"},
       "model=meta-llama/Llama-3.1-8B@5:29(l) device_map=auto@15:17(c) quant=nf4-dq@12:71(c)"},
      // Two devices: LitGPT's FSDP strategy, its checkpointing and no_sync accumulation.
      {"fixtures/scripts/frameworks/litgpt_lora.sh",
       0,
       "train/litgpt-lora",
       {"model", "nproc_per_node", "dtype", "micro_batch", "global_batch", "lora_rank", "fsdp",
        "grad_ckpt", "fsdp_no_sync", "fsdp_frozen_grads"},
       "model=meta-llama/Llama-2-7b-hf@4:22(l) nproc_per_node=2@5:13(l) dtype=bf16@6:15(l) "
       "micro_batch=1@7:28(l) global_batch=128@8:29(l) lora_rank=8@9:12(l) fsdp=full_shard(d) "
       "grad_ckpt=true(d) fsdp_no_sync=true(d) fsdp_frozen_grads=true(d)"},
      // `litgpt finetune lora --config X.yaml`: the YAML's keys (bf16-true is bf16); one
      // device, so no FSDP.
      {"fixtures/scripts/frameworks/litgpt_qlora.sh",
       0,
       "train/litgpt-lora",
       {"quant", "dtype", "lora_rank", "micro_batch", "max_seq_len", "fsdp"},
       "quant=nf4@5:11(c) dtype=bf16@4:12(c) lora_rank=32@7:9(c) micro_batch=2@14:21(c) "
       "max_seq_len=512@15:19(c) fsdp=?"},
      // key=value overrides after the recipe; the recipe's own config is not a file here.
      {"fixtures/scripts/frameworks/torchtune_lora.sh",
       0,
       "train/torchtune",
       {"model", "nproc_per_node", "micro_batch", "grad_accum", "grad_ckpt", "lora_rank",
        "fsdp_no_sync"},
       "model=/models/Meta-Llama-3.1-70B-Instruct@5:31(l) nproc_per_node=8@4:27(l) "
       "micro_batch=2@6:14(l) grad_accum=4@6:44(l) grad_ckpt=true@7:35(l) "
       "lora_rank=16@7:56(l) fsdp_no_sync=false(d)"},
  };
  for (const Row& row : rows) {
    INFO(row.fixture << " workload " << row.workload);
    SourceMap sources;
    ReadResult result = ReadFixture(row.fixture, &sources);
    REQUIRE(result.ok);
    REQUIRE(result.config.workloads.size() > row.workload);
    const auto& workload = result.config.workloads[row.workload];
    CHECK(workload.role + "/" + workload.framework == row.role_framework);
    CHECK(Dump(workload, row.names) == row.expected);
  }
}

TEST_CASE("GPUs and devices per workload", "[reader]") {
  struct Devices {
    const char* fixture;
    std::vector<std::pair<int, std::vector<int>>> gpus_and_devices;  // per workload
  };
  const Devices rows[] = {
      {"fixtures/scripts/syntax/env_prefix_and_cvd.sh", {{2, {0, 1}}, {2, {2, 3}}}},
      // Teacher pinned to GPU 7; slime's actor takes the first 2 GPUs, rollout the next 4.
      {"fixtures/scripts/frameworks/slime_opd.sh", {{1, {7}}, {2, {0, 1}}, {4, {2, 3, 4, 5}}}},
      // verl colocates actor, rollout, the old log-probs' forward and (use_kl_loss) the
      // reference policy on all 8 GPUs.
      {"fixtures/scripts/frameworks/verl_grpo.sh",
       {{8, {0, 1, 2, 3, 4, 5, 6, 7}},
        {8, {0, 1, 2, 3, 4, 5, 6, 7}},
        {8, {0, 1, 2, 3, 4, 5, 6, 7}},
        {8, {0, 1, 2, 3, 4, 5, 6, 7}}}},
      // torchrun 8 per node x 2 nodes.
      {"fixtures/scripts/frameworks/megatron_pretrain.sh", {{16, {0, 1, 2, 3, 4, 5, 6, 7}}}},
      // device_map="auto" over the 2 GPUs SLURM gives.
      {"fixtures/scripts/frameworks/hf_generate.sh", {{2, {0, 1}}}},
      // accelerate config: num_processes 8.
      {"fixtures/scripts/frameworks/trl_sft.sh", {{8, {0, 1, 2, 3, 4, 5, 6, 7}}}},
      // litgpt --devices 2; tune run --nproc_per_node 8.
      {"fixtures/scripts/frameworks/litgpt_lora.sh", {{2, {0, 1}}}},
      {"fixtures/scripts/frameworks/torchtune_lora.sh", {{8, {0, 1, 2, 3, 4, 5, 6, 7}}}},
  };
  for (const Devices& row : rows) {
    INFO(row.fixture);
    SourceMap sources;
    ReadResult result = ReadFixture(row.fixture, &sources);
    REQUIRE(result.config.workloads.size() == row.gpus_and_devices.size());
    for (size_t i = 0; i < row.gpus_and_devices.size(); ++i) {
      INFO("workload " << i);
      CHECK(result.config.workloads[i].gpus == row.gpus_and_devices[i].first);
      CHECK(result.config.workloads[i].devices == row.gpus_and_devices[i].second);
    }
  }
}

TEST_CASE("background jobs run at the same time as what follows, until wait", "[reader]") {
  SourceMap sources;
  ReadResult result = ReadFixture("fixtures/scripts/syntax/env_prefix_and_cvd.sh", &sources);
  REQUIRE(result.config.workloads.size() == 2);
  CHECK(result.config.workloads[0].concurrent_processes == std::vector<int>{1});
  CHECK(result.config.workloads[1].concurrent_processes == std::vector<int>{0});

  SourceMap more;
  ReadResult sequential = ReadFixture("fixtures/scripts/syntax/for_loop.sh", &more);
  REQUIRE(sequential.config.workloads.size() == 2);
  CHECK(sequential.config.workloads[0].concurrent_processes.empty());
}

TEST_CASE("jobs started in different arms of one if or case never run together", "[reader]") {
  SourceMap sources;
  ReadResult alternatives = gpulint::testing::ReadText(
      "if [ \"$MODE\" = big ]; then\n"
      "  vllm serve Qwen/Qwen3-8B &\n"
      "else\n"
      "  vllm serve Qwen/Qwen3-4B &\n"
      "fi\n"
      "case \"$EVAL\" in\n"
      "  a) python -m sglang.launch_server --model-path Qwen/Qwen3-0.6B & ;;\n"
      "  *) python -m sglang.launch_server --model-path Qwen/Qwen3-1.7B & ;;\n"
      "esac\n"
      "wait\n",
      &sources);
  REQUIRE(alternatives.config.workloads.size() == 4);
  // Each arm's server runs beside whichever server the other statement started, not beside its
  // own alternative.
  CHECK(alternatives.config.workloads[0].concurrent_processes == std::vector<int>{2, 3});
  CHECK(alternatives.config.workloads[1].concurrent_processes == std::vector<int>{2, 3});
  CHECK(alternatives.config.workloads[2].concurrent_processes == std::vector<int>{0, 1});
  CHECK(alternatives.config.workloads[3].concurrent_processes == std::vector<int>{0, 1});
}

TEST_CASE("OpenRLHF: each release's command line, its placement and its reference policy",
          "[reader]") {
  SourceMap sources;
  auto roles = [](const ReadResult& r) {
    std::string out;
    for (const gpulint::Workload& w : r.config.workloads)
      out += w.role + "/" + w.framework + ":" + std::to_string(w.gpus) + " ";
    return out;
  };
  // Dotted flags (0.10.2 on): engines on GPUs of their own, no reference beside the actor.
  ReadResult apart = gpulint::testing::ReadText(
      "python3 -m openrlhf.cli.train_ppo_ray --actor.model_name_or_path Qwen/Qwen3-4B "
      "--actor.num_gpus_per_node 4 --vllm.num_engines 2 --vllm.tensor_parallel_size 2\n",
      &sources);
  CHECK(roles(apart) == "train/openrlhf:4 rollout/openrlhf:4 ");
  REQUIRE(apart.config.workloads.size() == 2);
  CHECK(apart.config.workloads[1].devices == std::vector<int>{4, 5, 6, 7});
  // Colocated: the engines and the reference policy take the actor's GPUs.
  ReadResult together = gpulint::testing::ReadText(
      "python3 -m openrlhf.cli.train_ppo_ray --actor.model_name_or_path Qwen/Qwen3-4B "
      "--actor.num_gpus_per_node 4 --vllm.num_engines 4 --train.colocate_all\n",
      &sources);
  CHECK(roles(together) == "train/openrlhf:4 rollout/openrlhf:4 reference/openrlhf:4 ");
  for (const gpulint::Workload& w : together.config.workloads)
    CHECK(w.devices == std::vector<int>{0, 1, 2, 3});
  // Async training colocates the DeepSpeed models only: the engines get no placement group of
  // the actor's (train_ppo_ray.py:75) and come after the actor and reference.
  ReadResult async = gpulint::testing::ReadText(
      "python3 -m openrlhf.cli.train_ppo_ray --actor.model_name_or_path Qwen/Qwen3-4B "
      "--actor.num_gpus_per_node 4 --vllm.num_engines 4 --train.colocate_all "
      "--train.async_enable\n",
      &sources);
  CHECK(roles(async) == "train/openrlhf:4 rollout/openrlhf:4 reference/openrlhf:4 ");
  REQUIRE(async.config.workloads.size() == 3);
  CHECK(async.config.workloads[0].devices == std::vector<int>{0, 1, 2, 3});
  CHECK(async.config.workloads[1].devices == std::vector<int>{4, 5, 6, 7});
  CHECK(async.config.workloads[2].devices == std::vector<int>{0, 1, 2, 3});
  CHECK_FALSE(async.config.workloads[1].Bool("colocate").value_or(true));
  // The same in 0.9's spelling (train_ppo_ray.py:64 at v0.9.7).
  ReadResult async_old = gpulint::testing::ReadText(
      "python3 -m openrlhf.cli.train_ppo_ray --pretrain Qwen/Qwen3-4B "
      "--actor_num_gpus_per_node 4 --vllm_num_engines 4 --colocate_all_models --async_train\n",
      &sources);
  REQUIRE(async_old.config.workloads.size() == 3);
  CHECK(async_old.config.workloads[1].devices == std::vector<int>{4, 5, 6, 7});
  // A zero KL coefficient loads no reference policy (train_ppo_ray.py:93); any other does.
  ReadResult no_kl = gpulint::testing::ReadText(
      "python3 -m openrlhf.cli.train_ppo_ray --actor.model_name_or_path Qwen/Qwen3-4B "
      "--vllm.num_engines 8 --train.colocate_all --algo.kl.init_coef 0\n",
      &sources);
  CHECK(roles(no_kl) == "train/openrlhf:8 rollout/openrlhf:8 ");
  ReadResult kl = gpulint::testing::ReadText(
      "python3 -m openrlhf.cli.train_ppo_ray --actor.model_name_or_path Qwen/Qwen3-4B "
      "--vllm.num_engines 8 --train.colocate_actor_ref --algo.kl.init_coef 1e-3\n",
      &sources);
  CHECK(roles(kl) == "train/openrlhf:8 rollout/openrlhf:8 reference/openrlhf:8 ");
  REQUIRE(kl.config.workloads.size() == 3);
  CHECK(gpulint::testing::Dump(kl.config.workloads[2], {"ref_model"}) == "ref_model=true@1:148(l)");
  // Underscore flags (0.9 and before) are that release's: its micro-batch default is 4.
  ReadResult old = gpulint::testing::ReadText(
      "python3 -m openrlhf.cli.train_ppo_ray --pretrain Qwen/Qwen3-4B --vllm_num_engines 0\n",
      &sources);
  CHECK(roles(old) == "train/openrlhf-0.9:8 ");
  REQUIRE(old.config.workloads.size() == 1);
  CHECK(gpulint::testing::Dump(old.config.workloads[0], {"micro_batch"}) == "micro_batch=4(d)");
}

TEST_CASE("SGLang's DP attention runs inside the TP group: tp GPUs, not tp x dp", "[reader]") {
  SourceMap sources;
  ReadResult dp_attention = gpulint::testing::ReadText(
      "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 --dp 8 "
      "--enable-dp-attention\n",
      &sources);
  REQUIRE(dp_attention.config.workloads.size() == 1);
  CHECK(dp_attention.config.workloads[0].gpus == 8);
  // Without it, dp is replicas of the TP group.
  ReadResult replicas = gpulint::testing::ReadText(
      "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp 2 --dp 4\n", &sources);
  REQUIRE(replicas.config.workloads.size() == 1);
  CHECK(replicas.config.workloads[0].gpus == 8);
}

TEST_CASE("an environment variable without a default is unresolved, not guessed", "[reader]") {
  SourceMap sources;
  ReadResult result = ReadFixture("fixtures/scripts/syntax/unknown_env.sh", &sources);
  REQUIRE(result.config.unresolved.size() == 2);
  CHECK(result.config.unresolved[0].name == "micro_batch");
  CHECK(result.config.unresolved[0].reason.find("--env BATCH=VALUE") != std::string::npos);
  CHECK(result.config.unresolved[1].reason == "the output of a command substitution");

  gpulint::ReadOptions options;
  options.env["BATCH"] = "16";
  SourceMap given;
  ReadResult with_env = ReadFixture("fixtures/scripts/syntax/unknown_env.sh", &given, options);
  // The value is not written in the script: the span points at the flag, and it is not editable.
  CHECK(Dump(with_env.config.workloads[0], {"micro_batch"}) == "micro_batch=16@5:3(o)");
  CHECK_FALSE(with_env.config.workloads[0].Find("micro_batch")->editable);
}

TEST_CASE("SBATCH directives give the cluster", "[reader]") {
  SourceMap sources;
  ReadResult result = gpulint::testing::ReadText(
      "#!/bin/bash\n"
      "#SBATCH --job-name=x\n"
      "#SBATCH --gres=gpu:a100_80g:4\n"
      "#SBATCH -N 2\n"
      "#SBATCH --mem=256G\n"
      "echo start\n"
      "#SBATCH --gres=gpu:8\n",
      &sources);
  const auto& cluster = result.config.cluster;
  REQUIRE(cluster.gpu);
  CHECK(cluster.gpu->value.ToString() == "a100_80g");
  CHECK(cluster.gpu->span.line == 3);
  CHECK(cluster.gpu->span.col == 20);  // "#SBATCH --gres=gpu:" is 19 characters
  REQUIRE(cluster.gpus_per_node);
  CHECK(cluster.gpus_per_node->value.number == 4);  // the later directive comes after a command
  CHECK(cluster.gpus_per_node->span.col == 29);  // after "a100_80g:"
  REQUIRE(cluster.nodes);
  CHECK(cluster.nodes->value.number == 2);
  CHECK(cluster.other.at("mem").value.ToString() == "256G");
}

TEST_CASE("gpulint directives declare the GPU and an opaque model", "[reader]") {
  SourceMap sources;
  ReadResult result = gpulint::testing::ReadText(
      "# gpulint: gpu=H100-80GB model=Qwen/Qwen3-8B\n"
      "vllm serve \"$MODEL_PATH\" --max-model-len 8192\n",
      &sources);
  REQUIRE(result.config.cluster.gpu);
  CHECK(result.config.cluster.gpu->value.ToString() == "H100-80GB");
  REQUIRE(result.config.workloads.size() == 1);
  CHECK(Dump(result.config.workloads[0], {"model"}) == "model=Qwen/Qwen3-8B@1:32(x)");
}

TEST_CASE("a further model named by a flag shares the process's GPUs", "[reader]") {
  SourceMap sources;
  ReadResult result = gpulint::testing::ReadText(
      "accelerate launch src/main.py --model Qwen/Qwen2.5-7B-Instruct --batch-size 8 "
      "--evaluator-model Qwen/Qwen2.5-14B-Instruct\n",
      &sources);
  REQUIRE(result.config.workloads.size() == 2);
  const auto& train = result.config.workloads[0];
  const auto& eval = result.config.workloads[1];
  CHECK(train.role == "train");  // a distributed launcher, main.py has no role word: trains
  CHECK(Dump(train, {"model", "micro_batch"}) ==
        "model=Qwen/Qwen2.5-7B-Instruct@1:39(l) micro_batch=8@1:77(l)");
  CHECK(eval.role == "eval");
  CHECK(eval.shares_process_gpus);
  // 78 characters precede "--evaluator-model " (18 more): the value starts at column 97.
  CHECK(Dump(eval, {"model"}) == "model=Qwen/Qwen2.5-14B-Instruct@1:97(l)");
  CHECK(eval.devices == train.devices);
}

TEST_CASE("framework defaults are filled in and listed as assumptions", "[reader]") {
  SourceMap sources;
  gpulint::ReadOptions options;
  options.gpu_facts = [](const std::string&) {
    return std::optional<gpulint::GpuFacts>(gpulint::GpuFacts{"H100-80GB", 79.65});
  };
  options.gpu_override = "H100-80GB";
  ReadResult result = gpulint::testing::ReadText("vllm serve Qwen/Qwen3-8B\n", &sources, options);
  REQUIRE(result.config.workloads.size() == 1);
  const auto& w = result.config.workloads[0];
  // vLLM's get_batch_defaults: >= 70 GiB and not an A100: 8192 tokens, 1024 sequences.
  CHECK(Dump(w, {"gpu_memory_utilization", "max_num_batched_tokens", "max_num_seqs", "tp"}) ==
        "gpu_memory_utilization=0.9(d) max_num_batched_tokens=8192(d) max_num_seqs=1024(d) "
        "tp=1(d)");
  CHECK(w.assumptions.size() >= 4);

  SourceMap small;
  options.gpu_facts = [](const std::string&) {
    return std::optional<gpulint::GpuFacts>(gpulint::GpuFacts{"A100-80GB", 80});
  };
  ReadResult a100 = gpulint::testing::ReadText("vllm serve Qwen/Qwen3-8B\n", &small, options);
  CHECK(Dump(a100.config.workloads[0], {"max_num_batched_tokens"}) ==
        "max_num_batched_tokens=2048(d)");
}

TEST_CASE("binary input is refused, invalid UTF-8 is a note", "[reader]") {
  SourceMap sources;
  std::string binary("#!/bin/bash\n\0\1\2", 15);
  ReadResult result = gpulint::testing::ReadText(binary, &sources);
  CHECK_FALSE(result.ok);
  CHECK(result.error.find("binary") != std::string::npos);

  SourceMap more;
  ReadResult latin1 = gpulint::testing::ReadText("echo caf\xe9\nvllm serve x\n", &more);
  CHECK(latin1.ok);
  REQUIRE_FALSE(latin1.config.notes.empty());
  CHECK(latin1.config.notes[0].message.find("UTF-8") != std::string::npos);
  CHECK(latin1.config.notes[0].span.col == 9);  // the byte after "echo caf"

  // Past long ASCII runs (read eight bytes at a time), multi-byte characters are accepted and a
  // broken one is placed exactly.
  SourceMap utf8;
  ReadResult fine = gpulint::testing::ReadText(
      "# r\xc3\xa9sum\xc3\xa9 of the long comment \xe2\x80\x94 with a dash\nvllm serve x\n", &utf8);
  CHECK(fine.config.notes.empty());
  SourceMap broken;
  ReadResult cut = gpulint::testing::ReadText(
      "# a comment long enough to span several words\xe2\x80\nvllm serve x\n", &broken);
  REQUIRE_FALSE(cut.config.notes.empty());
  CHECK(cut.config.notes[0].span.line == 1);
  CHECK(cut.config.notes[0].span.col == 46);
}

TEST_CASE("a team's own module is read when a launcher starts it, a bare python -m tool is not",
          "[reader]") {
  SourceMap sources;
  ReadResult launched = gpulint::testing::ReadText(
      "torchrun --nproc_per_node 2 -m src.train --model Qwen/Qwen2.5-7B --batch-size 4\n",
      &sources);
  REQUIRE(launched.config.workloads.size() == 1);
  CHECK(launched.config.workloads[0].framework == "generic");
  CHECK(launched.config.workloads[0].gpus == 2);
  CHECK(Dump(launched.config.workloads[0], {"micro_batch"}) == "micro_batch=4@1:79(l)");

  ReadResult deepspeed = gpulint::testing::ReadText(
      "deepspeed --num_gpus 7 --module mypkg.sft --model_name_or_path Qwen/Qwen2.5-7B\n",
      &sources);
  REQUIRE(deepspeed.config.workloads.size() == 1);
  CHECK(deepspeed.config.workloads[0].gpus == 7);

  ReadResult tool = gpulint::testing::ReadText("python -m pip install vllm\n", &sources);
  CHECK(tool.config.workloads.empty());
}

TEST_CASE("PYTORCH_CUDA_ALLOC_CONF's expandable segments reach every workload of the command",
          "[reader][allocator]") {
  const std::string train =
      "torchrun --nproc_per_node 8 -m verl.trainer.fsdp_sft_trainer "
      "model.partial_pretrain=Qwen/Qwen3-4B\n";
  struct Row {
    std::string script;
    std::string expected;
  };
  const Row rows[] = {
      // As ms-swift's examples/train/full/qwen2_5_32b.sh writes it: a prefix assignment.
      {"PYTORCH_CUDA_ALLOC_CONF='expandable_segments:True' " + train,
       "expandable_segments=true@1:26(l)"},
      {"export PYTORCH_ALLOC_CONF=expandable_segments:True,max_split_size_mb:128\n" + train,
       "expandable_segments=true@1:27(l)"},
      {"env PYTORCH_CUDA_ALLOC_CONF=expandable_segments:False " + train,
       "expandable_segments=false@1:29(l)"},
      // A config without the option runs with PyTorch's default.
      {"PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128 " + train,
       "expandable_segments=false@1:25(l)"},
      // Nothing set, a value gpulint cannot read, a spelling PyTorch refuses: not set.
      {train, "expandable_segments=?"},
      {"PYTORCH_CUDA_ALLOC_CONF=$ALLOC " + train, "expandable_segments=?"},
      {"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:true " + train, "expandable_segments=?"},
  };
  for (const Row& row : rows) {
    INFO(row.script);
    SourceMap sources;
    ReadResult result = gpulint::testing::ReadText(row.script, &sources);
    REQUIRE(result.config.workloads.size() == 1);
    CHECK(gpulint::testing::Dump(result.config.workloads[0], {"expandable_segments"}) ==
          row.expected);
  }
  // Torch 2.9's name is read first, and said as the way the value came.
  SourceMap sources;
  ReadResult both = gpulint::testing::ReadText(
      "export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:False\n"
      "export PYTORCH_ALLOC_CONF=expandable_segments:True\n" + train, &sources);
  REQUIRE(both.config.workloads.size() == 1);
  const gpulint::Setting* expandable = both.config.workloads[0].Find("expandable_segments");
  REQUIRE(expandable);
  CHECK(expandable->value.boolean);
  CHECK(expandable->via == "PYTORCH_ALLOC_CONF");
}

TEST_CASE("a launcher's values no estimate or rule reads are no unknowns", "[reader]") {
  gpulint::SourceMap sources;
  // ray's --runtime-env-json built by a command substitution and torchrun's rendezvous address
  // from the environment were GL005 'not known; rules that need it are skipped': none does.
  ReadResult read = gpulint::testing::ReadText(
      "ray job submit --address=\"http://$HEAD:8265\" --runtime-env-json=\"$(cat env.json)\" -- "
      "torchrun --nproc_per_node 8 --master_addr $MASTER_ADDR --master_port $PORT train.py "
      "--model_name_or_path Qwen/Qwen3-8B --per_device_train_batch_size $BATCH\n",
      &sources);
  std::string names;
  for (const gpulint::Unresolved& u : read.config.unresolved) names += u.name + " ";
  // What a rule needs and the script leaves open is still said.
  CHECK(names == "micro_batch ");
}
