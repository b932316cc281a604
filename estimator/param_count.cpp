#include "estimator/param_count.h"

namespace gpulint::est {
namespace {

double AttentionLinear(const ModelArch& m, int64_t layer) {
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
  const ModelArch::AttentionShape shape = m.AttentionOf(layer);
  const double q_width = shape.QueryWidth(m.num_attention_heads), kv_width = shape.KvWidth();
  const double q_out = m.attention_output_gate ? 2 * q_width : q_width;  // q and its gate
  return h * q_out + shape.KvProjections() * h * kv_width + q_width * h;
}

// Gated DeltaNet (modeling_qwen3_5.py 445-509 at transformers 2da00a3c; Qwen3-Next fuses the same
// projections as in_proj_qkvz and in_proj_ba): q, k and v (in_proj_qkv), the output gate z,
// beta and the decay input a (one per value head each), and out_proj. Mamba-2
// (modeling_granitemoehybrid.py 400-430 at 2da00a3c): one in_proj of z, x, B, C and dt per head
// (projection_size = intermediate + conv_dim + num_heads), and out_proj. LFM2's short
// convolution (modeling_lfm2.py 454-475 at 2da00a3c): in_proj h x 3h, out_proj h x h.
// Mamba-1 (modeling_jamba.py 475-488 at transformers e8c4f0b7): in_proj h x 2 inner, x_proj
// inner x (dt_rank + 2 d_state), dt_proj dt_rank x inner, out_proj. Kimi Delta Attention
// (axolotl-ai-cloud/axolotl@067b021c src/axolotl/model_support/kimi_linear/modeling_kimi.py
// 473-508, as the checkpoint's remote code): q_proj, k_proj, v_proj, b_proj (h x heads),
// f_a_proj and g_a_proj (h x head_dim), f_b_proj and g_b_proj (head_dim x heads x head_dim),
// o_proj, all without biases.
double LinearAttentionLinear(const ModelArch& m) {
  const ModelArch::LinearAttention& l = m.linear;
  const double h = m.hidden_size;
  double linear = h * l.InProjWidth() + l.ValueWidth() * h;
  if (l.kind == ModelArch::LinearAttention::Kind::kKda)
    linear += 2.0 * static_cast<double>(l.gate_rank) * l.ValueWidth();
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
  // KDA: A_log per head, dt_bias per channel (both fp32 in the module, counted as parameters),
  // o_norm over one head (FusedRMSNormGated); its three ShortConvolutions have no bias.
  if (l.kind == Kind::kKda)
    other += static_cast<double>(l.value_heads) + l.ValueWidth() + l.value_head_dim;
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

double AttentionOther(const ModelArch& m, int64_t layer) {
  double other = 0;
  if (m.is_mla()) {
    other += m.kv_lora_rank;                        // kv_a_layernorm
    if (m.q_lora_rank > 0) other += m.q_lora_rank;  // q_a_layernorm
    return other;
  }
  const ModelArch::AttentionShape shape = m.AttentionOf(layer);
  const double q_width = shape.QueryWidth(m.num_attention_heads), kv_width = shape.KvWidth();
  if (m.qkv_bias) other += q_width + shape.KvProjections() * kv_width;
  if (m.o_bias) other += m.hidden_size;
  switch (m.qk_norm) {
    case ModelArch::QkNorm::kPerHead:
      other += shape.head_dim * (shape.key_projection ? 2 : 1);  // no k_norm without k_proj
      break;
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
  // Projector into the language model: merged patches -> out_hidden_size (VisionTower::Projector).
  const double merged = h * v.spatial_merge_size * v.spatial_merge_size;
  const double out = static_cast<double>(v.out_hidden_size);
  double projector = 0;
  if (out > 0) {
    switch (v.projector) {
      case VisionTower::Projector::kMerger:
        projector = 2 * merged + merged * merged + merged + merged * out + out;
        break;
      case VisionTower::Projector::kLinear: projector = merged * out; break;
      case VisionTower::Projector::kMlp: {
        const double hidden = static_cast<double>(v.projector_hidden_size);
        projector = 2 * merged + merged * hidden + hidden + hidden * out + out;
        break;
      }
    }
  }
  return patch + v.position_rows * h + v.depth * block + projector * (1 + v.deepstack_mergers) +
         2 * h;
}

// Gemma 4's audio conformer (modeling_gemma4.py at transformers e8c4f0b7): the subsampling
// convolutions with their LayerNorms and input projection (357-412); per block two feed-forward
// modules of 4h with two norms each (415-428), q, k, v, post and relative_k_proj with a
// per-dimension scale (249-276), the light convolution's start (h -> 2h), end, depthwise kernel
// and two norms (484-501), and three block norms (535-537); output_proj with its bias (1932) and
// the projector into the language model's width (2184-2188).
double ConformerParams(const AudioTower& a, double text_hidden) {
  const double h = a.hidden_size, c0 = a.subsample_channels[0], c1 = a.subsample_channels[1];
  // input_proj_linear reads (c0 / 4) x c1 features (395: integer division).
  const double subsample = 9 * c0 + c0 + 9 * c0 * c1 + c1 +
                           h * static_cast<double>(a.subsample_channels[0] / 4) * c1;
  const double feed_forward = 2 * 4 * h * h + 2 * h;
  const double head_dim = a.num_heads > 0 ? static_cast<double>(a.hidden_size / a.num_heads) : 0;
  const double attention = 5 * h * h + head_dim;  // per_dim_scale
  const double light_conv = 2 * h * h + h * h + h * a.conv_kernel + 2 * h;
  const double block = 2 * feed_forward + attention + light_conv + 3 * h;
  const double output = a.output_size * h + a.output_size;
  return subsample + a.depth * block + output + text_hidden * a.output_size;
}

// Whisper's encoder (huggingface/transformers modeling_qwen2_audio.py at 01ae98ae:
// Qwen2AudioEncoder, Qwen2AudioEncoderLayer, Qwen2AudioAttention, Qwen2AudioMultiModalProjector;
// modeling_voxtral.py at 00aa0f5d: VoxtralMultiModalProjector). conv1 (mel -> h) and conv2
// (h -> h), kernel 3 with biases; embed_positions, an nn.Embedding the encoder freezes but keeps
// as a parameter; per block self_attn_layer_norm and final_layer_norm (LayerNorms), q_proj,
// v_proj and out_proj with biases, k_proj without, fc1 and fc2 with biases; the final
// layer_norm. 636,968,960 for Qwen2-Audio-7B's tower (tests/estimator/param_count_test.cpp).
double WhisperParams(const AudioTower& a, double text_hidden) {
  const double h = a.hidden_size, ffn = a.intermediate_size;
  const double convolutions = 3 * a.num_mel_bins * h + h + 3 * h * h + h;
  const double block = 4 * h * h + 3 * h + 2 * 2 * h + 2 * h * ffn + ffn + h;
  const double projector = a.projector == AudioTower::Projector::kLinear
                               ? h * text_hidden + text_hidden
                               : ffn * text_hidden + text_hidden * text_hidden;
  return convolutions + a.max_source_positions * h + a.depth * block + 2 * h + projector;
}

double AudioParams(const AudioTower& a, double text_hidden) {
  if (!a.present()) return 0;
  return a.kind == AudioTower::Kind::kWhisper ? WhisperParams(a, text_hidden)
                                              : ConformerParams(a, text_hidden);
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
  double linear = exclusions.routed_experts ? 0 : expert_linear;
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
  const double linear_attention_linear = LinearAttentionLinear(m);
  const double linear_attention_other = LinearAttentionOther(m);
  // Per-layer inputs: the table is an embedding (never quantized), the model-level projection
  // and each layer's gate and projection are linear layers beside the MLP, their norms norms.
  const double per_layer = static_cast<double>(m.per_layer_input_size);
  if (per_layer > 0) {
    const double all_layers = per_layer * static_cast<double>(m.num_layers);
    p.embedding += static_cast<double>(m.per_layer_input_vocab) * all_layers;
    p.dense_mlp_linear += all_layers * h;
    p.norms += per_layer;
  }
  for (int64_t layer = 0; layer < m.num_layers; ++layer) {
    if (m.IsLinearAttentionLayer(layer)) {
      p.attention_linear += linear_attention_linear;
      p.attention_other += linear_attention_other;
    }
    if (m.HasAttention(layer)) {
      p.attention_linear += AttentionLinear(m, layer);
      p.attention_other += AttentionOther(m, layer);
    }
    if (per_layer > 0) {
      p.dense_mlp_linear += 2 * h * per_layer;
      p.norms += NormSize(m);
    }
    if (!m.HasMlp(layer)) {  // one norm, in front of the mixer
      p.norms += std::max(m.norms_per_layer - 1, 1) * NormSize(m);
      continue;
    }
    p.norms += m.norms_per_layer * NormSize(m);
    if (!m.IsMoeLayer(layer)) {
      const double dense_width = m.MlpWidthOf(layer);
      p.dense_mlp_linear += MlpLinear(m, dense_width);
      if (m.mlp_bias) p.dense_mlp_bias += (m.gated_mlp ? 2.0 : 1.0) * dense_width + h;
      continue;
    }
    const double expert_width = m.expert_intermediate_size;
    p.expert_linear += m.num_experts * MlpLinear(m, expert_width);
    // gpt-oss experts: fused gate_up bias (2 x width) and down bias (h).
    if (m.expert_bias) p.expert_bias += m.num_experts * (2.0 * expert_width + h);
    p.router += h * m.num_experts + (m.router_bias ? m.num_experts : 0) +
                (m.router_scales ? h + m.num_experts : 0);
    p.norms += m.moe_extra_norms * NormSize(m);
    if (m.shared_expert_intermediate_size > 0) {
      p.shared_expert_linear += MlpLinear(m, m.shared_expert_intermediate_size);
      if (m.shared_expert_gate) p.shared_expert_linear += h;
    }
  }
  p.norms += NormSize(m);  // final norm
  p.vision = VisionParams(m.vision) + AudioParams(m.audio, h);
  if (m.mtp_layers > 0) {
    // Each MTP layer (Qwen3.5): fc over [embedding; hidden] (2h x h), the two norms in front of
    // it, one full-attention decoder layer with the model's last MLP, and its own final norm.
    const int64_t last = m.num_layers - 1;
    const double dense_width = m.DenseMlpWidth();
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
    double layer = AttentionLinear(full, last) + AttentionOther(full, last) + mlp +
                   m.norms_per_layer * NormSize(m);
    p.mtp = m.mtp_layers * (2 * h * h + 3 * NormSize(m) + layer);
  }
  return p;
}

}  // namespace gpulint::est
