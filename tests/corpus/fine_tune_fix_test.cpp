// gpulint fix on the fine-tuning frameworks' real configs: every axolotl, torchtune, ms-swift
// and LLaMA-Factory file of the corpus that ran is tuned with --maximize batch, --maximize
// context and --fit on a copy; a second run must propose nothing (fix_harness), and the values
// then held must pass the start-up checks each framework makes, cited below (axolotl at
// 067b021c, torchtune at bd2a0fc7). Skipped without the corpus.
#include <catch2/catch.hpp>

#include "tests/corpus/fix_harness.h"

namespace {

namespace fs = std::filesystem;
using namespace gpulint::testing;
using nlohmann::json;

// The train workloads of `framework` in one fixed file; `check` runs on each.
template <typename Check>
int EachTrainer(const FixedFile& file, const char* framework, Check check) {
  int made = 0;
  for (const json& w : file.after) {
    if (w["framework"] != framework || w["role"] != "train") continue;
    INFO(file.path << " (line " << w["line"] << ")");
    // Every framework refuses a micro-batch below one.
    if (auto micro = Number(w, "micro_batch")) CHECK(*micro >= 1);
    check(w);
    ++made;
  }
  return made;
}

int CheckAsAxolotl(const FixedFile& file) {
  return EachTrainer(file, "axolotl", [](const json& w) {
    // src/axolotl/utils/schemas/validation.py:1652-1663 `elif self.context_parallel_size > 1:`
    // ... `if self.sample_packing and self.micro_batch_size > 1:` `raise ValueError(`.
    if (Number(w, "cp").value_or(1) > 1 && True(w, "packing"))
      CHECK(Number(w, "micro_batch").value_or(1) == 1);
  });
}

int CheckAsTorchtune(const FixedFile& file) {
  return EachTrainer(file, "torchtune", [](const json& w) {
    // recipes/full_finetune_single_device.py:157-160 `if self.optimizer_in_bwd and
    // self._gradient_accumulation_steps > 1:` `raise RuntimeError(`.
    if (True(w, "optimizer_in_bwd")) CHECK(Number(w, "grad_accum").value_or(1) == 1);
  });
}

void RunOn(const char* repository, const char* framework, int (*check)(const FixedFile&),
           int at_least) {
  if (!fs::is_directory(CorpusPath() / repository)) {
    WARN("../shared/corpus is absent: the fixes on real " << framework << " files are not checked");
    return;
  }
  for (const auto& mode : FixModes()) {
    DYNAMIC_SECTION(mode.back()) {
      int checked = 0;
      for (const FixedFile& file : FixRanScripts(repository, mode)) checked += check(file);
      CHECK(checked >= at_least);
    }
  }
}

int TrainersOf(const FixedFile& file) {
  int made = 0;
  for (const json& w : file.after)
    if (w["role"] == "train") {
      INFO(file.path);
      if (auto micro = Number(w, "micro_batch")) CHECK(*micro >= 1);
      ++made;
    }
  return made;
}

}  // namespace

TEST_CASE("real configs: axolotl accepts what gpulint fix writes", "[corpus][tuner]") {
  RunOn("axolotl-ai-cloud__axolotl", "axolotl", CheckAsAxolotl, 40);
}

TEST_CASE("real configs: torchtune accepts what gpulint fix writes", "[corpus][tuner]") {
  RunOn("pytorch__torchtune", "torchtune", CheckAsTorchtune, 8);
}

TEST_CASE("real scripts: gpulint fix on ms-swift and LLaMA-Factory is a fixed point",
          "[corpus][tuner]") {
  RunOn("modelscope__ms-swift", "ms-swift", TrainersOf, 40);
  RunOn("hiyouga__LLaMA-Factory", "llamafactory", TrainersOf, 2);
}
