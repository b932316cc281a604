// Training terms on small cases worked out by hand, sharding invariants and monotonicity.
#include "estimator/training.h"

#include <catch2/catch.hpp>

#include "estimator/activations.h"
#include "estimator/param_count.h"
#include "estimator/overhead.h"
#include "estimator/param_share.h"
#include "estimator/units.h"

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

// A step whose working set (activations, logits) outweighs its state: where the allocator's
// slack shows.
TrainingInput RangeInput(const ModelArch& m) {
  TrainingInput in;
  in.arch = &m;
  in.gpu_total_bytes = GibToBytes(80);
  in.micro_batch = 4;
  in.seq_len = 1024;
  return in;
}

double TermBytes(const Breakdown& b, const std::string& name) {
  for (const Term& term : b.terms)
    if (term.name == name) return term.bytes;
  return 0;
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

TEST_CASE("autocast keeps the fp32 residual and one 16-bit input copy per linear",
          "[estimator][activations]") {
  ModelArch m = Tiny();
  ActivationInput in;
  in.compute_bytes = 2;
  in.autocast = true;
  // Attention norm: fp32 input and normalized value (8 x h=4) + 3 copies for q, k, v (2 x 3 x 4)
  // = 56; MLP norm: 32 + 2 copies for gate and up (16) = 48. Attention and MLP as in 16 bits.
  CHECK(LayerActivationBytesPerToken(m, 0, in) == 56 + 48 + 24 + 64);
  // The final norm feeds the LM head alone: 32 + 8.
  CHECK(FinalNormBytesPerToken(m, in) == 40);
}

TEST_CASE("a frozen base keeps no input for its own weights, LoRA adds fp32 copies",
          "[estimator][activations]") {
  ModelArch m = Tiny();
  ActivationInput in;
  in.compute_bytes = 2;
  in.frozen_base = true;
  // Norms keep their fp32 upcast alone (4 x h=4, twice); attention as before (24); the gated MLP
  // drops the product in front of down_proj: 3 x 2 x I=8 = 48.
  CHECK(LayerActivationBytesPerToken(m, 0, in) == 32 + 24 + 48);
  // LoRA rank 1 on q and v with dropout: 5 bytes per input element (h each) + 4 bytes of the
  // r-wide output per adapter: 5 x 8 + 4 x 2 = 48.
  in.lora_rank = 1;
  CHECK(LayerActivationBytesPerToken(m, 0, in) == 104 + 48);
  // On every linear: inputs q, k, v, gate, up on h (5 x 4), o_proj on the attention output (4)
  // and down_proj on I (8) = 32 elements x 5, and 7 adapters x 4.
  in.lora_all_linear = true;
  CHECK(LayerActivationBytesPerToken(m, 0, in) == 104 + 160 + 28);
  // Without dropout the fp32 copy alone: 4 bytes per element.
  in.lora_dropout = false;
  CHECK(LayerActivationBytesPerToken(m, 0, in) == 104 + 128 + 28);
}

TEST_CASE("16-bit adapters (DeepSpeed casts the module) keep no fp32 copies",
          "[estimator][activations]") {
  ModelArch m = Tiny();
  ActivationInput in;
  in.compute_bytes = 2;
  in.frozen_base = true;
  in.lora_rank = 1;
  in.lora_all_linear = true;
  in.lora_bytes = 2;
  // 32 input elements (as above) x (2-byte dropout output + 1-byte mask), 7 adapters x 2.
  CHECK(LayerActivationBytesPerToken(m, 0, in) == 104 + 96 + 14);
  // Without dropout lora_A keeps the input itself, one tensor where linears share it: q, k, v
  // read one (4), o_proj the attention output (4), gate and up one (4), down_proj I (8).
  in.lora_dropout = false;
  CHECK(LayerActivationBytesPerToken(m, 0, in) == 104 + 2 * 20 + 14);
  // Backward through down_proj: no cast back to 16 bits, 3 x 2 x I=8.
  in.lora_dropout = true;
  CHECK(LayerBackwardBytesPerToken(m, 0, in) == 48);
}

TEST_CASE("Liger's RMSNorm keeps its input, its GLU no activation output",
          "[estimator][activations]") {
  ModelArch m = Tiny();
  ActivationInput in;
  in.compute_bytes = 2;
  in.liger_norms = in.liger_glu = true;
  // Norms keep input and output, 2 x 2 x h=4 each (32); the MLP keeps gate, up and the
  // product, 3 x 2 x I=8 (48). Without Liger: 64 + 24 + 64.
  CHECK(LayerActivationBytesPerToken(m, 0, in) == 32 + 24 + 48);
  CHECK(FinalNormBytesPerToken(m, in) == 16);
  // Backward: the product's gradient alone (2 x 8); attention's 24 is then the widest.
  CHECK(LayerBackwardBytesPerToken(m, 0, in) == 24);
  // A frozen base: the norms' input alone (8 each), no product kept (2 x 2 x 8).
  in.frozen_base = true;
  CHECK(LayerActivationBytesPerToken(m, 0, in) == 16 + 24 + 32);
}

TEST_CASE("Liger's kernels count only for model types Liger patches", "[estimator][training]") {
  ModelArch m = Tiny();
  TrainingInput in = TinyInput(m);
  in.precision = Precision::kBf16;
  const double plain = EstimateTraining(in).activations;
  in.liger_rms_norm = in.liger_glu = true;
  CHECK(EstimateTraining(in).activations == plain);  // the trainer asks, the type lacks it
  m.liger_rms_norm = m.liger_glu = true;
  CHECK(EstimateTraining(in).activations < plain);
}

TEST_CASE("bitsandbytes' quantized base keeps each linear layer's input",
          "[estimator][activations]") {
  ModelArch m = Tiny();
  ActivationInput in;
  in.compute_bytes = 2;
  in.frozen_base = true;
  in.quantized_base_keeps_inputs = true;
  // The frozen 16-bit base keeps 104 (above). bitsandbytes adds, in 16 bits: the attention
  // norm's output h=4 (q, k, v share it), o_proj's input (2 heads x 2 = 4), the MLP norm's
  // output 4 and down_proj's input I=8: 2 x 20 = 40.
  CHECK(LayerActivationBytesPerToken(m, 0, in) == 104 + 40);
  // A trained base keeps these anyway: the flag changes nothing.
  in.frozen_base = false;
  CHECK(LayerActivationBytesPerToken(m, 0, in) == 152);
}

TEST_CASE("fused LoRA functions keep a block's input once and a gated MLP's gate and up",
          "[estimator][activations]") {
  ModelArch m = Tiny();
  ActivationInput in;
  in.compute_bytes = 2;
  in.frozen_base = true;
  in.quantized_base_keeps_inputs = true;
  in.lora_rank = 1;
  in.lora_all_linear = true;
  // PEFT's path: the frozen base 104, LoRA on every linear with dropout 160 + 28, bitsandbytes'
  // inputs 40 (the cases above).
  CHECK(LayerActivationBytesPerToken(m, 0, in) == 104 + 188 + 40);
  CHECK(LayerBackwardBytesPerToken(m, 0, in) == (2 * 4 + 2 + 2) * 8);
  // All three fused (axolotl's LoRA_QKV, LoRA_O, LoRA_MLP): norms 32 and attention 24 stay; each
  // function keeps its input, the dropped copy and its mask (2 + 2 + 1 bytes): q/k/v's h=4, o's
  // 4; LoRA_MLP its input the same way and gate and up (2 x 2 x I=8); nothing else.
  in.lora_fused_qkv = in.lora_fused_o = in.lora_fused_mlp = true;
  CHECK(LayerActivationBytesPerToken(m, 0, in) == 56 + 5 * 4 + 5 * 4 + (5 * 4 + 32));
  // Its backward: down's input gradient, the recomputed product, gate's and up's: 4 x 2 x 8.
  CHECK(LayerBackwardBytesPerToken(m, 0, in) == 4 * 2 * 8);
  // The MLP alone: attention keeps PEFT's path (q, k, v and o inputs 16 x 5 + 4 adapters x 4)
  // and bitsandbytes' inputs for it (the attention norm's output and o's input: 2 x 8).
  in.lora_fused_qkv = in.lora_fused_o = false;
  CHECK(LayerActivationBytesPerToken(m, 0, in) == 56 + 96 + 16 + 52);
  // A plain fc1/fc2 MLP has no fused function: the flag changes nothing there.
  m.gated_mlp = false;
  ActivationInput plain = in;
  plain.lora_fused_mlp = false;
  CHECK(LayerActivationBytesPerToken(m, 0, in) == LayerActivationBytesPerToken(m, 0, plain));
  // Adapters on q and v only: the attention functions need all of q, k, v and o adapted.
  m.gated_mlp = true;
  in.lora_all_linear = false;
  plain = in;
  plain.lora_fused_qkv = plain.lora_fused_o = plain.lora_fused_mlp = false;
  in.lora_fused_qkv = in.lora_fused_o = true;
  CHECK(LayerActivationBytesPerToken(m, 0, in) == LayerActivationBytesPerToken(m, 0, plain));
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
  in.autocast = true;                          // the residual stream is fp32
  CHECK(EstimateActivations(m, in).stored_bytes == 4 * 4 * 16 * 2);
}

TEST_CASE("a finding can say what multiplies into the peak's largest term",
          "[estimator][training]") {
  ModelArch m = Tiny();
  TrainingInput in = TinyInput(m);
  // One token: the model's state (3,104 bytes of moments) is the peak's largest part; nothing
  // to explain.
  in.seq_len = 1;
  CHECK(EstimateTraining(in).why.empty());
  // 4096 tokens: the activations (152 bytes per token per layer) outweigh everything.
  in.seq_len = 4096;
  Breakdown b = EstimateTraining(in);
  CHECK(b.why.rfind("activations: 4096 tokens x 2 layers at ", 0) == 0);
  CHECK(b.why.find("all kept for backward (no checkpointing)") != std::string::npos);
  in.recompute = Recompute::kFull;
  CHECK(EstimateTraining(in).why.find("one hidden state per layer kept (checkpointing)") !=
        std::string::npos);
  // A 100,000-entry vocabulary: the loss's fp32 logits (12 bytes each in backward) lead.
  m.vocab_size = 100000;
  b = EstimateTraining(in);
  CHECK(b.why == "logits: 4096 tokens x 100000 vocabulary entries at 12 bytes each");
  // Explanations are words for people; the tuner's searches do without them.
  in.explain = false;
  CHECK(EstimateTraining(in).why.empty());
}

TEST_CASE("plain mixed precision: fp32 weights, fp32 grads, two fp32 moments",
          "[estimator][training]") {
  ModelArch m = Tiny();
  TrainingInput in = TinyInput(m);
  Breakdown b = EstimateTraining(in);
  // Autocast's 16-bit weight copies: linear layers (48 attention + 96 MLP) x 2 layers + the
  // head's 40, x 2 bytes = 656, saved for backward like activations.
  CHECK(TermBytes(b, "autocast weight copies") == 656);
  CHECK(b.weights == 4 * 388);
  CHECK(b.optimizer == 8 * 388);
  // Persistent: 4P weights + 8P moments = 4656. Saved activations under autocast: 192 bytes per
  // token and layer (see above) x 16 tokens x 2 layers = 6144. Candidates:
  //   the loss in forward: 6144 + final norm 40 x 16 + logits 10 x 16 x 10 + copies 656 = 9040;
  //   the loss in backward: the same with 12 bytes per logit = 9360;
  //   last layer: 6144 + the MLP's gradients 48 x 16 + the head's fp32 gradient 4 x 40 + 656
  //   = 7728; first layer: 6144 / 2 + 768 + every fp32 gradient 4 x 388 = 5392.
  // Step: 4P + 4P grads + 8P moments + 4P foreach temporary = 20 x 388 = 7760.
  // cuBLAS's workspaces come on top.
  CHECK(b.torch_allocated == 4656 + 9360 + GibToBytes(kCublasWorkspaceGib));
  CHECK(b.peak_phase == "the loss in backward");
  CHECK(b.activations == 6144 + 640 + 656);
  CHECK(b.logits == 1920);
  CHECK(b.gradients == 0);
}

TEST_CASE("a value model has a one-output head and no vocabulary logits",
          "[estimator][training]") {
  ModelArch m = Tiny();
  TrainingInput in = TinyInput(m);
  const Breakdown lm = EstimateTraining(in);
  in.value_head = true;
  const Breakdown value = EstimateTraining(in);
  // The untied head's 10 x 4 = 40 weights become a score layer of 4: 388 - 40 + 4 = 352.
  CHECK(value.weights == 4 * 352);
  CHECK(value.optimizer == 8 * 352);
  // One output per token where there were 10: at most 12 bytes x 16 tokens, against 1920.
  CHECK(lm.logits == 1920);
  CHECK(value.logits <= 12 * 16);
  CHECK(value.torch_allocated < lm.torch_allocated);
  // A head tied to the embedding holds no weights of its own either way.
  m.tied_embeddings = true;
  in.value_head = false;
  const Breakdown tied = EstimateTraining(in);
  in.value_head = true;
  CHECK(EstimateTraining(in).weights == tied.weights);
}

TEST_CASE("one layer's backward holds its widest block's gradients", "[estimator][activations]") {
  ModelArch m = Tiny();
  ActivationInput in;
  in.compute_bytes = 2;
  // Attention: dq, dk, dv, dout = 2 x (2 x 4 + 2 x 2) = 24; the gated MLP's product rule:
  // 3 x 2 x I=8 = 48.
  CHECK(LayerBackwardBytesPerToken(m, 0, in) == 48);
  // Eager attention adds the scores' gradients, (2 + 8) x 2 heads x 16 positions.
  in.attention = AttentionKind::kEager;
  in.context_len = 16;
  CHECK(LayerBackwardBytesPerToken(m, 0, in) == 24 + 320);
  // An fp32 adapter on down_proj: (8 + 2 x 2) x 8.
  in.attention = AttentionKind::kFlash;
  in.lora_rank = 4;
  in.lora_all_linear = true;
  CHECK(LayerBackwardBytesPerToken(m, 0, in) == 96);
}

TEST_CASE("a large vocabulary peaks at the loss, checkpointing moves the peak to backward",
          "[estimator][training]") {
  ModelArch m = Tiny();
  m.vocab_size = 100;  // 1108 parameters: embedding and head of 400 each
  TrainingInput in = TinyInput(m);
  in.precision = Precision::kBf16;  // no autocast: 16-bit norms, no weight copies
  in.seq_len = 1024;
  Breakdown b = EstimateTraining(in);
  // Stored: 152 x 1024 x 2 = 311296, plus the final norm (4 + 4) x 4 x 1024 = 32768 and the
  // logits 12 x 1024 x 100 = 1228800 at the loss, which beats one layer's gradients in backward
  // (48 x 1024) beside the head's 16-bit gradient (800).
  CHECK(b.peak_phase == "the loss in backward");
  CHECK(b.logits == 1228800);
  CHECK(b.activations == 311296 + 32768);
  CHECK(b.gradients == 0);

  ModelArch small_vocab = Tiny();
  TrainingInput ckpt = TinyInput(small_vocab);
  ckpt.precision = Precision::kBf16;
  ckpt.seq_len = 1024;
  ckpt.recompute = Recompute::kFull;
  Breakdown c = EstimateTraining(ckpt);
  // Checkpoints 2 x 4 x 1024 x 2 = 16384; the recomputed layer (155648) and its MLP's gradients
  // (48 x 1024) outweigh the loss's 32768 + 12 x 1024 x 10; the head's gradient is 2 x 40.
  CHECK(c.peak_phase == "backward through the last layer");
  CHECK(c.activations == 16384 + 155648 + 49152);
  CHECK(c.logits == 0);
  CHECK(c.gradients == 80);
}

TEST_CASE("each loss path keeps its own bytes per logit", "[estimator][training]") {
  // The case above (bf16, 1024 tokens, vocabulary 100: 102400 logits, peak at the loss in
  // backward) with each way of reading the logits: bytes per logit in backward.
  ModelArch m = Tiny();
  m.vocab_size = 100;
  TrainingInput in = TinyInput(m);
  in.precision = Precision::kBf16;
  in.seq_len = 1024;
  const double logit_count = 1024 * 100;
  auto logits = [&](LossPath path, bool entropy) {
    TrainingInput with = in;
    with.loss_path = path;
    with.loss_entropy = entropy;
    return EstimateTraining(with).logits;
  };
  CHECK(logits(LossPath::kUpcast, false) == 12 * logit_count);        // fp32 copy, log-softmax
  CHECK(logits(LossPath::kVocabParallel, false) == 6 * logit_count);  // c + one fp32 softmax
  CHECK(logits(LossPath::kScaledGather, false) == 6 * logit_count);   // logits, scaled, grad
  CHECK(logits(LossPath::kInplace, false) == 2 * logit_count);        // gradient in place
  CHECK(logits(LossPath::kInplace, true) == 6 * logit_count);
  // torchtune's chunked losses over 8 chunks: the fp32 log-softmax of every chunk stays.
  // Output-chunked: the 16-bit chunks stay through the loss, 2 + 4 + 4/8 = 6.5 per logit
  // in forward, then 4 + 6/8 in backward: the forward decides. Linear-chunked: 4 + 6/8.
  CHECK(logits(LossPath::kOutputChunked, false) == 6.5 * logit_count);
  CHECK(logits(LossPath::kLinearChunked, false) == 4.75 * logit_count);
  // No full logits tensor: the peak moves off the loss.
  CHECK(logits(LossPath::kFused, false) == 0);
}

TEST_CASE("logits for the completion only scale with its share of the sequence",
          "[estimator][training]") {
  // The case above, TRL's way: the model returns the last 256 of 1024 positions' logits.
  ModelArch m = Tiny();
  m.vocab_size = 100;
  TrainingInput in = TinyInput(m);
  in.precision = Precision::kBf16;
  in.seq_len = 1024;
  in.loss_path = LossPath::kScaledGather;
  const double all = EstimateTraining(in).logits;
  in.logit_tokens_per_sequence = 256;
  CHECK(EstimateTraining(in).logits == all / 4);
  in.logit_tokens_per_sequence = 4096;  // longer than the sequence: every position
  CHECK(EstimateTraining(in).logits == all);
}

TEST_CASE("the loss in forward holds autocast's whole weight cache", "[estimator][training]") {
  ModelArch m = Tiny();
  m.vocab_size = 40;  // embedding and head of 160 each, 288 in the layers
  TrainingInput in = TinyInput(m);
  in.gpus = 2;  // gradients are persistent: they do not decide between the moments
  in.seq_len = 4;
  in.recompute = Recompute::kFull;
  Breakdown b = EstimateTraining(in);
  // Checkpoints in fp32: 4 x 4 x 4 tokens x 2 layers = 128; final norm 40 x 4 = 160.
  // In forward: logits 10 x 4 x 40 = 1600 and a 16-bit copy of every linear weight,
  // 2 x (288 + 160) = 896: 2784. In backward: 12 x 160 = 1920 and the head's copy 320: 2528.
  // Last layer: 128 + the recomputed layer 192 x 4 and its gradients 48 x 4 + 320 = 1408.
  CHECK(b.peak_phase == "the loss in forward");
  CHECK(b.logits == 1600);
  CHECK(TermBytes(b, "autocast weight copies") == 896);
  CHECK(b.activations == 128 + 160 + 896);
}

TEST_CASE("a forward-only pass keeps c + 8 bytes per logit", "[estimator][training]") {
  ModelArch m = Tiny();
  m.vocab_size = 100;
  TrainingInput in = TinyInput(m);
  in.precision = Precision::kBf16;
  in.forward_only = true;
  in.seq_len = 1024;
  Breakdown b = EstimateTraining(in);
  CHECK(b.peak_phase == "forward");
  CHECK(b.logits == 10.0 * 1024 * 100);  // 16-bit logits, fp32 upcast, fp32 log-softmax
  CHECK(b.gradients == 0);
  CHECK(b.optimizer == 0);
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

TEST_CASE("DeepSpeed's step holds the partition's fp32 gradient and the optimizer's temporary",
          "[estimator][training]") {
  // The 388-parameter model over 4 ranks under ZeRO-2 in fp16: 97 elements a rank steps.
  ModelArch m = Tiny();
  TrainingInput in = TinyInput(m);
  in.seq_len = 1;  // the step, not the tokens, is the peak
  in.precision = Precision::kAmpFp16;
  in.gpus = 4;
  in.shard_group = 4;
  in.style = TrainerStyle::kDeepSpeed;
  in.sharding = Sharding::kGradients;
  const double part = 388.0 / 4;
  const double state = 2 * 388 + 4 * part + 8 * part + 2 * part;  // weights, master, moments, grads
  const double workspace = GibToBytes(kCublasWorkspaceGib);
  // torch AdamW (no optimizer section): the fp32 gradient, then the sqrt of exp_avg_sq beside it.
  Breakdown torch_adamw = EstimateTraining(in);
  CHECK(torch_adamw.peak_phase == "optimizer step");
  CHECK(torch_adamw.torch_allocated == Approx(state + 4 * part + 4 * part + workspace));
  // DeepSpeed's FusedAdam steps in place: the flat 16-bit copy, alive while it is upcast, is
  // the larger of the two.
  REQUIRE(ParseOptimizer("fused_adam", &in.optimizer));
  Breakdown fused = EstimateTraining(in);
  CHECK(fused.torch_allocated == Approx(state + 4 * part + 2 * part + workspace));
  // Offloaded, the step runs on the CPU.
  in.offload_optimizer = true;
  CHECK(TermBytes(EstimateTraining(in), "optimizer step temporaries") == 0);
}

TEST_CASE("ZeRO-3 steps one sub-group at a time, with every layer sharded again",
          "[estimator][training]") {
  // 40 layers of 152 parameters beside the 84 of the embedding, head and final norm: the
  // states outgrow the gathered layers, so the step is the peak.
  ModelArch m = Tiny();
  m.num_layers = 40;
  const double params = 84 + 40 * 152.0;
  REQUIRE(CountParams(m).Total() == params);
  TrainingInput in = TinyInput(m);
  in.seq_len = 1;
  in.precision = Precision::kAmpFp16;
  in.gpus = 4;
  in.shard_group = 4;
  in.style = TrainerStyle::kDeepSpeed;
  in.sharding = Sharding::kParameters;
  in.zero_sub_group_elements = 1000;  // of the 1541 a rank steps
  Breakdown b = EstimateTraining(in);
  REQUIRE(b.peak_phase == "optimizer step");
  CHECK(TermBytes(b, "gathered layers") == 0);
  CHECK(TermBytes(b, "optimizer step temporaries") == 4 * 1000 + 4 * 1000);  // fp32 grad, sqrt
  const double part = params / 4;
  CHECK(b.torch_allocated ==
        Approx((2 + 4 + 8 + 2) * part + 8000 + GibToBytes(kCublasWorkspaceGib)));
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
    // Unsharded plain mixed precision computes under autocast on fp32 weights; sharded, FSDP
    // gathers 16-bit layers instead.
    const double copies = TermBytes(a, "autocast weight copies");
    CHECK((style == TrainerStyle::kPlain) == (copies > 0));
    CHECK(b.weights - TermBytes(b, "gathered layers") == Approx(a.weights / 8));
    CHECK(b.optimizer == Approx(a.optimizer / 8));
    // The gathered layers are freed and gathered again every step: they fragment like
    // activations, the resident shard does not.
    const double resident = b.weights - TermBytes(b, "gathered layers");
    CHECK(b.total_high - b.total_low ==
          Approx((b.torch_allocated - resident) * kAllocatorSlackHighFraction));
  }
}

TEST_CASE("FSDP accumulating in no_sync holds whole gradients until the step",
          "[estimator][training]") {
  ModelArch m = Tiny();
  TrainingInput sync = TinyInput(m);
  sync.precision = Precision::kBf16;  // 2-byte gradients: 776 whole, 194 per shard of 4
  sync.gpus = 4;
  sync.sharding = Sharding::kParameters;
  sync.shard_group = 4;
  sync.grad_accum = 4;
  TrainingInput no_sync = sync;
  no_sync.unsharded_accumulation = true;
  Breakdown a = EstimateTraining(sync), b = EstimateTraining(no_sync);
  // The peak is at the loss (1920 bytes of logits dwarf the rest of this model), where the
  // accumulated gradients sit beside the activations: 2 x 388 / 4 reduce-scattered every
  // micro-batch, 2 x 388 whole under no_sync.
  CHECK(a.gradients == 2.0 * 388 / 4);
  CHECK(b.gradients == 2.0 * 388);
  CHECK(b.torch_allocated - a.torch_allocated == Approx(2.0 * 388 * 3 / 4));
  // FSDP's CPU offload moves the gradient shards to the host, but not what no_sync accumulates.
  TrainingInput offloaded = no_sync;
  offloaded.offload_params = true;
  CHECK(EstimateTraining(offloaded).gradients == 2.0 * 388);
  offloaded.unsharded_accumulation = false;
  CHECK(EstimateTraining(offloaded).gradients == 0);
  // Without accumulation there is nothing to hold back, and without sharding nothing to gather.
  no_sync.grad_accum = 1;
  CHECK(EstimateTraining(no_sync).gradients == a.gradients);
  no_sync.grad_accum = 4;
  no_sync.sharding = Sharding::kNone;
  sync.sharding = Sharding::kNone;
  CHECK(EstimateTraining(no_sync).torch_allocated == EstimateTraining(sync).torch_allocated);
}

TEST_CASE("LoRA sharing FSDP units with frozen weights gets gradients for the whole unit",
          "[estimator][training]") {
  ModelArch m = Tiny();
  TrainingInput in = TinyInput(m);
  in.precision = Precision::kBf16;
  in.lora_rank = 1;
  in.lora_dropout = false;
  in.gpus = 2;
  in.sharding = Sharding::kParameters;
  in.shard_group = 2;
  Breakdown separate = EstimateTraining(in);
  in.frozen_weights_get_grads = true;
  Breakdown shared = EstimateTraining(in);
  // The blocks hold 388 - 40 (embedding) - 40 (LM head) = 308 parameters; their 2-byte
  // gradients are sharded over 2 GPUs: 308 bytes each, beside the adapters' 4 x 28.
  CHECK(TermBytes(separate, "gradients of frozen weights") == 0);
  CHECK(TermBytes(shared, "gradients of frozen weights") == 308);
  CHECK(shared.gradients == 4 * 28 + 308);
  // Weights that get gradients keep their inputs: the activations of a trained layer.
  CHECK(shared.activations > separate.activations);
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

TEST_CASE("the peak is a range: live tensors below, a long run's allocator slack above",
          "[estimator][training]") {
  ModelArch m = Tiny();
  TrainingInput in = RangeInput(m);
  Breakdown b = EstimateTraining(in);
  const double context = GibToBytes(kTrainingCudaContextGib);  // one GPU: no NCCL
  CHECK(b.total_low == Approx(b.torch_allocated + context));
  CHECK(b.total == Approx(b.torch_allocated * (1 + kAllocatorSlackFraction) + context));
  CHECK(b.total < b.total_high);
  // The weights are allocated once at load and leave no holes: only the rest carries the slack.
  CHECK(b.total_high == Approx(b.weights + (b.torch_allocated - b.weights) *
                                               (1 + kAllocatorSlackHighFraction) + context));
  CHECK(b.total_high < b.torch_allocated * (1 + kAllocatorSlackHighFraction) + context);
  // Over 8 GPUs every end carries the NCCL buffers.
  in.gpus = 8;
  Breakdown eight = EstimateTraining(in);
  CHECK(eight.total_high - HighReserved(eight.torch_allocated, eight.weights) ==
        Approx(context + GibToBytes(kNcclGib)));
}

TEST_CASE("a long run caches more than it needs: more with varying lengths and recomputation",
          "[estimator][training]") {
  ModelArch m = Tiny();
  TrainingInput in = RangeInput(m);
  const double context = GibToBytes(kTrainingCudaContextGib);
  Breakdown varying = EstimateTraining(in);
  // The weights and optimizer states are allocated once and leave no holes: only the working
  // set's cache grows.
  const double working = varying.torch_allocated - varying.weights - varying.optimizer;
  REQUIRE(working > 0);
  CHECK(varying.total_cached ==
        Approx(varying.torch_allocated + working * CachedSlackFraction({true, false, false}) +
               context));
  CHECK(varying.total_cached > varying.total_high);  // what it shows is not what it needs
  in.varying_shapes = false;
  Breakdown packed = EstimateTraining(in);
  CHECK(packed.total_cached < varying.total_cached);
  CHECK(packed.total_high == Approx(varying.total_high));  // the verdict's end does not move
  in.varying_shapes = true;
  in.recompute = Recompute::kFull;
  Breakdown recomputed = EstimateTraining(in);
  CHECK(recomputed.total_cached - recomputed.total_low ==
        Approx((recomputed.torch_allocated - recomputed.weights - recomputed.optimizer) *
               CachedSlackFraction({true, true, false})));
  in.expandable_segments = true;
  Breakdown expandable = EstimateTraining(in);
  CHECK(expandable.total_cached - expandable.total_low <
        (recomputed.total_cached - recomputed.total_low) / 4);
  CHECK(expandable.total_cached >= expandable.total_high);
  // Never more than the device holds.
  in.expandable_segments = false;
  in.gpu_total_bytes = recomputed.total_high + 1;
  CHECK(EstimateTraining(in).total_cached == in.gpu_total_bytes);
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

TEST_CASE("without explanations the numbers are the same and the notes are empty",
          "[estimator][training]") {
  ModelArch m = Tiny();
  TrainingInput in = TinyInput(m);
  in.lora_rank = 8;
  Breakdown worded = EstimateTraining(in);
  in.explain = false;
  Breakdown bare = EstimateTraining(in);
  CHECK(bare.total == worded.total);
  CHECK(bare.activations == worded.activations);
  REQUIRE(bare.terms.size() == worded.terms.size());
  int unworded = 0;  // notes that are formatted from numbers are left out
  for (size_t i = 0; i < bare.terms.size(); ++i) {
    CHECK(bare.terms[i].name == worded.terms[i].name);
    CHECK(bare.terms[i].bytes == worded.terms[i].bytes);
    if (bare.terms[i].note != worded.terms[i].note) {
      CHECK(bare.terms[i].note.empty());
      ++unworded;
    }
  }
  CHECK(unworded >= 2);  // the LoRA adapters and the activations per token per layer
}

TEST_CASE("a Gated DeltaNet layer keeps its convolution, normalized q and k, and gated output",
          "[estimator][activations]") {
  ModelArch m = Tiny();
  m.linear = {/*key_heads=*/1, /*value_heads=*/2, /*key_head_dim=*/2, /*value_head_dim=*/2,
              /*conv_kernel=*/4};
  m.linear_attention_layer = {true, false};
  ActivationInput in;
  in.compute_bytes = 2;
  // Norms and MLP as in "counted by hand": 64 + 64. The mixer, conv width W = 8, value width 4,
  // 2 value heads of key dim 2: 2 x (2W + 2 x 2 x 2 + 3 x 4) = 2 x 36 = 72; beta and the fp32
  // decay (2 + 12) x 2 = 28; rstd 8 x 2 = 16; the chunk matrix 64 x 2 x 2 = 256.
  CHECK(LayerActivationBytesPerToken(m, 0, in) == 64 + 64 + 72 + 28 + 16 + 256);
  // The full-attention layer beside it is priced as before.
  CHECK(LayerActivationBytesPerToken(m, 1, in) == 64 + 24 + 64);
  // A gate on the attention output keeps its sigmoid and the gated product: 2 x 2 x q=4.
  m.attention_output_gate = true;
  CHECK(LayerActivationBytesPerToken(m, 1, in) == 64 + 24 + 64 + 16);
  // Backward: gradients of the conv input and output and of z, 2 x (2W + 4) = 40, and the
  // recomputed chunk states with their gradients, 2 x 2 x (2 heads x 2 x 2 / 64); the MLP's
  // 3 x 2 x I=8 = 48 is wider, and below it with I = 2.
  CHECK(LayerBackwardBytesPerToken(m, 0, in) == 48);
  m.intermediate_size = 2;
  CHECK(LayerBackwardBytesPerToken(m, 0, in) == Approx(40 + 4 * 8.0 / 64));
}

TEST_CASE("a Mamba-1 layer keeps in_proj's output, the convolution's, delta and the scan's",
          "[estimator][activations]") {
  ModelArch m = Tiny();
  // Inner width 16 (one channel per head), state 2, kernel 4, dt rank 2.
  m.linear = {/*key_heads=*/0, /*value_heads=*/16, /*key_head_dim=*/2, /*value_head_dim=*/1,
              /*conv_kernel=*/4, /*conv_bias=*/true, /*proj_bias=*/false,
              ModelArch::LinearAttention::Kind::kMamba1};
  m.linear.dt_rank = 2;
  m.linear_attention_layer = {true, false};
  ActivationInput in;
  in.compute_bytes = 2;
  // Norms and MLP as in "counted by hand": 64 + 64. The mixer: 2 x (x and z 32 + the
  // convolution's output, delta and the scan's output before and after the gate 4 x 16) = 192,
  // and x_proj's output dt, B, C (2 + 2 x 2) in 16 bits with two fp32 copies: 10 x 6 = 60.
  CHECK(LayerActivationBytesPerToken(m, 0, in) == 64 + 64 + 192 + 60);
  // A frozen out_proj keeps no input: one inner-wide tensor less.
  ActivationInput frozen = in;
  frozen.frozen_base = true;
  ModelArch dense = m;
  dense.linear_attention_layer = {false, false};
  auto mixer_over_attention = [&](const ActivationInput& input) {
    return LayerActivationBytesPerToken(m, 0, input) -
           LayerActivationBytesPerToken(dense, 0, input);
  };
  CHECK(mixer_over_attention(frozen) - mixer_over_attention(in) == -2 * 16);
  // Backward: the gradients of in_proj's output (2 x 32), the convolution's output (16) and the
  // scan's inputs (2 x 16): 2 x 112 = 224, wider than the MLP's 3 x 2 x 8 = 48.
  CHECK(LayerBackwardBytesPerToken(m, 0, in) == 224);
}

TEST_CASE("bitsandbytes leaves 3D experts in 16 bits unless a loader patch quantizes them",
          "[estimator][training]") {
  // Tiny with 4 fused experts of width 8 in both layers: 2 x 4 x 3 x 4 x 8 = 768 expert weights.
  ModelArch m = Tiny();
  m.num_experts = 4;
  m.experts_per_token = 2;
  m.expert_intermediate_size = 8;
  m.moe_layer = {true, true};
  m.fused_experts = true;
  ModelArch linear_experts = m;  // the same experts as nn.Linear modules
  linear_experts.fused_experts = false;
  auto qlora = [](const ModelArch& arch, bool patched) {
    TrainingInput in = TinyInput(arch);
    in.lora_rank = 1;
    in.base_quant.format = WeightFormat::kNf4;
    in.experts_quantized_on_load = patched;
    in.recompute = Recompute::kNone;
    return EstimateTraining(in);
  };
  const double expert_weights = 768;
  // Unpatched, the 3D experts stay in 16 bits where nn.Linear experts are NF4: 4 bits and an
  // fp32 absmax per 64 weights, 0.5625 bytes.
  CHECK(qlora(m, false).weights - qlora(linear_experts, false).weights ==
        Approx(expert_weights * (2 - 0.5625)));
  // Patched, they are stored as NF4; without checkpointing each layer keeps its experts
  // dequantized to 16 bits for backward: 2 bytes x 4 experts x 3 x 4 x 8 per layer.
  CHECK(qlora(m, true).weights == Approx(qlora(linear_experts, false).weights));
  CHECK(qlora(m, true).activations - qlora(linear_experts, false).activations ==
        Approx(2 * 2 * 384.0));
}

TEST_CASE("LoRA adapts the projections each layer has: none on k and v where a layer shares K/V",
          "[estimator][training]") {
  // Tiny (h=4, 2 heads of 2, 1 KV head) with its second layer reading the first's K/V
  // (Gemma 4's num_kv_shared_layers): that layer has no k_proj or v_proj to adapt.
  ModelArch m = Tiny();
  ModelArch shared = m;
  shared.kv_shared_layers = 1;
  auto adapters = [](const ModelArch& arch) {
    TrainingInput in = TinyInput(arch);
    in.lora_rank = 1;
    in.lora_all_linear = true;
    return TermBytes(EstimateTraining(in), "lora adapters");
  };
  // Rank 1 on k_proj and v_proj (4 -> 2 each): 2 x (4 + 2) = 12 parameters, 4 bytes each.
  CHECK(adapters(m) - adapters(shared) == Approx(4.0 * 12));
}
