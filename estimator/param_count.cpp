#include "estimator/param_count.h"

namespace gpulint::est {
namespace {

double AttentionLinear(const ModelArch& m) {
  const double h = m.hidden_size, a = m.num_attention_heads;
  if (m.is_mla()) {
    // DeepSeek MLA: q through an optional low-rank bottleneck, a joint compressed kv latent
    // (+ the decoupled rope key), its up-projection to per-head nope keys and values, and o.
    const double qk_head = m.qk_nope_head_dim + m.qk_rope_head_dim;
    double q = m.q_lora_rank > 0 ? h * m.q_lora_rank + m.q_lora_rank * a * qk_head : h * a * qk_head;
    double kv_down = h * (m.kv_lora_rank + m.qk_rope_head_dim);
    double kv_up = static_cast<double>(m.kv_lora_rank) * a * (m.qk_nope_head_dim + m.v_head_dim);
    double o = a * m.v_head_dim * h;
    return q + kv_down + kv_up + o;
  }
  const double q_width = a * m.head_dim, kv_width = double(m.num_kv_heads) * m.head_dim;
  const double q_out = m.attention_output_gate ? 2 * q_width : q_width;  // q and its gate
  return h * q_out + 2 * h * kv_width + q_width * h;
}

// Gated DeltaNet (modeling_qwen3_5.py 445-509 at transformers 2da00a3c; Qwen3-Next fuses the same
// projections as in_proj_qkvz and in_proj_ba): q, k and v (in_proj_qkv), the output gate z,
// beta and the decay input a (one per value head each), and out_proj. Mamba-2
// (modeling_granitemoehybrid.py 400-430 at 2da00a3c): one in_proj of z, x, B, C and dt per head
// (projection_size = intermediate + conv_dim + num_heads), and out_proj. LFM2's short
// convolution (modeling_lfm2.py 454-475 at 2da00a3c): in_proj h x 3h, out_proj h x h.
// Mamba-1 (modeling_jamba.py 475-488 at transformers e8c4f0b7): in_proj h x 2 inner, x_proj
// inner x (dt_rank + 2 d_state), dt_proj dt_rank x inner, out_proj.
double LinearAttentionLinear(const ModelArch& m) {
  const ModelArch::LinearAttention& l = m.linear;
  const double h = m.hidden_size;
  double linear = h * l.InProjWidth() + l.ValueWidth() * h;
  if (l.kind == ModelArch::LinearAttention::Kind::kMamba1)
    linear += l.ValueWidth() * (static_cast<double>(l.dt_rank) + 2.0 * l.key_head_dim) +
              static_cast<double>(l.dt_rank) * l.ValueWidth();
  return linear;
}

// Its depthwise causal convolution, the per-head parameters (dt_bias and A_log; Mamba-2 adds D;
// Mamba-1 keeps A_log per channel and state), the gated RMSNorm (over one head's width in Gated
// DeltaNet, over the whole width in Mamba-2 where it has one; the short convolution and Mamba-1
// have none) and the biases a config switches on.
double LinearAttentionOther(const ModelArch& m) {
  const ModelArch::LinearAttention& l = m.linear;
  using Kind = ModelArch::LinearAttention::Kind;
  double other = l.ConvWidth() * l.conv_kernel;
  if (l.kind == Kind::kGatedDeltaNet) other += 2.0 * l.value_heads + l.value_head_dim;
  if (l.kind == Kind::kMamba2) other += 3.0 * l.value_heads + (l.gated_norm ? l.ValueWidth() : 0);
  // Mamba-1: dt_proj's bias and D per channel, A_log per channel and state; Jamba's norms.
  if (l.kind == Kind::kMamba1)
    other += l.ValueWidth() * (2.0 + static_cast<double>(l.key_head_dim)) +
             (l.inner_norms ? static_cast<double>(l.dt_rank) + 2.0 * l.key_head_dim : 0);
  if (l.conv_bias) other += l.ConvWidth();
  if (l.proj_bias) other += l.InProjWidth();
  if (l.out_proj_bias) other += m.hidden_size;
  return other;
}

double AttentionOther(const ModelArch& m) {
  double other = 0;
  if (m.is_mla()) {
    other += m.kv_lora_rank;                        // kv_a_layernorm
    if (m.q_lora_rank > 0) other += m.q_lora_rank;  // q_a_layernorm
    return other;
  }
  const double q_width = double(m.num_attention_heads) * m.head_dim;
  const double kv_width = double(m.num_kv_heads) * m.head_dim;
  if (m.qkv_bias) other += q_width + 2 * kv_width;
  if (m.o_bias) other += m.hidden_size;
  switch (m.qk_norm) {
    case ModelArch::QkNorm::kPerHead: other += 2.0 * m.head_dim; break;
    case ModelArch::QkNorm::kFullWidth: other += q_width + kv_width; break;
    case ModelArch::QkNorm::kNone: break;
  }
  if (m.attention_sinks) other += m.num_attention_heads;
  return other;
}

double MlpLinear(const ModelArch& m, double width) {
  return (m.gated_mlp ? 3.0 : 2.0) * m.hidden_size * width;
}

double NormSize(const ModelArch& m) { return (m.layer_norm_bias ? 2.0 : 1.0) * m.hidden_size; }

double VisionParams(const VisionTower& v) {
  if (!v.present()) return 0;
  const double h = v.hidden_size;
  const double inner = v.intermediate_size > 0 ? v.intermediate_size : 4 * h;
  // Patch embedding: a conv over (channels x temporal x patch x patch) pixels.
  double patch = 3.0 * v.temporal_patch_size * v.patch_size * v.patch_size * h;
  // Each block: qkv + proj with biases, MLP with biases, two LayerNorms (weight + bias).
  double mlp = v.gated_mlp ? 3 * h * inner + 2 * inner + h : 2 * h * inner + inner + h;
  double block = 4 * h * h + 4 * h + mlp + 4 * h;
  // Projector into the language model: merged patches -> MLP -> out_hidden_size.
  double merged = h * v.spatial_merge_size * v.spatial_merge_size;
  double projector = 0;
  if (v.out_hidden_size > 0) {
    projector = 2 * merged + merged * merged + merged + merged * v.out_hidden_size +
                v.out_hidden_size;
  }
  return patch + v.depth * block + projector * (1 + v.deepstack_mergers) + 2 * h;
}

}  // namespace

double ParamBreakdown::Total() const {
  return embedding + lm_head + attention_linear + attention_other + dense_mlp_linear +
         dense_mlp_bias + expert_linear + expert_bias + shared_expert_linear + router + norms +
         vision;
}

double ParamBreakdown::TextActive(const ModelArch& arch, bool count_embedding) const {
  double routed_share = arch.num_experts > 0
                            ? static_cast<double>(arch.experts_per_token) / arch.num_experts
                            : 1.0;
  double active = TextTotal() - (expert_linear + expert_bias) * (1.0 - routed_share);
  return count_embedding ? active : active - embedding;
}

double ParamBreakdown::QuantizableLinear(const QuantExclusions& exclusions) const {
  double linear = expert_linear;
  if (!exclusions.attention) linear += attention_linear;
  if (!exclusions.dense_mlp) linear += dense_mlp_linear;
  if (!exclusions.shared_experts) linear += shared_expert_linear;
  return linear;
}

ParamBreakdown CountParams(const ModelArch& m) {
  ParamBreakdown p;
  const double h = m.hidden_size, vocab = m.vocab_size;
  p.embedding = vocab * h;
  p.lm_head = m.tied_embeddings ? 0 : vocab * h;
  if (m.lm_head_bias) p.lm_head += vocab;
  const double attention_linear = AttentionLinear(m), attention_other = AttentionOther(m);
  const double dense_width = m.DenseMlpWidth();
  const double linear_attention_linear = LinearAttentionLinear(m);
  const double linear_attention_other = LinearAttentionOther(m);
  for (int64_t layer = 0; layer < m.num_layers; ++layer) {
    if (m.IsLinearAttentionLayer(layer)) {
      p.attention_linear += linear_attention_linear;
      p.attention_other += linear_attention_other;
    }
    if (m.HasAttention(layer)) {
      p.attention_linear += attention_linear;
      p.attention_other += attention_other;
    }
    if (!m.HasMlp(layer)) {  // one norm, in front of the mixer
      p.norms += std::max(m.norms_per_layer - 1, 1) * NormSize(m);
      continue;
    }
    p.norms += m.norms_per_layer * NormSize(m);
    if (!m.IsMoeLayer(layer)) {
      p.dense_mlp_linear += MlpLinear(m, dense_width);
      if (m.mlp_bias) p.dense_mlp_bias += (m.gated_mlp ? 2.0 : 1.0) * dense_width + h;
      continue;
    }
    const double expert_width = m.expert_intermediate_size;
    p.expert_linear += m.num_experts * MlpLinear(m, expert_width);
    // gpt-oss experts: fused gate_up bias (2 x width) and down bias (h).
    if (m.expert_bias) p.expert_bias += m.num_experts * (2.0 * expert_width + h);
    p.router += h * m.num_experts + (m.router_bias ? m.num_experts : 0);
    if (m.shared_expert_intermediate_size > 0) {
      p.shared_expert_linear += MlpLinear(m, m.shared_expert_intermediate_size);
      if (m.shared_expert_gate) p.shared_expert_linear += h;
    }
  }
  p.norms += NormSize(m);  // final norm
  p.vision = VisionParams(m.vision);
  if (m.mtp_layers > 0) {
    // Each MTP layer (Qwen3.5): fc over [embedding; hidden] (2h x h), the two norms in front of
    // it, one full-attention decoder layer with the model's last MLP, and its own final norm.
    const int64_t last = m.num_layers - 1;
    ModelArch full = m;
    full.linear_attention_layer.clear();
    double mlp = m.IsMoeLayer(last)
                     ? m.num_experts * MlpLinear(m, m.expert_intermediate_size) +
                           h * m.num_experts + (m.router_bias ? m.num_experts : 0) +
                           (m.shared_expert_intermediate_size > 0
                                ? MlpLinear(m, m.shared_expert_intermediate_size) +
                                      (m.shared_expert_gate ? h : 0)
                                : 0)
                     : MlpLinear(m, dense_width);
    double layer = AttentionLinear(full) + AttentionOther(full) + mlp +
                   m.norms_per_layer * NormSize(m);
    p.mtp = m.mtp_layers * (2 * h * h + 3 * NormSize(m) + layer);
  }
  return p;
}

}  // namespace gpulint::est
