// Training terms on small cases worked out by hand, sharding invariants and monotonicity.
#include "estimator/training.h"

#include <catch2/catch.hpp>

#include "estimator/activations.h"
#include "estimator/param_count.h"
#include "estimator/param_share.h"

using namespace gpulint::est;

namespace {

// h=4, 2 layers, 2 heads of dim 2, 1 KV head, gated MLP 8 wide, vocab 10, untied: 388 params
// (see param_count_test.cpp).
ModelArch Tiny() {
  ModelArch m;
  m.hidden_size = 4;
  m.num_layers = 2;
  m.num_attention_heads = 2;
  m.num_kv_heads = 1;
  m.head_dim = 2;
  m.intermediate_size = 8;
  m.vocab_size = 10;
  m.attention_window = {0, 0};
  return m;
}

TrainingInput TinyInput(const ModelArch& m) {
  TrainingInput in;
  in.arch = &m;
  in.gpu_total_bytes = 80.0 * (1 << 30);
  in.micro_batch = 1;
  in.seq_len = 16;
  return in;
}

}  // namespace

TEST_CASE("activations per token per layer, counted by hand", "[estimator][activations]") {
  ModelArch m = Tiny();
  ActivationInput in;
  in.compute_bytes = 2;
  // Two unfused RMSNorms: (4 fp32 + 2 cast + 2 output) x h=4 = 32 bytes each -> 64.
  // Flash attention keeps q, k, v, output: 2 x (2q + 2kv) = 2 x (8 + 4) = 24.
  // Gated MLP keeps gate, SiLU, up, product: 4 x 2 x I=8 = 64.
  CHECK(LayerActivationBytesPerToken(m, 0, in) == 64 + 24 + 64);
  // Eager attention adds the softmax kept in fp32 and in 16 bits: (4 + 2) x heads 2 x span 16.
  in.attention = AttentionKind::kEager;
  in.context_len = 16;
  CHECK(LayerActivationBytesPerToken(m, 0, in) == 152 + 6 * 2 * 16);
  // A fused norm keeps input and output only: 2 x 2 x 4 = 16 per norm.
  in.attention = AttentionKind::kFlash;
  in.norms = NormStyle::kFused;
  CHECK(LayerActivationBytesPerToken(m, 0, in) == 32 + 24 + 64);
  // TP=2 splits the attention and MLP tensors but not the h-sized ones (no sequence parallel).
  in.norms = NormStyle::kUnfused;
  in.tp = 2;
  CHECK(LayerActivationBytesPerToken(m, 0, in) == 64 + 12 + 32);
}

TEST_CASE("checkpointing keeps one hidden state per layer plus one layer live",
          "[estimator][activations]") {
  ModelArch m = Tiny();
  ActivationInput in;
  in.tokens = 16;
  in.layers = 2;
  ActivationEstimate none = EstimateActivations(m, in);
  CHECK(none.stored_bytes == 152 * 16 * 2);
  CHECK(none.layer_bytes == 152 * 16);
  in.recompute = Recompute::kFull;
  ActivationEstimate full = EstimateActivations(m, in);
  CHECK(full.stored_bytes == 2 * 4 * 16 * 2);  // c x h x tokens x layers
}

TEST_CASE("plain mixed precision: fp32 weights, fp32 grads, two fp32 moments",
          "[estimator][training]") {
  ModelArch m = Tiny();
  TrainingInput in = TinyInput(m);
  Breakdown b = EstimateTraining(in);
  CHECK(b.weights == 4 * 388);
  CHECK(b.optimizer == 8 * 388);
  // Forward peak: 12 x 388 persistent + 152 x 16 x 2 stored + 152 x 16 live layer
  //   + 16 tokens x 10 vocab x 10 bytes of logits = 4656 + 4864 + 2432 + 1600 = 13552.
  // Step: 4P + 4P grads + 8P moments + 4P foreach temporary = 20 x 388 = 7760.
  CHECK(b.torch_allocated == 13552);
  CHECK(b.peak_phase == "end of forward / start of backward");
}

TEST_CASE("pure bf16 halves every state", "[estimator][training]") {
  ModelArch m = Tiny();
  TrainingInput in = TinyInput(m);
  in.precision = Precision::kBf16;
  Breakdown b = EstimateTraining(in);
  CHECK(b.weights == 2 * 388);
  CHECK(b.optimizer == 4 * 388);
}

TEST_CASE("DeepSpeed and Megatron layouts", "[estimator][training]") {
  ModelArch m = Tiny();
  TrainingInput in = TinyInput(m);
  in.gpus = 4;
  in.shard_group = 4;
  in.style = TrainerStyle::kDeepSpeed;
  in.sharding = Sharding::kGradients;  // ZeRO-2: 2P + (2 grads + 12 master and moments) / 4
  Breakdown z2 = EstimateTraining(in);
  CHECK(z2.weights == 2 * 388);
  CHECK(z2.optimizer == 12.0 * 388 / 4);
  in.style = TrainerStyle::kMegatron;  // 18 bytes; distributed optimizer: 6 + 12 / DP
  in.sharding = Sharding::kOptimizer;
  Breakdown megatron = EstimateTraining(in);
  CHECK(megatron.weights == 2 * 388);
  CHECK(megatron.gradients == 4 * 388);
  CHECK(megatron.optimizer == 12.0 * 388 / 4);
}

TEST_CASE("ZeRO-3 over N GPUs divides model states by N", "[estimator][training]") {
  ModelArch m = Tiny();
  for (TrainerStyle style : {TrainerStyle::kPlain, TrainerStyle::kDeepSpeed}) {
    TrainingInput one = TinyInput(m);
    one.style = style;
    one.gpus = 8;  // persistent gradients in both
    TrainingInput sharded = one;
    sharded.sharding = Sharding::kParameters;
    sharded.shard_group = 8;
    Breakdown a = EstimateTraining(one), b = EstimateTraining(sharded);
    double gathered = 0;
    for (const Term& term : b.terms)
      if (term.name == "gathered layers") gathered = term.bytes;
    CHECK(b.weights - gathered == Approx(a.weights / 8));
    CHECK(b.optimizer == Approx(a.optimizer / 8));
  }
}

TEST_CASE("TP=2 halves the linear weights, not the replicated norms", "[estimator][training]") {
  ModelArch m = Tiny();
  ParamBreakdown p = CountParams(m);
  ParamShare one = ShareOfGpu(m, p, 1, 1, 1), two = ShareOfGpu(m, p, 2, 1, 1);
  CHECK(two.attention_linear == one.attention_linear / 2);
  CHECK(two.dense_mlp_linear == one.dense_mlp_linear / 2);
  CHECK(two.embedding == one.embedding / 2);  // vocabulary-parallel
  CHECK(two.small == one.small);
  CHECK(two.Total() > one.Total() / 2);
}

TEST_CASE("LoRA freezes the base: no gradients or moments for it", "[estimator][training]") {
  ModelArch m = Tiny();
  TrainingInput in = TinyInput(m);
  in.lora_rank = 1;
  in.lora_dropout = false;
  Breakdown b = EstimateTraining(in);
  // Adapters on q_proj (4 -> 4) and v_proj (4 -> 2), rank 1: (4 + 4) + (4 + 2) = 14 per layer,
  // 28 in all, in fp32 with fp32 grads and moments. The base stays in 16 bits: 2 x 388.
  CHECK(b.weights == 2 * 388 + 4 * 28);
  CHECK(b.optimizer == 8 * 28);
}

TEST_CASE("more batch or more sequence never needs less memory", "[estimator][training]") {
  ModelArch m = Tiny();
  for (bool ckpt : {false, true}) {
    for (AttentionKind attention : {AttentionKind::kFlash, AttentionKind::kEager}) {
      double previous = 0;
      for (int batch : {1, 2, 4, 8, 16}) {
        for (double seq : {256.0, 1024.0, 4096.0, 32768.0}) {
          TrainingInput in = TinyInput(m);
          in.micro_batch = batch;
          in.seq_len = seq;
          in.recompute = ckpt ? Recompute::kFull : Recompute::kNone;
          in.attention = attention;
          double total = EstimateTraining(in).total;
          TrainingInput longer = in;
          longer.seq_len = seq * 2;
          TrainingInput bigger = in;
          bigger.micro_batch = batch * 2;
          CHECK(EstimateTraining(longer).total >= total);
          CHECK(EstimateTraining(bigger).total >= total);
          previous = total;
        }
      }
      CHECK(previous > 0);
    }
  }
}
