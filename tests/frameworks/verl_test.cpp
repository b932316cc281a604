// rules/frameworks/verl.toml: verl's PPO trainer (verl.trainer.main_ppo) runs the actor, the
// rollout engine and, under GAE, a critic on the same GPUs, the critic in the actor's processes.
#include <catch2/catch.hpp>

#include <string>

#include "lint/analysis/workload_estimate.h"
#include "tests/support/analysis_helpers.h"
#include "tests/support/lint_helpers.h"
#include "tests/support/process.h"
#include "tests/support/reader_helpers.h"

namespace {

// "role" for every workload, in order.
std::string Roles(const gpulint::ReadResult& read) {
  std::string out;
  for (const gpulint::Workload& w : read.config.workloads) out += w.role + " ";
  return out;
}

const gpulint::Workload* WithRole(const gpulint::ReadResult& read, const std::string& role) {
  for (const gpulint::Workload& w : read.config.workloads)
    if (w.role == role) return &w;
  return nullptr;
}

std::string Text(const gpulint::Workload& w, const char* setting) {
  const gpulint::Setting* s = w.Find(setting);
  return s ? s->value.ToString() : "?";
}

const std::string kPpo =
    "python3 -m verl.trainer.main_ppo data.train_batch_size=256 data.max_prompt_length=512 "
    "data.max_response_length=512 actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct "
    "actor_rollout_ref.actor.ppo_mini_batch_size=64 "
    "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 actor_rollout_ref.rollout.name=vllm "
    "critic.model.path=Qwen/Qwen2.5-1.5B-Instruct critic.ppo_micro_batch_size_per_gpu=2 "
    "trainer.n_gpus_per_node=4 trainer.nnodes=1";

}  // namespace

TEST_CASE("verl trains a critic under GAE, its default estimator, and not under GRPO",
          "[frameworks]") {
  gpulint::SourceMap sources;
  // verl/trainer/ppo/utils.py:86-91 need_critic: critic.enable decides where set, else GAE.
  auto gae = gpulint::testing::ReadText(kPpo + "\n", &sources);
  CHECK(Roles(gae) == "train rollout critic logprob ");
  auto grpo = gpulint::testing::ReadText(kPpo + " algorithm.adv_estimator=grpo\n", &sources);
  CHECK(Roles(grpo) == "train rollout logprob ");
  auto enabled = gpulint::testing::ReadText(
      kPpo + " algorithm.adv_estimator=grpo critic.enable=True\n", &sources);
  CHECK(Roles(enabled) == "train rollout critic logprob ");
  auto disabled = gpulint::testing::ReadText(
      kPpo + " algorithm.adv_estimator=gae critic.enable=False\n", &sources);
  CHECK(Roles(disabled) == "train rollout logprob ");

  const gpulint::Workload* critic = WithRole(gae, "critic");
  REQUIRE(critic);
  CHECK(critic->shares_process_gpus);
  CHECK(critic->gpus == 4);
  CHECK(Text(*critic, "model") == "Qwen/Qwen2.5-1.5B-Instruct");
  CHECK(Text(*critic, "micro_batch") == "2");
  // The critic's mini-batch is the actor's unless critic.ppo_mini_batch_size says otherwise,
  // wherever either stands on the command line.
  CHECK(Text(*critic, "ppo_mini_batch") == "64");
  for (const std::string& order :
       {std::string(" critic.ppo_mini_batch_size=32"),
        std::string(" critic.ppo_mini_batch_size=32 actor_rollout_ref.actor.ppo_mini_batch_size=64")}) {
    auto own = gpulint::testing::ReadText(kPpo + order + "\n", &sources);
    REQUIRE(WithRole(own, "critic"));
    CHECK(Text(*WithRole(own, "critic"), "ppo_mini_batch") == "32");
    CHECK(Text(*WithRole(own, "train"), "ppo_mini_batch") == "64");
  }
}

TEST_CASE("verl's critic: its own token budget, and its memory held beside the actor's",
          "[frameworks]") {
  // Dynamic batching follows the actor's switch; the token budgets differ by default
  // (actor/actor.yaml:33 16384, critic/critic.yaml:65 32768).
  auto analyzed =
      gpulint::testing::AnalyzeText("# gpulint: gpu=H100-80GB\n" + kPpo +
                                    " actor_rollout_ref.actor.use_dynamic_bsz=True\n");
  const auto& analysis = analyzed->analysis;
  const auto& config = analysis.read.config;
  const gpulint::Workload* actor = nullptr;
  const gpulint::Workload* critic = nullptr;
  for (const gpulint::Workload& w : config.workloads) {
    if (w.role == "train") actor = &w;
    if (w.role == "critic") critic = &w;
  }
  REQUIRE(actor);
  REQUIRE(critic);
  CHECK(Text(*actor, "dynamic_batch") == "true");
  CHECK(Text(*critic, "dynamic_batch") == "true");
  CHECK(Text(*actor, "max_tokens_per_gpu") == "16384");
  CHECK(Text(*critic, "max_tokens_per_gpu") == "32768");
  // The critic is a 1.5B value model in fp32 under FSDP over 4 GPUs: fp32 gradients and
  // Adam's two moments, 4 and 8 bytes a parameter / 4, with no vocabulary head (Qwen2.5-1.5B
  // ties its head to the embedding, so the count is the model's 1.54e9); the weights add the
  // layers FSDP gathers. All of it stays through generation (no critic offload by default).
  const auto& estimate = analysis.estimates[gpulint::testing::WorkloadWithRole(analysis, "critic")];
  REQUIRE(estimate.breakdown);
  CHECK(estimate.breakdown->gradients == Approx(1.54e9 * 4 / 4).epsilon(0.02));
  CHECK(estimate.breakdown->optimizer == Approx(1.54e9 * 8 / 4).epsilon(0.02));
  CHECK(estimate.breakdown->weights > 1.54e9 * 4 / 4);
  CHECK(estimate.persistent_bytes == Approx(estimate.breakdown->weights +
                                            estimate.breakdown->gradients +
                                            estimate.breakdown->optimizer));
  CHECK(estimate.breakdown->logits < 1e6);  // one value per token
  // Without the critic the GPUs hold less: it stays on the GPU through generation.
  auto grpo = gpulint::testing::AnalyzeText("# gpulint: gpu=H100-80GB\n" + kPpo +
                                            " actor_rollout_ref.actor.use_dynamic_bsz=True "
                                            "algorithm.adv_estimator=grpo\n");
  REQUIRE(!analysis.devices.empty());
  REQUIRE(!grpo->analysis.devices.empty());
  CHECK(analysis.devices[0].bytes - grpo->analysis.devices[0].bytes >=
        0.9 * estimate.persistent_bytes);
}

TEST_CASE("verl keeps a reference policy for a KL loss or penalty, none under LoRA",
          "[frameworks]") {
  gpulint::SourceMap sources;
  const std::string grpo = kPpo + " algorithm.adv_estimator=grpo";
  // verl/trainer/ppo/utils.py need_reference_policy: use_kl_in_reward or actor.use_kl_loss.
  CHECK(Roles(gpulint::testing::ReadText(grpo + "\n", &sources)) == "train rollout logprob ");
  auto kl = gpulint::testing::ReadText(grpo + " actor_rollout_ref.actor.use_kl_loss=True\n",
                                       &sources);
  CHECK(Roles(kl) == "train rollout logprob reference ");
  CHECK(Roles(gpulint::testing::ReadText(grpo + " algorithm.use_kl_in_reward=True\n", &sources)) ==
        "train rollout logprob reference ");
  // Under LoRA the actor without its adapter is the reference (fsdp_workers.py:1042-1045).
  CHECK(Roles(gpulint::testing::ReadText(
            grpo + " actor_rollout_ref.actor.use_kl_loss=True actor_rollout_ref.model.lora_rank=32\n",
            &sources)) == "train rollout logprob ");
  CHECK(Roles(gpulint::testing::ReadText(
            grpo + " actor_rollout_ref.actor.use_kl_loss=True actor_rollout_ref.model.lora_rank=0\n",
            &sources)) == "train rollout logprob reference ");
  // FSDP: verl always CPU-offloads the reference (fsdp_workers.py:524-526), built in fp32 as
  // the actor (its fsdp_config is the engine's: model_dtype fp32) and run in bf16.
  const gpulint::Workload* ref = WithRole(kl, "reference");
  REQUIRE(ref);
  CHECK(ref->shares_process_gpus);
  CHECK(Text(*ref, "model") == "Qwen/Qwen2.5-0.5B-Instruct");
  CHECK(Text(*ref, "offload") == "ref.param");
  CHECK(Text(*ref, "dtype") == "amp-bf16");
  // Megatron: the reference's parallelism is the actor's unless ref.megatron.* sets its own.
  const std::string megatron =
      "python3 -m verl.trainer.main_ppo --config-name=ppo_megatron_trainer "
      "algorithm.adv_estimator=grpo actor_rollout_ref.actor.use_kl_loss=True "
      "actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct "
      "actor_rollout_ref.actor.megatron.tensor_model_parallel_size=4 "
      "actor_rollout_ref.actor.megatron.pipeline_model_parallel_size=2";
  auto same = gpulint::testing::ReadText(megatron + "\n", &sources);
  REQUIRE(WithRole(same, "reference"));
  CHECK(Text(*WithRole(same, "reference"), "tp") == "4");
  CHECK(Text(*WithRole(same, "reference"), "pp") == "2");
  CHECK(Text(*WithRole(same, "reference"), "offload") == "none");  // held on the GPU
  CHECK(Text(*WithRole(same, "reference"), "dtype") == "bf16");    // no fp32 main params
  auto own = gpulint::testing::ReadText(
      megatron + " actor_rollout_ref.ref.megatron.tensor_model_parallel_size=2\n", &sources);
  REQUIRE(WithRole(own, "reference"));
  CHECK(Text(*WithRole(own, "reference"), "tp") == "2");
  CHECK(Text(*WithRole(own, "train"), "tp") == "4");
}

TEST_CASE("what verl holds whatever the data still overfills a GPU beside a greedy engine",
          "[frameworks][rules]") {
  // verl's Megatron PPO example with a 7B critic (TP 1: bf16 weights, fp32 gradients, a
  // distributed optimizer over 8) and a 7B actor at TP 2 x PP 2, the engine at 0.8: the critic's
  // own step is the data's size (unpadded), but the states it and the actor hold and the
  // engine's claim come to about 141 GiB of 95.6 whatever the lengths. vLLM from 0.9.2 on
  // claims its budget per instance on top of them.
  const std::string script =
      "# gpulint: gpu=H20-96GB vllm=0.10.0\n"
      "python3 -m verl.trainer.main_ppo --config-name=ppo_megatron_trainer "
      "algorithm.adv_estimator=gae data.train_batch_size=256 data.max_prompt_length=1024 "
      "data.max_response_length=512 actor_rollout_ref.model.path=deepseek-ai/deepseek-llm-7b-chat "
      "actor_rollout_ref.actor.ppo_mini_batch_size=64 "
      "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 "
      "actor_rollout_ref.actor.megatron.pipeline_model_parallel_size=2 "
      "actor_rollout_ref.actor.megatron.tensor_model_parallel_size=2 "
      "actor_rollout_ref.rollout.tensor_model_parallel_size=2 actor_rollout_ref.rollout.name=vllm "
      "actor_rollout_ref.rollout.gpu_memory_utilization=0.8 "
      "critic.model.path=deepseek-ai/deepseek-llm-7b-chat critic.ppo_micro_batch_size_per_gpu=4 "
      "trainer.n_gpus_per_node=8 trainer.nnodes=1\n";
  gpulint::testing::TempDir dir;
  auto lint = gpulint::testing::RunGpulint({"lint", "--isolated", dir.Write("ppo.sh", script)});
  INFO(lint.out);
  // The critic's step alone fits even at the longest sequences: verl's hybrid engine runs the
  // trainer's process with expandable segments, so no fragmentation range is left to the data.
  CHECK(lint.out.find("GL008") == std::string::npos);
  CHECK(lint.out.find("GL113") == std::string::npos);
  CHECK(lint.out.find("error[GL104") != std::string::npos);
  CHECK(lint.out.find("train (line 2) + rollout (line 2) + critic (line 2)") != std::string::npos);
  // vLLM 0.8.5 to 0.9.1 size the pool to what the device leaves: the engine shrinks around
  // both states and starts; no error.
  std::string older = script;
  older.replace(older.find("vllm=0.10.0"), 11, "vllm=0.9.1");
  auto shrinks = gpulint::testing::RunGpulint({"lint", "--isolated", dir.Write("old.sh", older)});
  CHECK(shrinks.out.find("GL104") == std::string::npos);
}

TEST_CASE("verl recomputes the actor's old log-probs in the rollout's micro-batches",
          "[frameworks]") {
  gpulint::SourceMap sources;
  // ray_trainer.py:1491-1502: recomputed unless rollout correction's bypass mode is on; a
  // forward of the actor's own weights (held by the trainer) with the entropy of every logit.
  auto read = gpulint::testing::ReadText(
      kPpo + " actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=16\n", &sources);
  const gpulint::Workload* logprob = WithRole(read, "logprob");
  REQUIRE(logprob);
  CHECK(logprob->shares_process_gpus);
  CHECK(Text(*logprob, "micro_batch") == "16");
  CHECK(Text(*logprob, "forward_only") == "true");
  CHECK(Text(*logprob, "logit_entropy") == "true");
  CHECK(Text(*logprob, "offload") == "actor.param");  // no second copy of the weights
  CHECK(Roles(gpulint::testing::ReadText(
            kPpo + " algorithm.rollout_correction.bypass_mode=True\n", &sources)) ==
        "train rollout critic ");
  // Its logits: 16 sequences x 1024 tokens x Qwen2.5's 151,936 words, in bf16, with the
  // entropy's softmax and product beside them (3 x 2 bytes a logit).
  auto analyzed = gpulint::testing::AnalyzeText(
      "# gpulint: gpu=H100-80GB\n" + kPpo +
      " actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=16\n");
  const auto& e =
      analyzed->analysis.estimates[gpulint::testing::WorkloadWithRole(analyzed->analysis, "logprob")];
  REQUIRE(e.breakdown);
  CHECK(e.breakdown->logits == Approx(16.0 * 1024 * 151936 * 6).epsilon(0.01));
  CHECK(e.breakdown->gradients == 0);
  CHECK(e.breakdown->optimizer == 0);
}

TEST_CASE("verl's trainer process allocates in expandable segments, its engine as it will",
          "[frameworks][allocator]") {
  // fsdp_workers.py:756 and megatron_workers.py:737: rollout_mode ends by turning them on for
  // the process that trains, and every role fused into it.
  gpulint::SourceMap sources;
  auto read = gpulint::testing::ReadText(kPpo + " actor_rollout_ref.actor.use_kl_loss=True\n",
                                         &sources);
  for (const char* role : {"train", "critic", "logprob", "reference"}) {
    INFO(role);
    const gpulint::Workload* w = WithRole(read, role);
    REQUIRE(w);
    CHECK(Text(*w, "expandable_segments") == "true");
  }
  const gpulint::Workload* rollout = WithRole(read, "rollout");
  REQUIRE(rollout);
  CHECK(Text(*rollout, "expandable_segments") == "?");
}

TEST_CASE("a pinned verl release is read with that release's defaults", "[frameworks]") {
  // Read at each release tag (rules/frameworks/verl-0.6.toml, verl-0.5.toml): unpadded FSDP
  // passes by default from 0.7 only, CUDA graphs and expandable segments from 0.6, a bf16
  // FSDP reference and a TP-1 Megatron rollout before 0.6.
  gpulint::SourceMap sources;
  const std::string kl = kPpo + " actor_rollout_ref.actor.use_kl_loss=True\n";
  auto newest = gpulint::testing::ReadText(kl, &sources);
  REQUIRE(WithRole(newest, "train"));
  CHECK(WithRole(newest, "train")->framework == "verl");
  CHECK(Text(*WithRole(newest, "train"), "padding_free") == "true");
  CHECK(Text(*WithRole(newest, "rollout"), "max_num_seqs") == "256");

  auto six = gpulint::testing::ReadText("# gpulint: verl=0.6.1\n" + kl, &sources);
  REQUIRE(WithRole(six, "train"));
  CHECK(WithRole(six, "train")->framework == "verl-0.6");
  CHECK(WithRole(six, "train")->release_pinned);
  CHECK(Text(*WithRole(six, "train"), "padding_free") == "false");
  CHECK(Text(*WithRole(six, "logprob"), "padding_free") == "false");
  CHECK(Text(*WithRole(six, "rollout"), "max_num_seqs") == "1024");
  CHECK(Text(*WithRole(six, "rollout"), "engine_version") == ">=0.8.5,<=0.11.0");
  CHECK(Text(*WithRole(six, "train"), "expandable_segments") == "true");
  CHECK(Text(*WithRole(six, "reference"), "dtype") == "amp-bf16");

  auto five = gpulint::testing::ReadText("pip install verl==0.5.0\n" + kl, &sources);
  REQUIRE(WithRole(five, "train"));
  CHECK(WithRole(five, "train")->framework == "verl-0.5");
  CHECK(Text(*WithRole(five, "train"), "padding_free") == "false");
  CHECK(Text(*WithRole(five, "rollout"), "enforce_eager") == "true");
  CHECK(Text(*WithRole(five, "rollout"), "engine_version") == "<=0.8.5");
  CHECK(Text(*WithRole(five, "rollout"), "max_num_seqs") == "?");  // not passed: vLLM's own
  CHECK(Text(*WithRole(five, "train"), "expandable_segments") == "false");
  CHECK(Text(*WithRole(five, "reference"), "dtype") == "bf16");

  const std::string megatron =
      "# gpulint: verl=0.4.1\n"
      "python3 -m verl.trainer.main_ppo --config-name=ppo_megatron_trainer "
      "actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct "
      "actor_rollout_ref.actor.megatron.tensor_model_parallel_size=2\n";
  auto four = gpulint::testing::ReadText(megatron, &sources);
  REQUIRE(WithRole(four, "rollout"));
  CHECK(WithRole(four, "rollout")->framework == "verl-0.5");
  CHECK(Text(*WithRole(four, "rollout"), "rollout_tp") == "1");
  CHECK(Text(*WithRole(four, "train"), "padding_free") == "true");  // Megatron packs always
  CHECK(Text(*WithRole(four, "rollout"), "enable_chunked_prefill") == "false");

  // A release no map models is not read with another's defaults.
  auto three = gpulint::testing::ReadText("# gpulint: verl=0.3.0\n" + kl, &sources);
  CHECK_FALSE(WithRole(three, "train"));
}

TEST_CASE("verl before 0.7 refuses a prefill budget below the rollout's length", "[frameworks]") {
  // vllm_rollout_spmd.py (v0.5.0:138-141, v0.6.1:195-201): max_model_len is prompt + response
  // unless set, and chunked prefill (on by default) needs max_num_batched_tokens (8192) to hold
  // it. verl 0.7's server has no such check.
  const std::string job =
      "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct "
      "data.train_batch_size=64 data.max_prompt_length=2048 data.max_response_length=8192 "
      "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 trainer.n_gpus_per_node=8\n";
  auto old = gpulint::testing::AnalyzeText("# gpulint: gpu=H100-80GB verl=0.6\n" + job);
  size_t rollout = gpulint::testing::WorkloadWithRole(old->analysis, "rollout");
  const auto& missed = old->analysis.read.config.workloads[rollout].unmet_bounds;
  REQUIRE(missed.size() == 1);
  CHECK(missed[0].setting == "max_num_batched_tokens");
  CHECK(missed[0].value == 8192);
  CHECK(missed[0].needed == 10240);
  CHECK(missed[0].refuses);
  auto newest = gpulint::testing::AnalyzeText("# gpulint: gpu=H100-80GB\n" + job);
  rollout = gpulint::testing::WorkloadWithRole(newest->analysis, "rollout");
  CHECK(newest->analysis.read.config.workloads[rollout].unmet_bounds.empty());
}

TEST_CASE("verl's rollout TP must divide the GPUs it shares with the trainer (GL204)",
          "[frameworks][rules]") {
  // verl-project/verl#1191: one GPU and the rollout's default TP of 2
  // (verl/trainer/config/rollout/rollout.yaml:50 at b178a3cd); verl asserts world_size %
  // infer_world_size == 0 (verl/workers/fsdp_workers.py:622-627).
  const std::string one_gpu =
      "# gpulint: gpu=H100-80GB\n"
      "python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo \\\n"
      "  actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct \\\n"
      "  actor_rollout_ref.rollout.name=vllm trainer.n_gpus_per_node=1 trainer.nnodes=1";
  using gpulint::testing::HasRule;
  using gpulint::testing::RulesOfScript;
  CHECK(HasRule(RulesOfScript(one_gpu), "GL204"));
  CHECK_FALSE(HasRule(
      RulesOfScript(one_gpu + " \\\n  actor_rollout_ref.rollout.tensor_model_parallel_size=1"),
      "GL204"));
  // On 8 GPUs the default TP of 2 divides them.
  std::string eight = one_gpu;
  eight.replace(eight.find("n_gpus_per_node=1"), 17, "n_gpus_per_node=8");
  CHECK_FALSE(HasRule(RulesOfScript(eight), "GL204"));
}
