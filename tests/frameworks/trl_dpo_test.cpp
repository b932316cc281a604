// rules/frameworks/trl-dpo.toml: TRL's DPO trainer runs each example as its chosen and its
// rejected sequence in one batch, and keeps a frozen reference policy unless PEFT or
// precomputed reference log-probs make it unnecessary.
#include <catch2/catch.hpp>

#include "lint/analysis/workload_estimate.h"
#include "tests/support/analysis_helpers.h"
#include "tests/support/reader_helpers.h"

using namespace gpulint;
using gpulint::testing::AnalyzeText;
using gpulint::testing::ReadText;
using gpulint::testing::Role;

namespace {

const std::string kDpo =
    "trl dpo --model_name_or_path Qwen/Qwen2.5-0.5B-Instruct --gradient_checkpointing "
    "--max_length 1024";

}  // namespace

TEST_CASE("TRL DPO: a micro-batch of N examples is 2N sequences", "[frameworks]") {
  auto pairs = AnalyzeText("# gpulint: gpu=A100-80GB\n" + kDpo +
                           " --per_device_train_batch_size 2\n");
  // The same job read as one sequence per example, with twice the examples.
  auto doubled = AnalyzeText("# gpulint: gpu=A100-80GB\n# gpulint: sequences_per_example=1\n" +
                             kDpo + " --per_device_train_batch_size 4\n");
  const WorkloadEstimate& a =
      pairs->analysis.estimates[gpulint::testing::WorkloadWithRole(pairs->analysis, "train")];
  const WorkloadEstimate& b =
      doubled->analysis.estimates[gpulint::testing::WorkloadWithRole(doubled->analysis, "train")];
  REQUIRE(a.breakdown);
  REQUIRE(b.breakdown);
  CHECK(a.breakdown->activations == Approx(b.breakdown->activations));
  CHECK(a.breakdown->logits == Approx(b.breakdown->logits));
  CHECK(a.breakdown->logits > 0);
}

TEST_CASE("TRL DPO: a reference policy beside a full fine-tune, none under PEFT or precomputed",
          "[frameworks]") {
  SourceMap sources;
  ReadResult full = ReadText(kDpo + "\n", &sources);
  REQUIRE(Role(full.config, "train"));
  CHECK(Role(full.config, "train")->framework == "trl-dpo");
  const Workload* reference = Role(full.config, "reference");
  REQUIRE(reference);
  CHECK(reference->shares_process_gpus);
  CHECK_FALSE(Role(ReadText(kDpo + " --use_peft\n", &sources).config, "reference"));
  CHECK_FALSE(
      Role(ReadText(kDpo + " --precompute_ref_log_probs\n", &sources).config, "reference"));
  // trl sft is not paired.
  ReadResult sft = ReadText("trl sft --model_name_or_path Qwen/Qwen2.5-0.5B-Instruct\n", &sources);
  REQUIRE(Role(sft.config, "train"));
  CHECK_FALSE(Role(sft.config, "train")->Find("sequences_per_example"));
}
