// rules/frameworks/openrlhf-ppo.toml: OpenRLHF's PPO without Ray (openrlhf.cli.train_ppo,
// v0.3.6-v0.6.1), four models in every DeepSpeed process.
#include <catch2/catch.hpp>

#include <string>

#include "lint/analysis/workload_estimate.h"
#include "tests/support/analysis_helpers.h"
#include "tests/support/process.h"
#include "tests/support/reader_helpers.h"

namespace {

// "role:model" for every workload, in order.
std::string Models(const gpulint::ReadResult& read) {
  std::string out;
  for (const gpulint::Workload& w : read.config.workloads) {
    const gpulint::Setting* model = w.Find("model");
    out += w.role + ":" + (model ? model->value.ToString() : "?") + " ";
  }
  return out;
}

}  // namespace

TEST_CASE("OpenRLHF PPO without Ray: actor, reference, critic and reward in every process",
          "[frameworks]") {
  gpulint::SourceMap sources;
  // train_ppo.py:375-376: the critic starts from the reward model unless --critic_pretrain
  // names one, wherever that flag stands.
  auto read = gpulint::testing::ReadText(
      "deepspeed --num_gpus 8 --module openrlhf.cli.train_ppo --pretrain Qwen/Qwen2.5-7B "
      "--reward_pretrain Qwen/Qwen2.5-1.5B --zero_stage 2 --bf16\n",
      &sources);
  CHECK(Models(read) == "train:Qwen/Qwen2.5-7B reference:Qwen/Qwen2.5-7B "
                        "critic:Qwen/Qwen2.5-1.5B reward:Qwen/Qwen2.5-1.5B ");
  for (const gpulint::Workload& w : read.config.workloads) {
    CHECK(w.framework == "openrlhf-ppo");
    CHECK(w.gpus == 8);
  }
  for (const char* order :
       {"--critic_pretrain Qwen/Qwen2.5-0.5B --reward_pretrain Qwen/Qwen2.5-1.5B",
        "--reward_pretrain Qwen/Qwen2.5-1.5B --critic_pretrain Qwen/Qwen2.5-0.5B"}) {
    INFO(order);
    auto named = gpulint::testing::ReadText(
        std::string("deepspeed --module openrlhf.cli.train_ppo --pretrain Qwen/Qwen2.5-7B ") +
            order + "\n",
        &sources);
    CHECK(Models(named) == "train:Qwen/Qwen2.5-7B reference:Qwen/Qwen2.5-7B "
                           "critic:Qwen/Qwen2.5-0.5B reward:Qwen/Qwen2.5-1.5B ");
  }
}

TEST_CASE("OpenRLHF issue #398: four Llama-3-8B copies per A100-40GB do not fit",
          "[frameworks][rules]") {
  // ZeRO-2 over 8 GPUs: the frozen reference and reward models are whole bf16 copies on every
  // GPU (utils/deepspeed.py:222 runs them at stage 0), 8.03e9 x 2 bytes = 15.0 GiB each.
  const std::string script =
      "# gpulint: gpu=A100-40GB\n"
      "deepspeed --num_gpus 8 --module openrlhf.cli.train_ppo --pretrain meta-llama/Meta-Llama-3-8B "
      "--reward_pretrain meta-llama/Meta-Llama-3-8B --micro_train_batch_size 2 "
      "--train_batch_size 64 --micro_rollout_batch_size 4 --rollout_batch_size 512 "
      "--prompt_max_len 1024 --generate_max_len 1024 --zero_stage 2 --bf16\n";
  auto analyzed = gpulint::testing::AnalyzeText(script, "train_ppo.sh");
  const auto& analysis = analyzed->analysis;
  const auto& reference =
      analysis.estimates[gpulint::testing::WorkloadWithRole(analysis, "reference")];
  REQUIRE(reference.breakdown);
  CHECK(reference.breakdown->weights / (1024.0 * 1024 * 1024) ==
        Approx(8.03e9 * 2 / (1024.0 * 1024 * 1024)).epsilon(0.01));
  // The actor's optimizer states are sharded 8 ways: 12 bytes a parameter / 8.
  const auto& actor = analysis.estimates[gpulint::testing::WorkloadWithRole(analysis, "train")];
  REQUIRE(actor.breakdown);
  CHECK(actor.breakdown->optimizer / (1024.0 * 1024 * 1024) ==
        Approx(8.03e9 * 12 / 8 / (1024.0 * 1024 * 1024)).epsilon(0.02));
  gpulint::testing::TempDir dir;
  auto lint = gpulint::testing::RunGpulint({"lint", "--isolated", dir.Write("a.sh", script)});
  CHECK(lint.exit_code == 1);
  CHECK(lint.out.find("GL101") != std::string::npos);
}

TEST_CASE("deepspeed with no GPU count: judged where any count gives the same verdict",
          "[frameworks][rules]") {
  // `deepspeed` with neither --num_gpus nor declared devices runs on every visible GPU, and
  // how many that is the script does not say: not one GPU.
  gpulint::SourceMap sources;
  auto read = gpulint::testing::ReadText(
      "deepspeed --module openrlhf.cli.train_ppo --pretrain Qwen/Qwen2.5-7B\n", &sources);
  REQUIRE(!read.config.workloads.empty());
  CHECK(read.config.workloads[0].gpus == 0);
  gpulint::testing::TempDir dir;
  // Issue #398's job without a count: four whole Llama-3-8B copies under ZeRO-2 leave no room
  // at any count, so the least estimate (states divided as over any number of GPUs) is judged.
  const std::string any_count =
      "# gpulint: gpu=A100-40GB\ndeepspeed --module openrlhf.cli.train_ppo --pretrain "
      "meta-llama/Meta-Llama-3-8B --reward_pretrain meta-llama/Meta-Llama-3-8B "
      "--micro_train_batch_size 2 --micro_rollout_batch_size 4 --zero_stage 2 --bf16\n";
  auto lint = gpulint::testing::RunGpulint({"lint", "--isolated", dir.Write("a.sh", any_count)});
  CHECK(lint.out.find("GL101") != std::string::npos);
  auto estimate =
      gpulint::testing::RunGpulint({"estimate", "--isolated", dir.Write("a.sh", any_count)});
  CHECK(estimate.out.find("states divided as over any number of GPUs, the least this job "
                          "needs") != std::string::npos);
  // The first of its GPUs stands for all: the four models in each process still add up there.
  CHECK(estimate.out.find("GPU 0 is shared: train (line 2) + reference (line 2) + critic (line "
                          "2) + reward (line 2)") != std::string::npos);
  // ZeRO-3 shards the weights too: 7B models fit over enough GPUs and not on one, so the count
  // decides and no error is claimed until it is known.
  const std::string zero3 =
      "# gpulint: gpu=A100-80GB\ndeepspeed{} --module openrlhf.cli.train_ppo --pretrain "
      "Qwen/Qwen2.5-7B --reward_pretrain Qwen/Qwen2.5-7B --zero_stage 3 --bf16 "
      "--gradient_checkpointing --micro_train_batch_size 1 --micro_rollout_batch_size 1\n";
  auto with = [&](const std::string& count) {
    std::string text = zero3;
    text.replace(text.find("{}"), 2, count);
    return text;
  };
  CHECK(gpulint::testing::RunGpulint({"lint", "--isolated", dir.Write("b.sh", with(""))})
            .out.find("GL101") == std::string::npos);
  CHECK(gpulint::testing::RunGpulint(
            {"lint", "--isolated", dir.Write("c.sh", with(" --num_gpus 1"))})
            .out.find("GL101") != std::string::npos);
}
