// gpulint fix on real slime scripts: every slime script of the corpus that ran is tuned with
// --maximize batch, --maximize context and --fit on a copy, and the values it then holds must
// pass the checks slime and Megatron make at start-up and on the first step, each below citing
// the line (THUDM/slime at 624b824a, the commit rules/frameworks/slime.toml reads; Megatron-LM
// at d98e8a64). What the script leaves unknown is not checked. Skipped without the corpus.
#include <catch2/catch.hpp>

#include "tests/corpus/fix_harness.h"

namespace {

namespace fs = std::filesystem;
using namespace gpulint::testing;
using nlohmann::json;

const char kRepository[] = "THUDM__slime";

// The checks on one fixed file's trainer; returns how many it could make.
int CheckAsSlime(const std::string& file, const json& workloads) {
  int made = 0;
  for (const json& w : workloads) {
    if (w["framework"] != "slime" || w["role"] != "train") continue;
    INFO(file << " (line " << w["line"] << ")");
    auto per_node = Number(w, "actor_gpus_per_node"), nodes = Number(w, "actor_nodes");
    if (!per_node || !nodes) continue;
    // slime/backends/megatron_utils/arguments.py:206 `args.world_size = args.actor_num_nodes *
    // args.actor_num_gpus_per_node`.
    const long world = static_cast<long>(*per_node * *nodes);
    const long model_parallel = static_cast<long>(Number(w, "tp").value_or(1) *
                                                  Number(w, "pp").value_or(1) *
                                                  Number(w, "cp").value_or(1));
    // megatron/training/arguments.py:432 `assert args.world_size % total_model_size == 0, (`;
    // :448 `args.data_parallel_size = args.world_size // total_model_size`.
    CHECK(world % model_parallel == 0);
    ++made;
    const long dp = world / model_parallel;
    auto global = Number(w, "global_batch");
    if (!global) continue;
    const long micro = static_cast<long>(Number(w, "micro_batch").value_or(1));
    // megatron/core/num_microbatches_calculator.py:381 `assert global_batch_size %
    // micro_batch_times_data_parallel_size == 0, (` (slime passes micro_batch_size even under
    // dynamic batching: slime/backends/megatron_utils/initialize.py:79-86).
    CHECK(static_cast<long>(*global) % (micro * dp) == 0);
    // slime/utils/dp_schedule.py:151 `assert len(sample_indices) >= dp_size, (`.
    CHECK(*global >= dp);
    // slime/utils/dp_schedule.py:135-136 `num_steps = len(rollout_ids) // global_batch_size`
    // `assert num_steps >= 1, (`: a rollout step holds rollout_batch x n_samples samples.
    auto rollout = Number(w, "rollout_batch"), samples = Number(w, "n_samples");
    if (rollout && samples) CHECK(*rollout * *samples >= *global);
    ++made;
  }
  return made;
}

}  // namespace

TEST_CASE("real scripts: slime accepts what gpulint fix writes", "[corpus][tuner]") {
  if (!fs::is_directory(CorpusPath() / kRepository)) {
    WARN("../shared/corpus is absent: the fixes on real slime scripts are not checked");
    return;
  }
  for (const auto& mode : FixModes()) {
    DYNAMIC_SECTION(mode.back()) {
      int checks = 0;
      for (const FixedFile& file : FixRanScripts(kRepository, mode))
        checks += CheckAsSlime(file.path, file.after);
      CHECK(checks >= 3);
    }
  }
}
