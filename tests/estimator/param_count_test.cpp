// Parameter counting on tiny architectures whose counts are worked out by hand below.
#include "estimator/param_count.h"

#include <catch2/catch.hpp>

using gpulint::est::CountParams;
using gpulint::est::ModelArch;

namespace {

// h=4, 2 layers, 2 heads of dim 2, 1 KV head, gated MLP of width 8, vocab 10, untied.
ModelArch TinyDense() {
  ModelArch m;
  m.hidden_size = 4;
  m.num_layers = 2;
  m.num_attention_heads = 2;
  m.num_kv_heads = 1;
  m.head_dim = 2;
  m.intermediate_size = 8;
  m.vocab_size = 10;
  m.tied_embeddings = false;
  return m;
}

}  // namespace

TEST_CASE("dense GQA model: embeddings, attention, gated MLP, norms", "[estimator][params]") {
  auto p = CountParams(TinyDense());
  CHECK(p.embedding == 40);           // 10 x 4
  CHECK(p.lm_head == 40);             // untied
  CHECK(p.attention_linear == 2 * 48);  // q 4x4 + k 4x2 + v 4x2 + o 4x4 = 48 per layer
  CHECK(p.dense_mlp_linear == 2 * 96);  // 3 x 4 x 8 per layer
  CHECK(p.norms == 2 * 8 + 4);          // two RMSNorms per layer + final
  CHECK(p.Total() == 388);
}

TEST_CASE("tied embeddings drop the lm_head, biases and qk-norms add their widths",
          "[estimator][params]") {
  ModelArch m = TinyDense();
  m.tied_embeddings = true;
  m.qkv_bias = true;                                  // q 4 + k 2 + v 2 = 8 per layer
  m.qk_norm = ModelArch::QkNorm::kPerHead;            // 2 x head_dim = 4 per layer
  auto p = CountParams(m);
  CHECK(p.lm_head == 0);
  CHECK(p.attention_other == 2 * (8 + 4));
  CHECK(p.Total() == 388 - 40 + 24);
}

TEST_CASE("plain (non-gated) MLP with LayerNorm biases", "[estimator][params]") {
  ModelArch m = TinyDense();
  m.gated_mlp = false;
  m.layer_norm_bias = true;
  auto p = CountParams(m);
  CHECK(p.dense_mlp_linear == 2 * 64);  // 2 x 4 x 8 per layer
  CHECK(p.norms == 2 * 2 * 8 + 8);      // LayerNorm = 2h
}

TEST_CASE("MoE counts every expert in the total and top-k in the active count",
          "[estimator][params]") {
  ModelArch m = TinyDense();
  m.num_experts = 4;
  m.experts_per_token = 2;
  m.expert_intermediate_size = 3;
  m.moe_layer = {true, true};
  auto p = CountParams(m);
  CHECK(p.expert_linear == 2 * 4 * 36);  // 4 experts x (3 x 4 x 3) per layer
  CHECK(p.router == 2 * 16);             // 4 x 4 gate per layer
  CHECK(p.dense_mlp_linear == 0);
  CHECK(p.Total() == 516);               // 40 + 40 + 2 x (48 + 8 + 144 + 16) + 4
  CHECK(p.TextActive(m) == 516 - 2 * 72);  // half of the experts' weights per layer
  CHECK(p.TextActive(m, /*count_embedding=*/false) == 516 - 2 * 72 - 40);
}

TEST_CASE("MoE with leading dense layers and a shared expert", "[estimator][params]") {
  ModelArch m = TinyDense();
  m.num_experts = 4;
  m.experts_per_token = 1;
  m.expert_intermediate_size = 3;
  m.shared_expert_intermediate_size = 3;
  m.moe_layer = {false, true};
  auto p = CountParams(m);
  CHECK(p.dense_mlp_linear == 96);         // layer 0 only
  CHECK(p.expert_linear == 4 * 36);        // layer 1 only
  CHECK(p.shared_expert_linear == 36);     // one 3-wide shared expert
}

TEST_CASE("MLA projections through the low-rank latent", "[estimator][params]") {
  ModelArch m = TinyDense();
  m.hidden_size = 8;
  m.num_layers = 1;
  m.num_attention_heads = 2;
  m.q_lora_rank = 4;
  m.kv_lora_rank = 2;
  m.qk_nope_head_dim = 3;
  m.qk_rope_head_dim = 1;
  m.v_head_dim = 2;
  auto p = CountParams(m);
  // q: 8x4 down + 4 x 2 heads x (3+1) up = 64; kv down 8 x (2+1) = 24; kv up 2 x 2 x (3+2) = 20;
  // o: 2 heads x 2 x 8 = 32.
  CHECK(p.attention_linear == 140);
  CHECK(p.attention_other == 6);  // kv_a_layernorm 2 + q_a_layernorm 4
}

TEST_CASE("quantizable linear weights leave out excluded groups", "[estimator][params]") {
  ModelArch m = TinyDense();
  auto p = CountParams(m);
  gpulint::est::QuantExclusions none, attention;
  attention.attention = true;
  CHECK(p.QuantizableLinear(none) == 96 + 192);
  CHECK(p.QuantizableLinear(attention) == 192);
}

TEST_CASE("Gated DeltaNet layers and a gated q_proj (Qwen3.5), counted by hand",
          "[estimator][params]") {
  ModelArch m = TinyDense();
  m.attention_output_gate = true;  // q_proj writes q and its gate: 4 x 8 instead of 4 x 4
  m.linear = {/*key_heads=*/1, /*value_heads=*/2, /*key_head_dim=*/2, /*value_head_dim=*/2,
              /*conv_kernel=*/4};
  m.linear_attention_layer = {true, false};
  auto p = CountParams(m);
  // Layer 1 (full attention): q+gate 4x8 + k 4x2 + v 4x2 + o 4x4 = 64.
  // Layer 0 (Gated DeltaNet): key width 2, value width 4, conv width 2 x 2 + 4 = 8:
  //   in_proj_qkv 4x8 + in_proj_z 4x4 + in_proj_b and in_proj_a 2 x 4x2 + out_proj 4x4 = 80;
  //   conv 8 channels x kernel 4 = 32, dt_bias and A_log 2 x 2 = 4, gated norm 2 = 38.
  CHECK(p.attention_linear == 64 + 80);
  CHECK(p.attention_other == 38);
  CHECK(p.Total() == 388 + (64 - 48) + (80 - 48) + 38);
  CHECK(p.mtp == 0);
}

TEST_CASE("Mamba-2 layers (Granite 4.0 H), counted by hand", "[estimator][params]") {
  ModelArch m = TinyDense();
  // 2 heads of 4 (inner width 8 = expand 2 x hidden 4), 1 group, state 3, kernel 4.
  m.linear = {/*key_heads=*/1, /*value_heads=*/2, /*key_head_dim=*/3, /*value_head_dim=*/4,
              /*conv_kernel=*/4, /*conv_bias=*/true, /*proj_bias=*/false,
              ModelArch::LinearAttention::Kind::kMamba2};
  m.linear_attention_layer = {true, false};
  auto p = CountParams(m);
  // conv_dim = 8 + 2 x 1 x 3 = 14; in_proj 4 x (8 + 14 + 2) = 96, out_proj 8 x 4 = 32.
  CHECK(p.attention_linear == 48 + 96 + 32);
  // conv 14 x 4 + bias 14 = 70, dt_bias, A_log and D 3 x 2 = 6, gated norm over 8 = 84.
  CHECK(p.attention_other == 84);
  // The projection biases a config switches on: in_proj's 24 outputs and out_proj's 4.
  m.linear.proj_bias = true;
  CHECK(CountParams(m).attention_other == 84 + 24);
  m.linear.out_proj_bias = true;
  CHECK(CountParams(m).attention_other == 84 + 24 + 4);
}

TEST_CASE("a parallel hybrid layer (Falcon-H1) holds attention and the mixer, counted by hand",
          "[estimator][params]") {
  ModelArch m = TinyDense();
  m.linear = {/*key_heads=*/1, /*value_heads=*/2, /*key_head_dim=*/3, /*value_head_dim=*/4,
              /*conv_kernel=*/4, /*conv_bias=*/true, /*proj_bias=*/false,
              ModelArch::LinearAttention::Kind::kMamba2};
  m.linear_attention_layer = {true, false};
  m.attention_beside_linear = true;
  auto p = CountParams(m);
  // Both layers keep their attention (48 each); the first adds the mixer as above.
  CHECK(p.attention_linear == 48 + 48 + 96 + 32);
  // Without its gated norm (mamba_rms_norm false) the mixer keeps conv 70 and 6 per-head values.
  m.linear.gated_norm = false;
  CHECK(CountParams(m).attention_other == 76);
}

TEST_CASE("Mamba-1 layers (Jamba), counted by hand", "[estimator][params]") {
  ModelArch m = TinyDense();
  // Inner width 8 = expand 2 x hidden 4, one channel per head; state 3, kernel 4, dt rank 2.
  m.linear = {/*key_heads=*/0, /*value_heads=*/8, /*key_head_dim=*/3, /*value_head_dim=*/1,
              /*conv_kernel=*/4, /*conv_bias=*/true, /*proj_bias=*/false,
              ModelArch::LinearAttention::Kind::kMamba1};
  m.linear.dt_rank = 2;
  m.linear.inner_norms = true;
  m.linear_attention_layer = {true, false};
  auto p = CountParams(m);
  // in_proj 4 x 16 = 64, x_proj 8 x (2 + 2 x 3) = 64, dt_proj 2 x 8 = 16, out_proj 8 x 4 = 32;
  // the attention layer's 48.
  CHECK(p.attention_linear == 48 + 64 + 64 + 16 + 32);
  // conv 8 x 4 + bias 8 = 40, dt_proj's bias and D 2 x 8 = 16, A_log 8 x 3 = 24, the dt, B and
  // C norms 2 + 3 + 3 = 8.
  CHECK(p.attention_other == 88);
  // Its state: the convolution over x alone (8 channels), 8 x 3 recurrent values.
  CHECK(m.linear.ConvWidth() == 8);
}

TEST_CASE("LFM2's short convolutions, counted by hand", "[estimator][params]") {
  ModelArch m = TinyDense();
  // One value head of the hidden width 4, a 3-wide convolution, no biases.
  m.linear = {/*key_heads=*/0, /*value_heads=*/1, /*key_head_dim=*/0, /*value_head_dim=*/4,
              /*conv_kernel=*/3, /*conv_bias=*/false, /*proj_bias=*/false,
              ModelArch::LinearAttention::Kind::kShortConv};
  m.linear_attention_layer = {true, false};
  auto p = CountParams(m);
  // in_proj 4 x 12 = 48, out_proj 4 x 4 = 16; the convolution 4 channels x 3.
  CHECK(p.attention_linear == 48 + 48 + 16);
  CHECK(p.attention_other == 12);
  // Its state: the convolution's last 2 inputs, no recurrent matrix.
  CHECK(m.linear.ConvWidth() == 4);
}

TEST_CASE("a mixer without an MLP (Nemotron-H's lone blocks): no MLP and one norm",
          "[estimator][params]") {
  ModelArch m = TinyDense();
  m.mlp_absent_layer = {true, false};
  auto p = CountParams(m);
  CHECK(p.dense_mlp_linear == 96);  // layer 1 only
  CHECK(p.norms == 4 + 8 + 4);      // layer 0 one norm, layer 1 two, the final one
  CHECK(p.Total() == 388 - 96 - 4);
}

TEST_CASE("MTP layers count toward the checkpoint, not toward what is loaded",
          "[estimator][params]") {
  ModelArch m = TinyDense();
  m.mtp_layers = 1;
  auto p = CountParams(m);
  // fc 2h x h = 32, three norms 12, one decoder layer: attention 48 + MLP 96 + two norms 8.
  CHECK(p.mtp == 32 + 12 + 48 + 96 + 8);
  CHECK(p.Total() == 388);
  CHECK(p.CheckpointTotal() == 388 + 196);
}

TEST_CASE("a Whisper audio encoder and its projectors (Qwen2-Audio, Voxtral), counted by hand",
          "[estimator][params]") {
  ModelArch m = TinyDense();
  using gpulint::est::AudioTower;
  AudioTower& a = m.audio;
  a.kind = AudioTower::Kind::kWhisper;
  a.depth = 2;
  a.hidden_size = 2;
  a.num_heads = 1;
  a.intermediate_size = 8;
  a.num_mel_bins = 3;
  a.max_source_positions = 5;
  // conv1 3 mel x 2 x kernel 3 + 2 = 20; conv2 2 x 2 x 3 + 2 = 14; positions 5 x 2 = 10.
  // Each block: q, k, v, out 4 x 2 x 2 = 16 with 3 biases of 2 = 6 (k has none); two LayerNorms
  // 2 x 4 = 8; fc1 2 x 8 + 8 = 24; fc2 8 x 2 + 2 = 18: 72, twice = 144. Final LayerNorm 4.
  // Qwen2-Audio's projector: 2 -> text hidden 4 with a bias = 12.
  const double encoder = 20 + 14 + 10 + 144 + 4;
  CHECK(CountParams(m).vision == encoder + 12);
  // Voxtral's: intermediate 8 -> 4 and 4 -> 4, no biases = 48.
  a.projector = AudioTower::Projector::kStackedMlp;
  CHECK(CountParams(m).vision == encoder + 48);
  // The total holds the tower beside the text model's 388.
  CHECK(CountParams(m).Total() == 388 + encoder + 48);
  // At full size, Qwen2-Audio-7B's tower is 636,968,960 (d_model 1280, 32 layers, ffn 5120,
  // 128 mel bins, 1500 positions): its checkpoint's 16.79 GB of bf16 shards hold 8.397B.
  a = AudioTower{AudioTower::Kind::kWhisper, 32, 1280, 0, 20, {0, 0}, 0, 5120, 128, 1500};
  m.hidden_size = 4096;
  CHECK(CountParams(m).vision == 636968960.0 + 1280.0 * 4096 + 4096);
}

TEST_CASE("Kimi Delta Attention layers, counted by hand", "[estimator][params]") {
  ModelArch m = TinyDense();
  // 2 heads of 2 for q, k and v (4 wide each), the gates' middle 2 wide, kernel 4.
  m.linear = {/*key_heads=*/2, /*value_heads=*/2, /*key_head_dim=*/2, /*value_head_dim=*/2,
              /*conv_kernel=*/4, /*conv_bias=*/false, /*proj_bias=*/false,
              ModelArch::LinearAttention::Kind::kKda};
  m.linear.gate_rank = 2;
  m.linear_attention_layer = {true, false};
  auto p = CountParams(m);
  // q, k, v 3 x 4 x 4 = 48, b_proj 4 x 2 = 8, f_a and g_a 2 x 4 x 2 = 16, f_b and g_b
  // 2 x 2 x 4 = 16, o_proj 4 x 4 = 16: 104 beside layer 1's attention (48).
  CHECK(p.attention_linear == 48 + 104);
  // Three convolutions over 4 channels x kernel 4 = 48, A_log 2, dt_bias 4, o_norm 2.
  CHECK(p.attention_other == 56);
}
