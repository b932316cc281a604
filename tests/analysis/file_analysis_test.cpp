// --set overrides: what a user types on the command line is checked against rules/settings.toml
// (name, type, range) before anything is estimated with it.
#include "lint/analysis/file_analysis.h"

#include <catch2/catch.hpp>

using gpulint::ParseOverrides;

namespace {

// The error for one --set, "" when it is accepted.
std::string OverrideError(const std::string& set) {
  std::map<std::string, std::string> out;
  std::string error;
  return ParseOverrides({set}, &out, &error) ? "" : error;
}

}  // namespace

TEST_CASE("overrides (--set) accept known settings with sensible values", "[analysis][set]") {
  std::map<std::string, std::string> out;
  std::string error;
  REQUIRE(ParseOverrides({"micro_batch=8", "grad_ckpt=true", "dtype=bf16", "zero_stage=0",
                          "mem_fraction_static=0.85", "lora_targets=q_proj,v_proj"},
                         &out, &error));
  CHECK(out.at("micro_batch") == "8");
  CHECK(out.at("gpu_memory_utilization") == "0.85");  // SGLang's name for the same setting
  CHECK(out.at("lora_targets") == "q_proj,v_proj");
}

TEST_CASE("overrides (--set) refuse what cannot be meant", "[analysis][set]") {
  const std::pair<const char*, const char*> cases[] = {
      {"nonsense", "--set takes SETTING=VALUE, not 'nonsense'"},
      {"=4", "--set takes SETTING=VALUE"},
      {"micro_bach=2", "--set micro_bach=2: unknown setting (did you mean micro_batch?)"},
      {"frobnicate=1", "--set frobnicate=1: unknown setting: "},
      {"micro_batch=abc", "--set micro_batch=abc: not a number"},
      {"micro_batch=nan", "--set micro_batch=nan: not a number"},
      {"micro_batch=2.5", "--set micro_batch=2.5: not a whole number"},
      {"tp=0", "--set tp=0: less than 1"},
      {"micro_batch=-4", "--set micro_batch=-4: less than 1"},
      {"gpu_memory_utilization=1.5", "--set gpu_memory_utilization=1.5: more than 1"},
      {"zero_stage=4", "--set zero_stage=4: more than 3"},
      {"grad_ckpt=maybe", "--set grad_ckpt=maybe: not true or false"},
      {"batch_scope=globl", "--set batch_scope=globl: not one of per_device, global"},
  };
  for (const auto& [set, expected] : cases) {
    INFO(set);
    CHECK(OverrideError(set).find(expected) == 0);
  }
}
