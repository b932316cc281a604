// vLLM's eras of start-up accounting (estimates over them: serving_test.cpp).
#include "estimator/vllm_eras.h"

#include <catch2/catch.hpp>

using namespace gpulint::est;

namespace {

VersionRange Range(const char* text) {
  VersionRange r;
  REQUIRE(ParseVersionRange(text, &r));
  return r;
}

}  // namespace

TEST_CASE("the eras cover every release once, oldest first", "[estimator][version]") {
  const auto& eras = VllmEras();
  REQUIRE_FALSE(eras.empty());
  CHECK(eras.front().first == EngineVersion{});
  CHECK(eras.back().last == kNewestVersion);
  for (size_t i = 1; i < eras.size(); ++i) {
    INFO(eras[i].name);
    CHECK(eras[i - 1].last < eras[i].first);
    CHECK_FALSE(eras[i].first < eras[i - 1].last);
    CHECK(std::string(eras[i].source).size() > 20);  // each era says where it comes from
  }
}

TEST_CASE("a release falls in the era its profiling code shipped in", "[estimator][version]") {
  struct Row {
    const char* version;
    bool pool_fits_device;
    bool v0;
  };
  const Row rows[] = {
      {"0.5.4", false, true},   // free-memory delta since the instance started
      {"0.6.3", false, true},
      {"0.6.4", true, true},    // PR #9352, the "breaking change" of vllm issue #10451
      {"0.6.6", false, true},   // PR #10511's baseline snapshot
      {"0.7.3", false, true},
      {"0.8.5", true, false},   // V1 by default; other processes' memory counted as non-torch
      {"0.9.1", true, false},
      {"0.9.2", false, false},  // PR #19312: per instance
      {"0.11.0", false, false},
  };
  for (const Row& row : rows) {
    INFO(row.version);
    auto eras = VllmErasIn(Range(row.version));
    REQUIRE(eras.size() == 1);
    CHECK(eras[0]->pool_fits_device == row.pool_fits_device);
    CHECK((eras[0]->v0_chunked_prefill_tokens > 0) == row.v0);
  }
  // verl's requirement at b178a3cd touches three eras.
  CHECK(VllmErasIn(Range(">=0.8.5,<=0.12.0")).size() == 3);
}
