// gpulint fix on real scripts: every verl script of the corpus that its authors ran (a verdict
// of bench/corpus/verdicts.toml with nothing expected) is tuned with --maximize batch,
// --maximize context and --fit on a copy, and the values it then holds must pass the checks verl
// makes at start-up and on its first step, each below citing the line that makes it
// (volcengine/verl at b178a3cd5, the commit rules/frameworks/verl.toml reads). What the script
// leaves unknown is not checked. Skipped where ../shared/corpus is absent.
#include <catch2/catch.hpp>

#include "tests/corpus/fix_harness.h"

namespace {

namespace fs = std::filesystem;
using namespace gpulint::testing;
using nlohmann::json;

const char kRepository[] = "volcengine__verl";

// The checks verl makes on the values gpulint reads; returns how many it could make.
int CheckAsVerl(const std::string& file, const json& workloads) {
  int made = 0;
  for (const json& w : workloads) {
    if (w["framework"] != "verl") continue;
    const std::string role = w["role"];
    INFO(file << ": " << role << " (line " << w["line"] << ")");
    auto prompt = Number(w, "max_prompt_len"), response = Number(w, "max_response_len");
    if (role == "rollout") {
      // The rollout cuts each response at max_model_len less its prompt:
      // verl/workers/rollout/vllm_rollout/vllm_async_server.py:457
      // `max_possible_tokens = self.config.max_model_len - len(prompt_ids)`, :475 `max_tokens =
      // max(0, min(max_tokens, max_possible_tokens))`.
      if (auto length = Number(w, "max_model_len"); length && prompt && response) {
        CHECK(*length >= *prompt + *response);
        ++made;
      }
      continue;
    }
    if (role != "train") continue;
    auto batch = Number(w, "global_batch"), mini = Number(w, "ppo_mini_batch");
    auto samples = Number(w, "n_samples"), per_node = Number(w, "gpus_per_node");
    auto nodes = Number(w, "nodes");
    if (!batch || !mini || !samples || !per_node || !nodes) continue;
    const long gpus = static_cast<long>(*per_node * *nodes);
    const bool megatron = Text(w, "trainer_style") == "megatron";
    const long cp = static_cast<long>(Number(w, "cp").value_or(1));
    const long model_parallel =
        megatron ? static_cast<long>(Number(w, "tp").value_or(1) * Number(w, "pp").value_or(1)) * cp
                 : cp;
    auto micro = Number(w, "micro_batch");
    if (True(w, "dynamic_batch")) {
      // verl/utils/seqlen_balancing.py:382 `assert max_token_len >= max_seq_len, (` with
      // verl/workers/actor/dp_actor.py:552 `max_token_len = self.config.ppo_max_token_len_per_gpu
      // * self.ulysses_sequence_parallel_size` (megatron_actor.py:223: times the context
      // parallel size).
      if (auto budget = Number(w, "max_tokens_per_gpu"); budget && prompt && response) {
        CHECK(*budget * cp >= *prompt + *response);
        ++made;
      }
      continue;
    }
    // verl/utils/config.py:104-112 `minimal_bsz = megatron_dp *
    // config.actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu` (Megatron) or `minimal_bsz =
    // n_gpus`, `assert real_train_batch_size % minimal_bsz == 0, (`.
    const long minimal =
        megatron ? gpus / model_parallel * static_cast<long>(micro.value_or(1)) : gpus;
    CHECK(static_cast<long>(*batch * *samples) % minimal == 0);
    // verl/workers/config/actor.py:203 `if train_batch_size < self.ppo_mini_batch_size:`.
    CHECK(*batch >= *mini);
    // verl/workers/fsdp_workers.py:241-258: the mini-batch times n over the data-parallel ranks
    // `should be larger than 0 after normalization` and `should be divisible by
    // ppo_micro_batch_size_per_gpu` (megatron_workers.py the same over Megatron's DP size).
    const long per_gpu = static_cast<long>(*mini * *samples) / (gpus / model_parallel);
    CHECK(per_gpu > 0);
    if (micro && per_gpu > 0) CHECK(per_gpu % static_cast<long>(*micro) == 0);
    ++made;
  }
  return made;
}

// Scripts that ran, yet whose trainer gpulint prices above its GPU at the lengths the script
// allows, so that maximize lowers it; each with why, until the estimate or the search knows
// better.
const std::map<std::string, std::string> kLoweredKnowingly = {
    {"examples/sglang_multiturn/geo3k/run_qwen2.5-3b_geo3k_multiturn_4xgpu.sh",
     "32 sequences of 2048 + 2048 tokens per micro-batch on one H100 price at 78.4 GiB beside "
     "1.7 GiB of the reference and log-prob weights in its process; without use_dynamic_bsz "
     "verl takes them unpadded, and geo3k's prompts and answers are far shorter than the caps"},
};

// The value a maximize search moved must not have gone down.
void CheckNotLowered(const std::string& file, const json& before, const json& after) {
  if (kLoweredKnowingly.count(file)) return;
  for (const json& w : after) {
    for (const json& b : before) {
      if (b["role"] != w["role"] || b["line"] != w["line"]) continue;
      for (const char* name : {"micro_batch", "max_tokens_per_gpu", "max_response_len",
                               "max_model_len", "max_num_seqs"}) {
        auto was = Number(b, name), is = Number(w, name);
        INFO(file << ": " << w["role"].get<std::string>() << " " << name);
        if (was && is) CHECK(*is >= *was);
      }
    }
  }
}

}  // namespace

TEST_CASE("real scripts: verl accepts what gpulint fix writes", "[corpus][tuner]") {
  if (!fs::is_directory(CorpusPath() / kRepository)) {
    WARN("../shared/corpus is absent: the fixes on real verl scripts are not checked");
    return;
  }
  for (const auto& mode : FixModes()) {
    DYNAMIC_SECTION(mode.back()) {
      const auto fixed = FixRanScripts(kRepository, mode);
      REQUIRE(fixed.size() >= 100);
      int checks = 0, changed = 0;
      for (const FixedFile& file : fixed) {
        checks += CheckAsVerl(file.path, file.after);
        if (file.after != file.before) ++changed;
        if (mode.front() == "--maximize") CheckNotLowered(file.path, file.before, file.after);
      }
      // Most of the scripts are checked, and the tuner changed many of them.
      CHECK(checks >= 100);
      if (mode.front() == "--maximize") CHECK(changed >= 15);
    }
  }
}
