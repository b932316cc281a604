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

TEST_CASE("releases 0.8 to 0.10 run V0 where VLLM_USE_V1=0 or a pre-Ampere GPU picks it",
          "[estimator][version]") {
  const VllmEra* v0 = &VllmV0InV1Releases();
  CHECK(v0->v0_chunked_prefill_tokens == 2048);  // V0's own defaults and accounting
  CHECK_FALSE(v0->pool_fits_device);

  VllmEngineHints asked;
  asked.v0_requested = true;
  CHECK(VllmErasIn(Range("0.8.5"), asked) == std::vector<const VllmEra*>{v0});
  CHECK(VllmErasIn(Range("0.10.2"), asked) == std::vector<const VllmEra*>{v0});
  // 0.11 has no V0 engine: the variable no longer picks one.
  CHECK(VllmErasIn(Range("0.11.0"), asked) == VllmErasIn(Range("0.11.0")));
  // Before 0.8 V0 is the only engine; its own eras stand.
  CHECK(VllmErasIn(Range("0.6.3"), asked) == VllmErasIn(Range("0.6.3")));

  VllmEngineHints volta;
  volta.before_ampere = true;
  CHECK(VllmErasIn(Range("0.9.2"), volta) == std::vector<const VllmEra*>{v0});
  // V1 runs on Volta and Turing from 0.10.2 (vllm PR #24022): verl's range spans both.
  auto verl = VllmErasIn(Range(">=0.8.5,<=0.12.0"), volta);
  REQUIRE(verl.size() == 2);
  CHECK(verl[0] == v0);
  CHECK(verl[1] == &VllmEras().back());
  // VLLM_USE_V1=1 makes vLLM raise instead of falling back: V1's accounting.
  volta.v1_requested = true;
  CHECK(VllmErasIn(Range("0.9.2"), volta) == VllmErasIn(Range("0.9.2")));

  // VLLM_USE_V1 set to a value gpulint cannot read: either engine, up to 0.10.2.
  VllmEngineHints unread;
  unread.v0_maybe_requested = true;
  auto maybe = VllmErasIn(Range("0.10.2"), unread);
  REQUIRE(maybe.size() == 2);
  CHECK(maybe[0] == v0);

  // A GPU known only by its size may be either: both engines, V1's the newest.
  VllmEngineHints unknown;
  unknown.gpu_arch_unknown = true;
  auto either = VllmErasIn(Range("0.9.2"), unknown);
  REQUIRE(either.size() == 2);
  CHECK(either[0] == v0);
  CHECK(either[1] == VllmErasIn(Range("0.9.2"))[0]);
}
