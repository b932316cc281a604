// Conditions of flag-map defaults and requirements, one row per form.
#include "lint/reader/map_condition.h"

#include <catch2/catch.hpp>

#include "lint/reader/setting_builder.h"

using namespace gpulint;

TEST_CASE("a map condition holds on the workload's settings", "[reader][maps]") {
  Workload w;
  for (const auto& [name, text] :
       std::vector<std::pair<std::string, std::string>>{{"lora_enabled", "true"},
                                                        {"grad_ckpt", "false"},
                                                        {"fsdp", "full_shard"},
                                                        {"nproc_per_node", "2"},
                                                        {"finetuning_type", "lora"}}) {
    Setting setting;
    setting.name = name;
    setting.value = TypedValue(name, text);
    w.settings[name] = setting;
  }
  const std::pair<const char*, bool> rows[] = {
      {"", true},
      {"lora_enabled", true},  // a true switch
      {"grad_ckpt", false},    // a false one
      {"fsdp", true},          // any value
      {"quant", false},        // absent
      {"finetuning_type=lora", true},
      {"finetuning_type=full", false},
      {"nproc_per_node>1", true},
      {"nproc_per_node>2", false},
      {"fsdp>1", false},  // not a number
      {"cp>1", false},    // absent
      {"finetuning_type!=full", true},
      {"finetuning_type!=lora", false},
      {"trainer_style!=megatron", true},  // absent holds
      {"!nproc_per_node", false},         // set
      {"!quant", true},                   // absent
      {"!grad_ckpt", true},               // a false switch
      {"!lora_enabled", false},
      {"lora_enabled & finetuning_type=lora", true},  // both hold
      {"lora_enabled & finetuning_type=full", false},
      {"grad_ckpt & finetuning_type=lora", false},
      {"lora_enabled & fsdp & nproc_per_node>1", true},
  };
  for (const auto& [when, holds] : rows) {
    INFO(when);
    CHECK(ConditionHolds(when, w) == holds);
  }
}

TEST_CASE("a malformed map condition is refused with the reason", "[reader][maps]") {
  std::string why;
  CHECK(ValidCondition("nproc_per_node>1", &why));
  CHECK(ValidCondition("finetuning_type=lora", &why));
  CHECK(ValidCondition("lora_enabled", &why));
  CHECK_FALSE(ValidCondition("cp>two", &why));
  CHECK(why == "compares with 'two', not a number");
  CHECK_FALSE(ValidCondition("=lora", &why));
  CHECK(why == "names no setting before '='");
  CHECK(ValidCondition("!nproc_per_node", &why));
  CHECK_FALSE(ValidCondition("!", &why));
  CHECK(why == "names no setting after '!'");
  CHECK(ValidCondition("fused_ce & stage!=dpo", &why));
  CHECK_FALSE(ValidCondition("fused_ce & cp>two", &why));
  CHECK(why == "compares with 'two', not a number");
  CHECK_FALSE(ValidCondition("fused_ce &  & x", &why));
}
