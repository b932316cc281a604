// KV cache and engine budgets on cases worked out by hand.
#include "estimator/serving.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "estimator/kv_cache.h"
#include "estimator/overhead.h"
#include "estimator/units.h"
#include "estimator/weight_format.h"

using namespace gpulint::est;

namespace {

// Llama-3-8B's attention shape: 32 layers, 8 KV heads of 128.
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

// vLLM at 0.9 of an 80 GiB GPU, 256 sequences, 8192 tokens, no CUDA graphs.
ServingInput VllmOn80Gib(const ModelArch& m) {
  ServingInput in;
  in.arch = &m;
  in.gpu_total_bytes = GibToBytes(80);
  in.memory_fraction = 0.9;
  in.max_num_seqs = 256;
  in.max_num_batched_tokens = 8192;
  in.max_model_len = 8192;
  in.enforce_eager = true;
  return in;
}

VersionRange Versions(const char* text) {
  VersionRange r;
  REQUIRE(ParseVersionRange(text, &r));
  return r;
}

}  // namespace

TEST_CASE("KV bytes per token: GQA, TP and fp8", "[estimator][kv]") {
  ModelArch m = LlamaShape();
  // 2 (K and V) x 8 heads x 128 x 2 bytes x 32 layers = 131072 = 128 KiB.
  CHECK(KvBytesPerToken(m, 1, 1, 2) == 131072);
  CHECK(KvBytesPerToken(m, 2, 1, 2) == 65536);   // TP=2: 4 heads per rank
  CHECK(KvBytesPerToken(m, 16, 1, 2) == 16384);  // TP=16 > 8 heads: one head per rank
  CHECK(KvBytesPerToken(m, 1, 1, KvElementBytes("fp8_e5m2", "bfloat16")) == 65536);
  CHECK(KvBytesPerToken(m, 1, 2, 2) == 65536);   // PP=2: half the layers per rank
}

TEST_CASE("MLA keeps the latent and the rope key, replicated over TP", "[estimator][kv]") {
  ModelArch m = LlamaShape();
  m.num_layers = 61;
  m.attention_window.assign(61, 0);
  m.kv_lora_rank = 512;
  m.qk_rope_head_dim = 64;
  // DeepSeek-V3: 61 x (512 + 64) x 2 = 70272 bytes, the same on every TP rank.
  CHECK(KvBytesPerToken(m, 1, 1, 2) == 70272);
  CHECK(KvBytesPerToken(m, 8, 1, 2) == 70272);
}

TEST_CASE("sliding-window layers can be left out of the per-token cost", "[estimator][kv]") {
  ModelArch m = LlamaShape();
  for (int l = 0; l < 32; l += 2) m.attention_window[static_cast<size_t>(l)] = 128;
  CHECK(KvBytesPerToken(m, 1, 1, 2, /*sliding_layers_count=*/false) == 65536);
}

TEST_CASE("quantized weight formats carry their scales", "[estimator][weights]") {
  Quantization nf4{WeightFormat::kNf4, 64, {}};
  CHECK(QuantizedBytesPerWeight(nf4) == Approx(4.5 / 8));
  Quantization awq{WeightFormat::kAwqInt4, 128, {}};
  CHECK(QuantizedBytesPerWeight(awq) == Approx((4 + 20.0 / 128) / 8));
  Quantization mx{WeightFormat::kMxfp4, 32, {}};
  CHECK(QuantizedBytesPerWeight(mx) == Approx(4.25 / 8));
}

TEST_CASE("vLLM: the KV pool is what the budget leaves", "[estimator][serving]") {
  ModelArch m = LlamaShape();
  ServingInput in = VllmOn80Gib(m);
  Breakdown b = EstimateServing(in);
  const double weights = ServingWeightBytes(m, {}, 1, 1, 1);
  CHECK(b.weights == weights);
  // Profile peak: 2 bytes x 8192 tokens x (2h + 3I) = 2 x 8192 x (8192 + 43008).
  CHECK(b.activations == 2.0 * 8192 * (8192 + 3 * 14336));
  // Sampler: 256 sequences x vocabulary x 36 bytes.
  CHECK(b.logits == 256.0 * 128256 * 36);
  const double available = std::ceil(0.9 * GibToBytes(80)) - weights - b.activations - b.logits -
                           GibToBytes(0.13);
  CHECK(b.kv_cache == Approx(available));
  CHECK(b.kv_cache_tokens == std::floor(available / (16 * 131072)) * 16);
  CHECK(b.max_concurrency == Approx(b.kv_cache_tokens / 8192));
  // The engine claims its budget: nvidia-smi shows util x total (graphs off here).
  CHECK(b.total == Approx(std::ceil(0.9 * GibToBytes(80))));
  // A pool sized to fill the budget leaves no range.
  CHECK(b.total_low == b.total);
  CHECK(b.total_high == b.total);
}

TEST_CASE("transformers generate: only what generation frees can fragment, not the weights",
          "[estimator][serving]") {
  ModelArch m = LlamaShape();
  ServingInput in;
  in.arch = &m;
  in.engine = Engine::kHf;
  in.gpu_total_bytes = GibToBytes(80);
  in.batch = 8;
  in.sequence_tokens = 4096;
  Breakdown b = EstimateServing(in);
  const double context = GibToBytes(kCudaContextGib);
  CHECK(b.total_low == Approx(b.torch_allocated + context));
  CHECK(b.total_high == Approx(b.weights + (b.torch_allocated - b.weights) *
                                               (1 + kAllocatorSlackHighFraction) + context));
  CHECK(b.total_low < b.total);
  CHECK(b.total < b.total_high);
}

TEST_CASE("vLLM: a budget smaller than weights leaves no KV cache", "[estimator][serving]") {
  ModelArch m = LlamaShape();
  ServingInput in;
  in.arch = &m;
  in.gpu_total_bytes = GibToBytes(16);
  in.memory_fraction = 0.5;
  Breakdown b = EstimateServing(in);
  CHECK(b.kv_cache == 0);
  CHECK(b.kv_cache_tokens == 0);
  CHECK_FALSE(b.assumptions.empty());
}

TEST_CASE("SGLang's default memory fraction reserves activation room", "[estimator][serving]") {
  // 80 GB class: chunk 8192, graphs up to 256, TP 1: 512 + 1.5 x 8192 + 2 x 256 + 128 MB
  // = 13440 MB reserved of 81559 MiB.
  double fraction = SglangDefaultMemoryFraction(81559.0 * kMiB, 1, 1, 0, 0);
  CHECK(fraction == Approx((81559.0 - 13440) / 81559));
}

TEST_CASE("an estimate over a range of releases spans their pools", "[estimator][serving][version]") {
  ModelArch m = LlamaShape();
  ServingInput in = VllmOn80Gib(m);

  // The newest release: one sampler footprint (36 bytes per element), one pool.
  Breakdown newest = EstimateServing(in);
  CHECK(newest.logits == 256.0 * 128256 * 36);
  CHECK(newest.kv_cache_tokens_high == newest.kv_cache_tokens);
  CHECK_FALSE(newest.pool_fits_device_low);

  // 0.8.x: the sampler sorts in PyTorch (36 bytes) or runs FlashInfer's (12 bytes); the pool is
  // the newest footprint's, the most tokens the lighter one's: 256 x vocab x 24 bytes more.
  in.versions = Versions("0.8.5");
  Breakdown v08 = EstimateServing(in);
  CHECK(v08.kv_cache_tokens == newest.kv_cache_tokens);
  CHECK(v08.kv_cache_tokens_high - v08.kv_cache_tokens ==
        Approx(256.0 * 128256 * 24 / 131072).margin(16));
  CHECK(v08.pool_fits_device_low);
  CHECK(v08.pool_fits_device_high);

  // A range over both kinds of profile: the low end adapts, the high end does not.
  in.versions = Versions(">=0.8.5,<=0.12.0");
  Breakdown both = EstimateServing(in);
  CHECK(both.pool_fits_device_low);
  CHECK_FALSE(both.pool_fits_device_high);
  CHECK(both.kv_cache_tokens_high == v08.kv_cache_tokens_high);

  // The V0 engine batched a whole max-length prompt (chunked prefill off below 32k tokens) over
  // 256 sequences when the user set neither.
  in.versions = Versions("0.6.3");
  in.max_num_batched_tokens = 2048;
  in.max_num_batched_tokens_default = true;
  in.max_model_len = 16384;
  Breakdown v0 = EstimateServing(in);
  CHECK(v0.logits == 256.0 * 128256 * 12);
  CHECK(v0.activations == 2.0 * 16384 * (8192 + 3 * 14336));
  // Past 32k tokens V0 turned chunked prefill on: 512 tokens before 0.6.5, 2048 after.
  in.max_model_len = 65536;
  CHECK(EstimateServing(in).activations == 2.0 * 512 * (8192 + 3 * 14336));
  in.versions = Versions("0.7.2");
  CHECK(EstimateServing(in).activations == 2.0 * 2048 * (8192 + 3 * 14336));
}

TEST_CASE("an engine's floor is its profile peak and one sequence's pool",
          "[estimator][serving][version]") {
  ModelArch m = LlamaShape();
  ServingInput in = VllmOn80Gib(m);
  Breakdown b = EstimateServing(in);
  // 8192 tokens of 128 KiB each, in whole 16-token blocks, above weights, profile and context.
  CHECK(b.engine_floor == Approx(b.weights + b.activations + b.logits + GibToBytes(0.13) +
                                 8192.0 * 131072));
  CHECK(b.engine_floor < b.total);
}

namespace {

// Qwen3.5-27B's shape: 64 layers, every 4th full attention (4 KV heads of 256), the rest Gated
// DeltaNet with 16 key heads and 48 value heads of 128 and a 4-wide convolution.
ModelArch HybridShape() {
  ModelArch m = LlamaShape();
  m.num_layers = 64;
  m.num_kv_heads = 4;
  m.head_dim = 256;
  m.attention_window.assign(64, 0);
  m.linear = {16, 48, 128, 128, 4};
  m.linear_attention_layer.assign(64, true);
  for (int l = 3; l < 64; l += 4) m.linear_attention_layer[static_cast<size_t>(l)] = false;
  return m;
}

}  // namespace

TEST_CASE("linear-attention layers keep a state per sequence, not a KV cache per token",
          "[estimator][kv]") {
  ModelArch m = HybridShape();
  // 16 full-attention layers x 2 x 4 heads x 256 x 2 bytes = 65536 bytes per token.
  CHECK(KvBytesPerToken(m, 1, 1, 2) == 65536);
  // Per linear layer: conv (2 x 2048 + 6144 = 10240 channels) x 3 kept inputs x 2 bytes = 61440,
  // and 48 value heads x 128 x 128 x 4 bytes = 3145728; 48 such layers.
  CHECK(LinearStateBytesPerSequence(m, 1, 1, 2) == 48 * (61440 + 3145728));
  CHECK(LinearStateBytesPerSequence(m, 2, 1, 2) == 48 * (61440 + 3145728) / 2);
  CHECK(LinearStateBytesPerSequence(LlamaShape(), 1, 1, 2) == 0);
}

TEST_CASE("a Mamba-2 layer's state: the convolution over x, B and C, and heads x d_head x d_state",
          "[estimator][kv]") {
  // Granite 4.0 H Tiny: 36 Mamba-2 layers of 48 heads x 64, state 128, 1 group, kernel 4, and
  // 4 attention layers of 4 KV heads x 128.
  ModelArch m = LlamaShape();
  m.num_layers = 40;
  m.num_kv_heads = 4;
  m.head_dim = 128;
  m.attention_window.assign(40, 0);
  m.linear = {1, 48, 128, 64, 4, true, false, ModelArch::LinearAttention::Kind::kMamba2};
  m.linear_attention_layer.assign(40, true);
  for (int l : {5, 15, 25, 35}) m.linear_attention_layer[static_cast<size_t>(l)] = false;
  CHECK(KvBytesPerToken(m, 1, 1, 2) == 4 * 2 * 4 * 128 * 2);
  // conv_dim = 3072 + 2 x 128 = 3328 channels x 3 kept inputs x 2 bytes = 19968; the SSM state
  // 48 x 128 x 64 x 4 bytes = 1572864.
  CHECK(LinearStateBytesPerSequence(m, 1, 1, 2) == 36 * (19968 + 1572864));
}

TEST_CASE("each sequence's linear-attention state comes out of the pool",
          "[estimator][serving]") {
  ModelArch m = HybridShape();
  ServingInput in = VllmOn80Gib(m);
  Breakdown b = EstimateServing(in);
  const double state = LinearStateBytesPerSequence(m, 1, 1, 2);
  const double per_sequence = 8192 * 65536.0 + state;
  CHECK(b.max_concurrency == Approx(b.kv_cache / per_sequence));
  CHECK(b.max_concurrency < b.kv_cache_tokens / 8192);
  bool noted = false;
  for (const std::string& assumption : b.assumptions)
    noted = noted || assumption.find("linear-attention") != std::string::npos;
  CHECK(noted);
}

TEST_CASE("a parallel hybrid layer keeps both a KV cache and a Mamba-2 state",
          "[estimator][kv]") {
  // Falcon-H1: attention beside the mixer in every layer (modeling_falcon_h1.py 911-934 at
  // transformers e8c4f0b7).
  ModelArch m = LlamaShape();
  m.num_layers = 4;
  m.num_kv_heads = 2;
  m.head_dim = 128;
  m.attention_window.assign(4, 0);
  m.linear = {1, 24, 256, 128, 4, true, false, ModelArch::LinearAttention::Kind::kMamba2};
  m.linear_attention_layer.assign(4, true);
  CHECK(KvBytesPerToken(m, 1, 1, 2) == 0);  // mixers alone
  m.attention_beside_linear = true;
  CHECK(KvBytesPerToken(m, 1, 1, 2) == 4 * 2 * 2 * 128 * 2);
  // conv_dim = 3072 + 2 x 256 = 3584 channels x 3 kept inputs x 2 bytes = 21504; the SSM state
  // 24 x 256 x 128 x 4 bytes = 3145728; in every layer.
  CHECK(LinearStateBytesPerSequence(m, 1, 1, 2) == 4 * (21504 + 3145728));
}

TEST_CASE("a Mamba-1 layer's state: the convolution over x and inner x d_state values",
          "[estimator][kv]") {
  // Jamba-v0.1: 28 Mamba-1 layers of inner width 8192, state 16, kernel 4; 4 attention layers.
  ModelArch m = LlamaShape();
  m.num_layers = 32;
  m.attention_window.assign(32, 0);
  m.linear = {0, 8192, 16, 1, 4, true, false, ModelArch::LinearAttention::Kind::kMamba1};
  m.linear_attention_layer.assign(32, true);
  for (int l = 4; l < 32; l += 8) m.linear_attention_layer[static_cast<size_t>(l)] = false;
  CHECK(KvBytesPerToken(m, 1, 1, 2) == 4 * 2 * 8 * 128 * 2);
  // 8192 channels x 3 kept inputs x 2 bytes = 49152; 8192 x 16 x 4 bytes = 524288.
  CHECK(LinearStateBytesPerSequence(m, 1, 1, 2) == 28 * (49152 + 524288));
}
