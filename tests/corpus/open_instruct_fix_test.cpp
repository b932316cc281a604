// gpulint fix on real open-instruct scripts: every grpo_fast script of the corpus that ran is
// tuned with --maximize batch, --maximize context and --fit on a copy, and the values it then
// holds must pass the checks grpo_fast makes at start-up, each below citing the line
// (allenai/open-instruct at e6c3044a, the commit rules/frameworks/open-instruct-grpo.toml
// reads). What the script leaves unknown is not checked. Skipped without the corpus.
#include <catch2/catch.hpp>

#include <string>

#include "tests/corpus/fix_harness.h"

namespace {

namespace fs = std::filesystem;
using namespace gpulint::testing;
using nlohmann::json;

const char kRepository[] = "allenai__open-instruct";

// --num_learners_per_node 8 8: the learners over all nodes; nullopt where one is not a number.
std::optional<long> Learners(const json& workload) {
  auto it = workload["settings"].find("learners");
  if (it == workload["settings"].end()) return std::nullopt;
  const json& value = (*it)["value"];
  if (value.is_number()) return value.get<long>();
  if (!value.is_array()) return std::nullopt;
  long sum = 0;
  for (const json& entry : value) {
    if (!entry.is_string() || entry.get<std::string>().find_first_not_of("0123456789") !=
                                  std::string::npos || entry.get<std::string>().empty())
      return std::nullopt;
    sum += std::stol(entry.get<std::string>());
  }
  return sum;
}

// The checks on one fixed file's learners; returns how many it could make.
int CheckAsGrpoFast(const std::string& file, const json& workloads) {
  int made = 0;
  for (const json& w : workloads) {
    if (w["framework"] != "open-instruct-grpo" || w["role"] != "train") continue;
    INFO(file << " (line " << w["line"] << ")");
    const double cp = Number(w, "cp").value_or(1);
    // open_instruct/data_loader.py:501-503 `assert self.pack_length >=
    // self.max_prompt_token_length + self.response_length, (`.
    auto pack = Number(w, "max_seq_len"), prompt = Number(w, "max_prompt_len"),
         response = Number(w, "max_response_len");
    if (pack && prompt && response) {
      CHECK(*pack >= *prompt + *response);
      ++made;
    }
    // open_instruct/grpo_utils.py:275-276 `if self.sequence_parallel_size > 1 and
    // self.deepspeed_stage != 3:` `raise ValueError(`.
    if (cp > 1) {
      CHECK(Number(w, "zero_stage").value_or(0) == 3);
      ++made;
    }
    // open_instruct/grpo_fast.py:1006-1008 `streaming_config.num_samples_per_prompt_rollout *
    // streaming_config.num_unique_prompts_rollout` `>= sum(num_learners_per_node) //
    // sequence_parallel_size`.
    auto samples = Number(w, "n_samples"), prompts = Number(w, "rollout_batch");
    if (auto learners = Learners(w); learners && samples && prompts) {
      CHECK(*samples * *prompts >= static_cast<double>(*learners / static_cast<long>(cp)));
      ++made;
    }
  }
  return made;
}

}  // namespace

TEST_CASE("real scripts: open-instruct's grpo_fast accepts what gpulint fix writes",
          "[corpus][tuner]") {
  if (!fs::is_directory(CorpusPath() / kRepository)) {
    WARN("../shared/corpus is absent: the fixes on real open-instruct scripts are not checked");
    return;
  }
  for (const auto& mode : FixModes()) {
    DYNAMIC_SECTION(mode.back()) {
      int checks = 0;
      for (const FixedFile& file : FixRanScripts(kRepository, mode))
        checks += CheckAsGrpoFast(file.path, file.after);
      CHECK(checks >= 40);
    }
  }
}
