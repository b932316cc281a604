// vLLM's eras of start-up accounting, and estimates over a range of releases.
#include "estimator/vllm_eras.h"

#include <catch2/catch.hpp>

#include "estimator/serving.h"
#include "estimator/units.h"

using namespace gpulint::est;

namespace {

// Llama-3-8B's shape.
ModelArch LlamaShape() {
  ModelArch m;
  m.hidden_size = 4096;
  m.num_layers = 32;
  m.num_attention_heads = 32;
  m.num_kv_heads = 8;
  m.head_dim = 128;
  m.intermediate_size = 14336;
  m.vocab_size = 128256;
  m.max_position_embeddings = 8192;
  m.attention_window.assign(32, 0);
  return m;
}

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

TEST_CASE("an estimate over a range of releases spans their pools", "[estimator][version]") {
  ModelArch m = LlamaShape();
  ServingInput in;
  in.arch = &m;
  in.gpu_total_bytes = GibToBytes(80);
  in.memory_fraction = 0.9;
  in.max_num_seqs = 256;
  in.max_num_batched_tokens = 8192;
  in.max_model_len = 8192;
  in.enforce_eager = true;

  // The newest release: one sampler footprint (36 bytes per element), one pool.
  Breakdown newest = EstimateServing(in);
  CHECK(newest.logits == 256.0 * 128256 * 36);
  CHECK(newest.kv_cache_tokens_high == newest.kv_cache_tokens);
  CHECK_FALSE(newest.pool_fits_device_low);

  // 0.8.x: the sampler sorts in PyTorch (36 bytes) or runs FlashInfer's (12 bytes); the pool is
  // the newest footprint's, the most tokens the lighter one's: 256 x vocab x 24 bytes more.
  in.versions = Range("0.8.5");
  Breakdown v08 = EstimateServing(in);
  CHECK(v08.kv_cache_tokens == newest.kv_cache_tokens);
  CHECK(v08.kv_cache_tokens_high - v08.kv_cache_tokens ==
        Approx(256.0 * 128256 * 24 / 131072).margin(16));
  CHECK(v08.pool_fits_device_low);
  CHECK(v08.pool_fits_device_high);

  // A range over both kinds of profile: the low end adapts, the high end does not.
  in.versions = Range(">=0.8.5,<=0.12.0");
  Breakdown both = EstimateServing(in);
  CHECK(both.pool_fits_device_low);
  CHECK_FALSE(both.pool_fits_device_high);
  CHECK(both.kv_cache_tokens_high == v08.kv_cache_tokens_high);

  // The V0 engine batched a whole max-length prompt (chunked prefill off below 32k tokens) over
  // 256 sequences when the user set neither.
  in.versions = Range("0.6.3");
  in.max_num_batched_tokens = 2048;
  in.max_num_batched_tokens_default = true;
  in.max_model_len = 16384;
  Breakdown v0 = EstimateServing(in);
  CHECK(v0.logits == 256.0 * 128256 * 12);
  CHECK(v0.activations == 2.0 * 16384 * (8192 + 3 * 14336));
  // Past 32k tokens V0 turned chunked prefill on: 512 tokens before 0.6.5, 2048 after.
  in.max_model_len = 65536;
  CHECK(EstimateServing(in).activations == 2.0 * 512 * (8192 + 3 * 14336));
  in.versions = Range("0.7.2");
  CHECK(EstimateServing(in).activations == 2.0 * 2048 * (8192 + 3 * 14336));
}

TEST_CASE("an engine's floor is its profile peak and one sequence's pool",
          "[estimator][version]") {
  ModelArch m = LlamaShape();
  ServingInput in;
  in.arch = &m;
  in.gpu_total_bytes = GibToBytes(80);
  in.memory_fraction = 0.9;
  in.max_num_seqs = 256;
  in.max_num_batched_tokens = 8192;
  in.max_model_len = 8192;
  in.enforce_eager = true;
  Breakdown b = EstimateServing(in);
  // 8192 tokens of 128 KiB each, in whole 16-token blocks, above weights, profile and context.
  CHECK(b.engine_floor == Approx(b.weights + b.activations + b.logits + GibToBytes(0.13) +
                                 8192.0 * 131072));
  CHECK(b.engine_floor < b.total);
}
