#include "estimator/activations.h"

#include <algorithm>

namespace gpulint::est {

// What autograd saves per token in one decoder layer (c = bytes per element):
//  - each norm: unfused (HF RMSNorm) keeps its fp32 upcast input (4h), the 16-bit cast that
//    multiplies the weight (ch) and its output, the next linear layers' input (ch); a fused
//    norm keeps its input and output (2ch);
//  - attention with flash/SDPA kernels: q and k after RoPE, v, the output and a per-head
//    log-sum-exp: c(2q + 2kv); RoPE itself keeps only cos/sin. Eager attention adds the softmax
//    output, kept in fp32 and again as the 16-bit copy that multiplies V: (4 + c) heads x s;
//  - per-head q/k norms (Qwen3, Gemma 3) keep an fp32 copy and a cast of q and k;
//  - gated MLP: gate output (for SiLU), SiLU output and up output (for the product) and the
//    product (for down_proj): 4cI; a plain MLP keeps fc1's output and the activation: 2cI;
//  - MoE: each token visits top-k experts: k x (ch dispatched input + expert MLP), plus the
//    shared expert;
//  - LoRA: each adapted linear keeps its r-dim intermediate (small, counted as 2cr per linear).
// Korthikanti et al. 2022 (arXiv 2205.05198) give the GPT version (34sbh + 5as^2b); this is the
// same accounting for RMSNorm, GQA, gated MLPs and experts.
double LayerActivationBytesPerToken(const ModelArch& m, int64_t layer, const ActivationInput& in) {
  const double c = in.compute_bytes;
  const double tp = std::max(in.tp, 1);
  const double h_split = in.sequence_parallel ? tp : 1;
  const double h = static_cast<double>(m.hidden_size);
  const double heads = static_cast<double>(m.num_attention_heads);
  double q = heads * m.head_dim;
  double kv = static_cast<double>(m.num_kv_heads) * m.head_dim;
  double attention = 2 * q + 2 * kv;  // q, k, v and the output
  if (m.is_mla()) {
    // MLA: per-head keys are expanded from the latent; keep q, k (nope + rope), v, the output
    // and the latent itself.
    q = heads * (m.qk_nope_head_dim + m.qk_rope_head_dim);
    kv = q;
    attention = 2 * q + 2 * heads * m.v_head_dim + (m.kv_lora_rank + m.qk_rope_head_dim);
  }
  // LayerNorm (with bias) is one fused torch kernel that keeps its input (and per-row
  // statistics); RMSNorm written out in Python (HF, litgpt) keeps the fp32 upcast as well.
  const bool unfused = in.norms == NormStyle::kUnfused && !m.layer_norm_bias;
  const double norm = unfused ? (4 + 2 * c) * h : 2 * c * h;
  double bytes = m.norms_per_layer * norm / h_split;
  bytes += c * attention / tp;
  if (m.qk_norm != ModelArch::QkNorm::kNone) bytes += (4 + c) * (q + kv) / tp;
  if (in.attention == AttentionKind::kEager) {
    double span = m.WindowOfLayer(layer) > 0
                      ? std::min<double>(in.context_len, static_cast<double>(m.WindowOfLayer(layer)))
                      : in.context_len;
    bytes += (4 + c) * m.num_attention_heads * span / tp;
  }
  const double mlp_factor = m.gated_mlp ? 4 : 2;
  if (m.IsMoeLayer(layer)) {
    const double k = static_cast<double>(std::max<int64_t>(m.experts_per_token, 1));
    bytes += k * (c * h + mlp_factor * c * m.expert_intermediate_size) / tp;
    bytes += c * m.num_experts / tp;  // router logits
    if (m.shared_expert_intermediate_size > 0)
      bytes += mlp_factor * c * m.shared_expert_intermediate_size / tp;
  } else {
    double width = m.is_moe() && m.dense_intermediate_size > 0 ? m.dense_intermediate_size
                                                               : m.intermediate_size;
    bytes += mlp_factor * c * width / tp;
  }
  if (in.lora_rank > 0) bytes += 7 * 2 * c * in.lora_rank;  // q k v o gate up down
  return bytes;
}

ActivationEstimate EstimateActivations(const ModelArch& m, const ActivationInput& in) {
  ActivationEstimate out;
  const double layers = std::max(in.layers, 1);
  const double total_layers = std::max<double>(static_cast<double>(m.num_layers), 1);
  // Average over the layers of the model (MoE and sliding-window layers differ).
  double sum = 0, largest = 0;
  for (int64_t l = 0; l < m.num_layers; ++l) {
    double per_token = LayerActivationBytesPerToken(m, l, in);
    sum += per_token;
    largest = std::max(largest, per_token);
  }
  if (m.num_layers == 0) largest = sum = LayerActivationBytesPerToken(m, 0, in);
  out.per_token_layer = sum / total_layers;
  out.layer_bytes = largest * in.tokens;
  const double in_flight = std::max(in.in_flight_microbatches, 1.0);
  const double h_split = in.sequence_parallel ? std::max(in.tp, 1) : 1;
  // The input of each layer (the residual stream) is what a checkpoint keeps.
  const double checkpoint = in.compute_bytes * m.hidden_size / h_split * in.tokens;
  switch (in.recompute) {
    case Recompute::kFull:
      out.stored_bytes = checkpoint * layers * in_flight;
      break;
    case Recompute::kSelective:
    case Recompute::kNone:
      // Selective recompute drops the attention core; with flash kernels it keeps nothing
      // quadratic to begin with, so it saves what eager attention would have stored.
      out.stored_bytes = out.per_token_layer * in.tokens * layers * in_flight;
      if (in.recompute == Recompute::kSelective && in.attention == AttentionKind::kEager) {
        ActivationInput flash = in;
        flash.attention = AttentionKind::kFlash;
        flash.recompute = Recompute::kNone;
        out.stored_bytes = EstimateActivations(m, flash).stored_bytes;
      }
      break;
  }
  return out;
}

}  // namespace gpulint::est
