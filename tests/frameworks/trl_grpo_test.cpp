// rules/frameworks/trl-grpo*.toml: TRL's GRPO trainer, its vLLM engine in the trainer's own
// processes ("colocate"), its reference policy, and the release the project pins.
#include <catch2/catch.hpp>

#include "estimator/units.h"
#include "lint/analysis/colocation.h"
#include "lint/analysis/workload_estimate.h"
#include "tests/support/analysis_helpers.h"
#include "tests/support/lint_helpers.h"
#include "tests/support/reader_helpers.h"

using namespace gpulint;
using gpulint::testing::AnalyzeText;
using gpulint::testing::Dump;
using gpulint::testing::ReadText;
using gpulint::testing::Role;

namespace {

// The shape of TRL's own GRPO examples (docs/source/grpo_trainer.md): accelerate over 8 GPUs.
const char* kGrpo =
    "accelerate launch --num_processes 8 -m trl.scripts.grpo \\\n"
    "  --model_name_or_path Qwen/Qwen2.5-1.5B-Instruct --use_vllm \\\n"
    "  --per_device_train_batch_size 4 --max_completion_length 1024";

}  // namespace

TEST_CASE("TRL 1.x GRPO with use_vllm: an engine in the trainer's processes, on its GPUs",
          "[frameworks]") {
  SourceMap sources;
  ReadResult read = ReadText(std::string(kGrpo) + "\n", &sources);
  const Workload* train = Role(read.config, "train");
  const Workload* rollout = Role(read.config, "rollout");
  REQUIRE(train);
  REQUIRE(rollout);
  CHECK(train->framework == "trl-grpo");
  CHECK(rollout->devices == train->devices);
  CHECK(rollout->process == train->process);
  CHECK(Dump(*rollout, {"gpu_memory_utilization", "engine_sleeps", "rollout_tp"}) ==
        "gpu_memory_utilization=0.3(d) engine_sleeps=false(d) rollout_tp=1(d)");
  // GRPOConfig has no max_length: the sequence is an untruncated prompt and the completion.
  CHECK_FALSE(train->Find("max_seq_len"));
  CHECK_FALSE(train->Find("max_prompt_len"));
  CHECK(Dump(*train, {"max_response_len", "loss_path"}).rfind("max_response_len=1024@3:", 0) == 0);
  CHECK_FALSE(Role(read.config, "reference"));  // beta defaults to 0
}

TEST_CASE("TRL GRPO: server mode runs no engine here, and beta loads a reference unless PEFT",
          "[frameworks]") {
  SourceMap sources;
  ReadResult server =
      ReadText(std::string(kGrpo) + " --vllm_mode server --beta 0.04\n", &sources);
  CHECK_FALSE(Role(server.config, "rollout"));
  const Workload* reference = Role(server.config, "reference");
  REQUIRE(reference);
  CHECK(reference->shares_process_gpus);

  ReadResult peft = ReadText(std::string(kGrpo) + " --beta 0.04 --use_peft\n", &sources);
  CHECK(Role(peft.config, "rollout"));
  CHECK_FALSE(Role(peft.config, "reference"));  // the adapters are disabled instead
}

TEST_CASE("a pinned trl release picks the map of that release, and one no map models is not read",
          "[frameworks][version]") {
  SourceMap sources;
  // v0.23-v0.25: server by default, prompts cut to 512, completions of 256.
  ReadResult old = ReadText("# gpulint: trl=0.24\n" + std::string(kGrpo) + "\n", &sources);
  const Workload* train = Role(old.config, "train");
  REQUIRE(train);
  CHECK(train->framework == "trl-grpo-0.23");
  CHECK_FALSE(Role(old.config, "rollout"));
  CHECK(Dump(*train, {"max_prompt_len"}) == "max_prompt_len=512(d)");
  ReadResult colocated = ReadText(
      "# gpulint: trl=0.24\n" + std::string(kGrpo) + " --vllm_mode colocate\n", &sources);
  CHECK(Role(colocated.config, "rollout"));

  // v0.26-v0.29: no prompt cut; a repository pin says which.
  ReadOptions pinned;
  pinned.pinned_versions["trl"] = {">=0.27,<0.28", "requirements.txt:3"};
  ReadResult newer = ReadText(std::string(kGrpo) + "\n", &sources, pinned);
  REQUIRE(Role(newer.config, "train"));
  CHECK(Role(newer.config, "train")->framework == "trl-grpo-0.26");
  CHECK_FALSE(Role(newer.config, "train")->Find("max_prompt_len"));

  // The script's own install of a release before any map: not read as GRPO at all.
  ReadResult oldest =
      ReadText("pip install trl==0.18.2\n" + std::string(kGrpo) + "\n", &sources);
  CHECK_FALSE(Role(oldest.config, "train"));
  // ... and the notice says which release is pinned and which releases gpulint models.
  bool named = false;
  for (const Notice& notice : oldest.config.notices)
    named = named || (notice.message.find("trl is pinned to 0.18.2") != std::string::npos &&
                      notice.message.find(">=0.23,<0.26") != std::string::npos &&
                      notice.message.find(">=1.0") != std::string::npos);
  CHECK(named);

  // A release the directive states but gpulint cannot read: unknown, no release guessed.
  ReadResult unreadable =
      ReadText("# gpulint: trl=latest\n" + std::string(kGrpo) + "\n", &sources);
  CHECK_FALSE(Role(unreadable.config, "train"));
  bool said = false;
  for (const Unresolved& u : unreadable.config.unresolved) said = said || u.name == "trl release";
  CHECK(said);
}

TEST_CASE("TRL GRPO reads the YAML its --config names", "[frameworks]") {
  SourceMap sources;
  ReadResult read = ReadText(
      "cat > grpo.yaml <<'EOF'\n"
      "model_name_or_path: Qwen/Qwen2.5-1.5B-Instruct\n"
      "per_device_train_batch_size: 16\n"
      "max_completion_length: 2048\n"
      "use_vllm: true\n"
      "beta: 0.01\n"
      "num_generations: 14\n"
      "EOF\n"
      "accelerate launch --num_processes 8 -m trl.scripts.grpo --config grpo.yaml\n",
      &sources);
  const Workload* train = Role(read.config, "train");
  REQUIRE(train);
  CHECK(Dump(*train, {"model", "micro_batch", "max_response_len", "ref_model", "n_samples"}) ==
        "model=Qwen/Qwen2.5-1.5B-Instruct@2:21(c) micro_batch=16@3:30(c) "
        "max_response_len=2048@4:24(c) ref_model=true@6:7(c) n_samples=14@7:18(c)");
  CHECK(Role(read.config, "rollout"));
  CHECK(Role(read.config, "reference"));
}

TEST_CASE("TRL GRPO: the colocated engine's share adds to the trainer's peak unless it sleeps",
          "[frameworks]") {
  const std::string base =
      std::string("# gpulint: gpu=H100-80GB\n# gpulint: max_prompt_len=512\n") + kGrpo;
  auto awake = AnalyzeText(base + "\n");
  auto asleep = AnalyzeText(base + " --vllm_enable_sleep_mode true\n");
  auto peak = [](const FileAnalysis& analysis) {
    double bytes = 0;
    for (const DeviceLoad& load : ComputeDeviceLoads(analysis.read.config, analysis.estimates))
      bytes = std::max(bytes, load.bytes);
    return bytes;
  };
  const FileAnalysis& a = awake->analysis;
  REQUIRE(a.estimates.size() == 2);
  REQUIRE(a.estimates[0].breakdown);
  REQUIRE(a.estimates[1].breakdown);
  const double engine = a.estimates[1].breakdown->total;
  CHECK(engine >= 0.3 * 79.6 * est::kGiB * 0.95);  // its fraction of the GPU, held throughout
  CHECK(peak(a) >= a.estimates[0].breakdown->total + 0.9 * engine);
  // Asleep, the engine's phase holds it beside the trainer's weights and optimizer only.
  CHECK(peak(asleep->analysis) < peak(a));
  CHECK(peak(asleep->analysis) >= engine);
}

TEST_CASE("untruncated prompts leave a verdict open that the prompt's length decides",
          "[frameworks]") {
  // 1.5B, 16 completions of 2048 tokens per GPU: an empty prompt fits an H100, the 2048 tokens
  // assumed for a prompt nothing cuts do not.
  const std::string job =
      "accelerate launch --num_processes 8 -m trl.scripts.grpo "
      "--model_name_or_path Qwen/Qwen2.5-1.5B-Instruct --per_device_train_batch_size 16 "
      "--max_completion_length 2048\n";
  auto open = AnalyzeText("# gpulint: gpu=H100-80GB\n" + job);
  REQUIRE(open->analysis.estimates.size() == 1);
  const WorkloadEstimate& e = open->analysis.estimates[0];
  REQUIRE(e.breakdown);
  CHECK(e.breakdown->total_high > e.usable_bytes);
  CHECK(std::find(e.unknown_inputs.begin(), e.unknown_inputs.end(), "max_prompt_len") !=
        e.unknown_inputs.end());

  auto stated = AnalyzeText("# gpulint: gpu=H100-80GB\n# gpulint: max_prompt_len=256\n" + job);
  const WorkloadEstimate& judged = stated->analysis.estimates[0];
  CHECK(judged.unknown_inputs.empty());
  CHECK(judged.breakdown->total_high < e.breakdown->total_high);
}

TEST_CASE("TRL GRPO's group size is num_generations, as written or GRPOConfig's 8",
          "[frameworks]") {
  SourceMap sources;
  ReadResult written = ReadText(std::string(kGrpo) + " --num_generations 14\n", &sources);
  ReadResult unset = ReadText(std::string(kGrpo) + "\n", &sources);
  REQUIRE(Role(written.config, "train"));
  REQUIRE(Role(unset.config, "train"));
  CHECK(Role(written.config, "train")->Number("n_samples") == 14);
  CHECK(Role(unset.config, "train")->Number("n_samples") == 8);
}

// GL310 on GRPOConfig's arithmetic (trl/trainer/grpo_config.py:1076-1110 at f2cd5771): the
// generation batch is generation_batch_size where set, else per-device batch x processes x
// steps_per_generation, itself the accumulation unless set.
TEST_CASE("TRL GRPO's generation batch must hold whole groups of num_generations",
          "[frameworks][rules]") {
  // 4 per device x 8 processes = 32: whole groups of 8 and 16, not of 12.
  const std::string grpo = std::string("# gpulint: gpu=H100-80GB\n") + kGrpo;
  using gpulint::testing::HasRule;
  using gpulint::testing::RulesOfScript;
  CHECK_FALSE(HasRule(RulesOfScript(grpo + " --num_generations 16\n", "a.sh"), "GL310"));
  CHECK(HasRule(RulesOfScript(grpo + " --num_generations 12\n", "a.sh"), "GL310"));
  // Three accumulation steps feed one generation: 96, a multiple of 12.
  CHECK_FALSE(HasRule(
      RulesOfScript(grpo + " --num_generations 12 --gradient_accumulation_steps 3\n", "a.sh"),
      "GL310"));
  // steps_per_generation stands in for the accumulation; generation_batch_size for the product.
  CHECK(HasRule(RulesOfScript(grpo + " --num_generations 12 --gradient_accumulation_steps 3 "
                                     "--steps_per_generation 2\n",
                              "a.sh"),
                "GL310"));
  CHECK_FALSE(HasRule(
      RulesOfScript(grpo + " --num_generations 12 --generation_batch_size 96\n", "a.sh"),
      "GL310"));
  CHECK(HasRule(RulesOfScript(grpo + " --num_generations 12 --generation_batch_size 64\n", "a.sh"),
                "GL310"));
}

// TRL 0.15 (open-r1's release in February 2025): vLLM on one GPU of its own after the
// training processes', at 0.9 of it; a reference unless PEFT; and the group check on the
// per-device batch x processes alone (trl/trainer/grpo_trainer.py:342-345 at v0.15.0).
TEST_CASE("TRL 0.15 GRPO: the engine on the next GPU, and groups without the accumulation",
          "[frameworks][version]") {
  SourceMap sources;
  const std::string open_r1 =
      "# gpulint: trl=0.15\n"
      "accelerate launch --num_processes 3 src/open_r1/grpo.py \\\n"
      "  --model_name_or_path Qwen/Qwen2.5-1.5B-Instruct --use_vllm true --bf16 true \\\n"
      "  --per_device_train_batch_size 1 --num_generations 8";
  ReadResult read = ReadText(open_r1 + "\n", &sources);
  const Workload* train = Role(read.config, "train");
  const Workload* rollout = Role(read.config, "rollout");
  REQUIRE(train);
  REQUIRE(rollout);
  CHECK(train->framework == "trl-grpo-0.15");
  CHECK(train->devices == std::vector<int>{0, 1, 2});
  CHECK(rollout->devices == std::vector<int>{3});
  CHECK(Dump(*rollout, {"gpu_memory_utilization"}) == "gpu_memory_utilization=0.9(d)");
  CHECK(Role(read.config, "reference"));
  CHECK(Dump(*train, {"grad_ckpt", "max_prompt_len", "max_response_len"}) ==
        "grad_ckpt=false(d) max_prompt_len=512(d) max_response_len=256(d)");
  // 1 x 3 is no whole group of 8 however many steps accumulate; 8 x 3 is three.
  using gpulint::testing::HasRule;
  using gpulint::testing::RulesOfScript;
  CHECK(HasRule(RulesOfScript(open_r1 + " --gradient_accumulation_steps 8\n", "a.sh"), "GL310"));
  CHECK_FALSE(HasRule(RulesOfScript(open_r1 + " --per_device_train_batch_size 8\n", "a.sh"),
                      "GL310"));
}
