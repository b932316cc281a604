// lint/reader/map_bounds.h: which of a map's [[at_least]] bounds bind a workload and which its
// values miss, with the framework's factor (verl's Ulysses size).
#include "lint/reader/map_bounds.h"

#include <catch2/catch.hpp>

#include "lint/reader/setting_builder.h"

using namespace gpulint;

namespace {

Workload With(std::initializer_list<std::pair<const char*, const char*>> values,
              const std::string& role = "train") {
  Workload w;
  w.role = role;
  for (const auto& [name, text] : values) {
    Setting& s = w.settings[name];
    s.name = name;
    s.value = TypedValue(name, text);
  }
  return w;
}

FrameworkMap Budget() {
  FrameworkMap map;
  std::string error;
  REQUIRE(ParseFrameworkMap("[framework]\nname = \"x\"\n[[at_least]]\n"
                            "setting = \"max_tokens_per_gpu\"\n"
                            "sum = [\"max_prompt_len\", \"max_response_len\"]\n"
                            "times = [\"cp\"]\nwhen = \"dynamic_batch\"\nsource = \"here\"\n"
                            "[[at_least]]\nsetting = \"max_model_len\"\n"
                            "sum = [\"max_prompt_len\", \"max_response_len\"]\n"
                            "workload = \"rollout\"\neffect = \"cuts\"\n",
                            "x.toml", &map, &error));
  return map;
}

}  // namespace

TEST_CASE("a bound is missed when its setting times its factors is below the sum",
          "[reader][bounds]") {
  const FrameworkMap map = Budget();
  auto missed = UnmetBounds(map, With({{"dynamic_batch", "true"},
                                       {"max_tokens_per_gpu", "16384"},
                                       {"max_prompt_len", "2048"},
                                       {"max_response_len", "16384"}}));
  REQUIRE(missed.size() == 1);
  CHECK(missed[0].setting == "max_tokens_per_gpu");
  CHECK(missed[0].needed == 18432);
  CHECK(missed[0].factor == 1);
  CHECK(missed[0].refuses);
  CHECK(missed[0].sum == "max_prompt_len + max_response_len");
  // Ulysses over 2 ranks doubles what a micro-batch holds.
  CHECK(UnmetBounds(map, With({{"dynamic_batch", "true"},
                               {"max_tokens_per_gpu", "12288"},
                               {"cp", "2"},
                               {"max_prompt_len", "2048"},
                               {"max_response_len", "16384"}}))
            .empty());
}

TEST_CASE("a bound needs its condition, its role and every value known", "[reader][bounds]") {
  const FrameworkMap map = Budget();
  // Without dynamic batching the budget is not read.
  CHECK(UnmetBounds(map, With({{"max_tokens_per_gpu", "1024"},
                               {"max_prompt_len", "2048"},
                               {"max_response_len", "2048"}}))
            .empty());
  // A response length gpulint cannot know decides nothing.
  CHECK(UnmetBounds(map, With({{"dynamic_batch", "true"},
                               {"max_tokens_per_gpu", "1024"},
                               {"max_prompt_len", "2048"}}))
            .empty());
  // The rollout's bound binds the rollout only, and cuts rather than refuses.
  auto rollout = UnmetBounds(map, With({{"max_model_len", "2048"},
                                        {"max_prompt_len", "2048"},
                                        {"max_response_len", "2048"}},
                                       "rollout"));
  REQUIRE(rollout.size() == 1);
  CHECK_FALSE(rollout[0].refuses);
}

TEST_CASE("a bound's effect is refuses or cuts", "[reader][bounds]") {
  FrameworkMap map;
  std::string error;
  CHECK_FALSE(ParseFrameworkMap("[framework]\nname = \"x\"\n[[at_least]]\nsetting = \"a\"\n"
                                "sum = [\"b\"]\neffect = \"warns\"\n",
                                "x.toml", &map, &error));
  CHECK(error.find("effect") != std::string::npos);
}
