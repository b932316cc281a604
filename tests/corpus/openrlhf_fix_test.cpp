// gpulint fix on real OpenRLHF scripts: the corpus's Ray script names no GPU, so it is fixed for
// the GPUs its users train on (H100 and H200), and the issue-thread report we reproduced
// (bench/corpus/reports) for the GPU it names. What each fix writes must pass the checks
// OpenRLHF makes at start-up (openrlhf/cli/train_ppo_ray.py at 3c3be623, the commit
// rules/frameworks/openrlhf.toml reads) and DeepSpeed's batch assertion. What a script leaves
// unknown is not checked. Skipped without the corpus.
#include <catch2/catch.hpp>

#include <cmath>

#include "tests/corpus/fix_harness.h"
#include "tests/support/process.h"

namespace {

namespace fs = std::filesystem;
using namespace gpulint::testing;
using nlohmann::json;

const json* Role(const json& workloads, const char* role) {
  for (const json& w : workloads)
    if (w["role"] == role) return &w;
  return nullptr;
}

// The checks on one fixed file; returns how many it could make.
int CheckAsOpenRlhf(const FixedFile& file) {
  int made = 0;
  const json* train = Role(file.after, "train");
  if (!train) return 0;
  const json& w = *train;
  INFO(file.path << " on " << file.gpu);
  const double cp = Number(w, "cp").value_or(1);
  auto nodes = Number(w, "actor_nodes"), per_node = Number(w, "actor_gpus_per_node");
  const std::optional<double> actors =
      nodes && per_node ? std::optional<double>(*nodes * *per_node) : std::nullopt;
  // DeepSpeed's batch assertion (deepspeed/runtime/config.py `_batch_assertion`: `assert
  // train_batch == micro_batch * grad_acc * self.world_size`), where OpenRLHF hands it the
  // global batch times the ring-attention size; the deepspeed --module trainer's world is its
  // processes.
  const double world = actors.value_or(static_cast<double>(w["gpus"].get<int>()));
  auto global = Number(w, "global_batch"), micro = Number(w, "micro_batch");
  if (global && micro && world > 0) {
    CHECK(std::fmod(*global * cp, *micro * world) == 0);
    ++made;
  }
  if (w["framework"] != "openrlhf") return made;
  const json* rollout = Role(file.after, "rollout");
  const bool colocate = True(w, "colocate"), async = True(w, "rollout_async");
  // train_ppo_ray.py:56-64 `if args.train.colocate_all and not args.train.async_enable:`
  // `assert (` `args.actor.num_nodes * args.actor.num_gpus_per_node` `==
  // args.vllm.num_engines * args.vllm.tensor_parallel_size`.
  auto engines = Number(w, "rollout_engines");
  if (colocate && !async && actors && engines) {
    CHECK(*actors == *engines * Number(w, "rollout_tp").value_or(1));
    ++made;
  }
  // :663-665 `if args.vllm.enable_sleep and not args.train.colocate_all:` `args.vllm.enable_sleep
  // = False`: a sleep gpulint writes without colocation would be dropped.
  // :670-671 `if args.train.async_enable:` `assert not args.vllm.enable_sleep,`.
  if (rollout && True(*rollout, "engine_sleeps")) {
    CHECK((colocate && !async));
    ++made;
  }
  // :711-717 `args.rollout.n_samples_per_prompt * args.rollout.batch_size //
  // args.rollout.micro_batch_size` `>= args.actor.num_nodes * args.actor.num_gpus_per_node //
  // args.ds.ring_attn_size // args.ds.tensor_parallel_size`.
  auto samples = Number(w, "n_samples"), prompts = Number(w, "rollout_batch");
  auto rollout_micro = rollout ? Number(*rollout, "rollout_micro_batch") : std::nullopt;
  if (samples && prompts && rollout_micro && actors) {
    CHECK(static_cast<long>(*samples * *prompts / *rollout_micro) >=
          static_cast<long>(*actors / cp));
    ++made;
  }
  return made;
}

}  // namespace

TEST_CASE("real scripts: OpenRLHF accepts what gpulint fix writes", "[corpus][tuner]") {
  const fs::path corpus = CorpusPath() / "OpenRLHF__OpenRLHF";
  if (!fs::is_directory(corpus)) {
    WARN("../shared/corpus is absent: the fixes on real OpenRLHF scripts are not checked");
    return;
  }
  const std::vector<std::string> ray = {
      "examples/scripts/train_reinforce_baseline_hybrid_engine.sh"};
  for (const auto& mode : FixModes()) {
    DYNAMIC_SECTION(mode.back()) {
      int checks = 0;
      for (const FixedFile& file :
           FixScripts(corpus, {{"H100-80GB", ray}, {"H200-141GB", ray}}, mode))
        checks += CheckAsOpenRlhf(file);
      for (const FixedFile& file :
           FixScripts(SourcePath("bench/corpus/reports"),
                      {{"A100-40GB", {"openrlhf-OpenRLHF-OpenRLHF-398.sh"}}}, mode))
        checks += CheckAsOpenRlhf(file);
      CHECK(checks >= 6);
    }
  }
}

TEST_CASE("real scripts: the fix on OpenRLHF's colocated script puts its engines to sleep",
          "[corpus][tuner]") {
  const fs::path corpus = CorpusPath() / "OpenRLHF__OpenRLHF";
  if (!fs::is_directory(corpus)) {
    WARN("../shared/corpus is absent: the fixes on real OpenRLHF scripts are not checked");
    return;
  }
  // On an H200 the update fits alone but not beside the engines' 0.7 of the GPU, which they
  // hold through it without --vllm.enable_sleep (see the verdict on this file).
  auto fixed = FixScripts(
      corpus, {{"H200-141GB", {"examples/scripts/train_reinforce_baseline_hybrid_engine.sh"}}},
      {"--fit"});
  REQUIRE(fixed.size() == 1);
  const json* before = Role(fixed[0].before, "rollout");
  const json* after = Role(fixed[0].after, "rollout");
  REQUIRE((before && after));
  CHECK_FALSE(True(*before, "engine_sleeps"));
  CHECK(True(*after, "engine_sleeps"));
}
