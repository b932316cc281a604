// WhatIf: the estimator with settings changed, and the memo the searches of one file share.
#include "tuner/what_if.h"

#include <catch2/catch.hpp>

#include "tests/support/analysis_helpers.h"

using namespace gpulint;
using namespace gpulint::testing;

namespace {

// The estimate with one setting changed, asked of the estimator directly (model and GPU
// resolved again from their names).
double TotalDirectly(const FileAnalysis& analysis, size_t index, const std::string& setting,
                     double value) {
  Workload copy = analysis.read.config.workloads[index];
  copy.settings[setting].name = setting;
  copy.settings[setting].value = Value::Number(value);
  WorkloadEstimate e = EstimateWorkload(copy, analysis.read.config, analysis.context);
  REQUIRE(e.breakdown);
  return e.breakdown->total;
}

}  // namespace

TEST_CASE("a what-if estimate equals the estimate of the changed workload", "[tuner][what-if]") {
  auto training = AnalyzeText("# gpulint: gpu=H100-80GB\n"
                              "torchrun --nproc_per_node 2 train.py --model_name_or_path "
                              "Qwen/Qwen3-0.6B --bf16 --max_seq_length 4096 "
                              "--per_device_train_batch_size 2\n");
  WhatIf what_if(training->analysis, 0, 0.10);
  for (long micro : {1, 3, 8}) {
    auto estimate = what_if.Estimate({{"micro_batch", std::to_string(micro)}});
    REQUIRE(estimate);
    CHECK(estimate->total ==
          TotalDirectly(training->analysis, 0, "micro_batch", static_cast<double>(micro)));
  }
  auto serving = AnalyzeText("# gpulint: gpu=H100-80GB\n"
                             "vllm serve Qwen/Qwen3-8B --max-model-len 8192\n");
  WhatIf engine(serving->analysis, 0, 0.10);
  auto estimate = engine.Estimate({{"max_model_len", "16384"}});
  REQUIRE(estimate);
  CHECK(estimate->total == TotalDirectly(serving->analysis, 0, "max_model_len", 16384));
}

TEST_CASE("what-ifs that share a memo answer from it, per analysis and workload",
          "[tuner][what-if]") {
  auto a = AnalyzeText("# gpulint: gpu=H100-80GB\n"
                       "torchrun train.py --model_name_or_path Qwen/Qwen3-0.6B --bf16 "
                       "--per_device_train_batch_size 2\n");
  auto b = AnalyzeText("# gpulint: gpu=H100-80GB\n"
                       "torchrun train.py --model_name_or_path Qwen/Qwen3-0.6B --bf16 "
                       "--per_device_train_batch_size 2\n");
  auto memo = std::make_shared<WhatIfMemo>();
  // A remembered answer that no estimator would give: only the memo can return it.
  est::Breakdown planted;
  planted.total = 12345;
  memo->Remember(a->analysis, 0, {{"micro_batch", "4"}}, planted);

  WhatIf first(a->analysis, 0, 0.10, {}, memo);
  REQUIRE(first.Estimate({{"micro_batch", "4"}}));
  CHECK(first.Estimate({{"micro_batch", "4"}})->total == 12345);
  // The same values under a base: the memo key is the full set of values.
  WhatIf with_base(a->analysis, 0, 0.10, {{"micro_batch", "4"}}, memo);
  CHECK(with_base.Estimate({})->total == 12345);
  // Another analysis with the same text is estimated, not answered from the first one's entry.
  WhatIf other(b->analysis, 0, 0.10, {}, memo);
  CHECK(other.Estimate({{"micro_batch", "4"}})->total != 12345);
  // What a search estimates is remembered for the next search.
  auto fresh = first.Estimate({{"micro_batch", "1"}});
  REQUIRE(fresh);
  const auto* remembered = memo->Find(a->analysis, 0, {{"micro_batch", "1"}});
  REQUIRE(remembered);
  REQUIRE(*remembered);
  CHECK((*remembered)->total == fresh->total);
}
