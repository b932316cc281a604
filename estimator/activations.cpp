#include "estimator/activations.h"

#include <algorithm>
#include <vector>

namespace gpulint::est {
namespace {

// Bytes per token one norm keeps, given how many linear layers read its output.
//  - LayerNorm with bias is one fused torch kernel, and Megatron's norms are fused: input and
//    output, 2ch;
//  - HF's RMSNorm in 16 bits keeps the fp32 upcast of its input, the 16-bit normalized value the
//    weight multiplies, and its output, which every reader shares: (4 + 2c)h;
//  - under autocast the input is already fp32 (the residual stream keeps the weights' dtype), so
//    the norm keeps that input and its fp32 normalized value, and autocast casts the fp32 output
//    once per reading linear, each copy saved by its matmul: (8 + c x readers)h. Measured on an
//    H100 (bench/gpu/results, full-amp-adamw): ~10h per layer more than the 16-bit accounting
//    for Llama and Qwen, whose attention norm feeds q, k and v and MLP norm gate and up.
//  - with a frozen weight nothing keeps the normalized value or the output for a weight's
//    gradient: the fp32 upcast alone (HF), or the input alone (fused).
//  - Liger's RMSNorm, where a trainer has it replace the layers' two norms and the final one,
//    keeps its input as the fused ones do (the fp32 rstd per row is negligible).
double NormBytesPerToken(const ModelArch& m, const ActivationInput& in, double readers,
                         bool liger = false) {
  const double c = in.compute_bytes;
  const double h = static_cast<double>(m.hidden_size);
  const bool fused = in.norms == NormStyle::kFused || m.layer_norm_bias || (liger && !in.autocast);
  if (in.frozen_base) return fused ? c * h : 4 * h;
  if (fused) return 2 * c * h;
  if (in.autocast) return (8 + c * readers) * h;
  return (4 + 2 * c) * h;
}

// The width of a layer's attention output (o_proj's input).
double AttentionOutWidth(const ModelArch& m, int64_t layer) {
  if (m.is_mla()) return static_cast<double>(m.num_attention_heads) * m.v_head_dim;
  return m.AttentionOf(layer).QueryWidth(m.num_attention_heads);
}

// Which blocks of a layer run through fused LoRA functions (ActivationInput::lora_fused_*):
// q/k/v and o where every linear layer is adapted; the MLP where it is dense and gated, as the
// function needs gate, up and down adapted (axolotl's monkeypatch/lora_kernels.py patches an
// MLP only where it finds the three; a plain fc1/fc2 MLP or routed experts keep PEFT's path).
struct FusedBlocks {
  bool qkv = false, o = false, mlp = false;
};
FusedBlocks FusedOf(const ModelArch& m, int64_t layer, const ActivationInput& in) {
  FusedBlocks fused;
  if (in.lora_rank <= 0 || !in.lora_all_linear || !in.frozen_base) return fused;
  const bool attention = m.HasAttention(layer) && !m.is_mla();
  fused.qkv = in.lora_fused_qkv && attention;
  fused.o = in.lora_fused_o && attention;
  fused.mlp = in.lora_fused_mlp && m.gated_mlp && !m.IsMoeLayer(layer) && m.HasMlp(layer);
  return fused;
}

// What the fused functions keep per token in one layer (src/axolotl/kernels/lora.py at
// 067b021c): LoRA_QKV and LoRA_O `ctx.save_for_backward(X, X_drop if has_dropout else X, ...)`
// (their input, and the dropped copy that torch's dropout in front of them made, with the
// one-byte mask dropout keeps), LoRA_MLP the same and `gate, up`; the down projection's input
// is recomputed in backward from gate and up.
double FusedLoraBytesPerToken(const ModelArch& m, int64_t layer, const FusedBlocks& fused,
                              const ActivationInput& in) {
  const double c = in.compute_bytes;
  const double h = static_cast<double>(m.hidden_size);
  const double attention_out = AttentionOutWidth(m, layer);
  const double per_input = c + (in.lora_dropout ? c + 1 : 0);
  double bytes = 0;
  if (fused.qkv) bytes += per_input * h;
  if (fused.o) bytes += per_input * attention_out;
  if (fused.mlp) {
    bytes += per_input * h + 2 * c * m.MlpWidthOf(layer);
  }
  return bytes / std::max(in.tp, 1);
}

// What LoRA adds per token in one layer. PEFT casts each adapted linear's input to the adapters'
// dtype (tuners_utils.py `_cast_input_dtype`: a new tensor unless the dtypes already agree), and
// dropout keeps its output for lora_A and a one-byte mask. With fp32 adapters that is 5 bytes
// per input element (4 without dropout), each adapted linear its own copy; lora_A's r-wide
// output is kept for lora_B. Measured: with this and the frozen base's savings, LoRA runs
// without checkpointing on an H100 (bench/gpu/results: Qwen2.5, Qwen3, Llama at ranks 8 and 64,
// all linear layers or q and v) fit within 1-2%. Adapters in the compute dtype (DeepSpeed) need
// no cast: dropout's 16-bit output and mask per adapted linear, and without dropout lora_A keeps
// the input itself, one tensor for the linears that share it (q, k and v; gate and up).
double LoraBytesPerTokenLayer(const ModelArch& m, int64_t layer, const ActivationInput& in) {
  if (in.lora_rank <= 0) return 0;
  const double h = static_cast<double>(m.hidden_size);
  const double attention_out = AttentionOutWidth(m, layer);
  const bool shared = !in.lora_dropout && in.lora_bytes <= in.compute_bytes;
  const FusedBlocks fused = FusedOf(m, layer, in);  // counted by FusedLoraBytesPerToken
  // q_proj and v_proj read the normalized hidden state.
  double inputs = shared ? h : 2 * h, adapted = 2;
  if (in.lora_all_linear) {
    // q, k, v; o_proj reads the attention output.
    inputs = (fused.qkv ? 0 : shared ? h : 3 * h) + (fused.o ? 0 : attention_out);
    adapted = (fused.qkv ? 0 : 3) + (fused.o ? 0 : 1);
    const double up_linears = m.gated_mlp ? 2 : 1;  // gate and up, or fc1
    const double up_inputs = shared ? 1 : up_linears;
    if (!m.HasMlp(layer)) {
      // A mixer alone: nothing more to adapt.
    } else if (m.IsMoeLayer(layer) && (m.fused_experts || !in.lora_routed_experts)) {
      // Only the shared expert is adapted (see ModelArch::fused_experts, expert_linear_names).
      inputs += up_inputs * h + static_cast<double>(m.shared_expert_intermediate_size);
      adapted += up_linears + 1;
    } else if (m.IsMoeLayer(layer)) {
      const double k = static_cast<double>(std::max<int64_t>(m.experts_per_token, 1));
      inputs += k * (up_inputs * h + static_cast<double>(m.expert_intermediate_size));
      adapted += k * (up_linears + 1);
    } else if (!fused.mlp) {
      const double width = m.MlpWidthOf(layer);
      inputs += up_inputs * h + width;
      adapted += up_linears + 1;
    }
  }
  const double per_input = in.lora_bytes + (in.lora_dropout ? 1 : 0);
  return (per_input * inputs + in.lora_bytes * adapted * in.lora_rank) / std::max(in.tp, 1);
}

// What a frozen base quantized by bitsandbytes keeps beyond a 16-bit frozen base, per token in
// one layer. MatMul4Bit and MatMul8bitLt save their input A whenever anything in the graph needs
// a gradient (bitsandbytes/autograd/_functions.py: `ctx.tensors = (A, B)`), frozen weight or
// not: the attention norm's 16-bit output (q, k and v share it), o_proj's input (the attention
// output, laid out anew when the heads are merged), the MLP norm's output (gate and up share it)
// and down_proj's input, the product. A MoE layer keeps its experts' dispatched copies already;
// their down_proj inputs are new, and a shared expert's input (the MLP norm's output) and its
// down_proj's.
double QuantizedBaseInputBytesPerToken(const ModelArch& m, int64_t layer,
                                       const ActivationInput& in) {
  if (!in.frozen_base || !in.quantized_base_keeps_inputs) return 0;
  const double c = in.compute_bytes;
  const double tp = std::max(in.tp, 1);
  const double h_split = in.sequence_parallel ? tp : 1;
  const double h = static_cast<double>(m.hidden_size);
  const double attention_out = AttentionOutWidth(m, layer);
  // Inside a fused LoRA function the base matmul keeps nothing of its own.
  const FusedBlocks fused = FusedOf(m, layer, in);
  double h_sized = fused.qkv ? 0 : h;  // the attention norm's output
  double split = fused.o ? 0 : attention_out;
  if (!m.HasMlp(layer)) {
    // A mixer alone: no MLP input.
  } else if (m.IsMoeLayer(layer)) {
    const double k = static_cast<double>(std::max<int64_t>(m.experts_per_token, 1));
    split += k * static_cast<double>(m.expert_intermediate_size) +
             static_cast<double>(m.shared_expert_intermediate_size);
    if (m.shared_expert_intermediate_size > 0) h_sized += h;
  } else if (!fused.mlp) {
    h_sized += h;  // the MLP norm's output
    split += m.MlpWidthOf(layer);
  }
  return c * (h_sized / h_split + split / tp);
}

// Per token, summed over heads: the query and key widths, and the elements attention keeps for
// backward (q, k, v and the output; MLA expands per-head keys from its latent and keeps that too).
struct AttentionWidths {
  double q, kv, saved;
};
AttentionWidths WidthsOf(const ModelArch& m, int64_t layer) {
  const double heads = static_cast<double>(m.num_attention_heads);
  if (m.is_mla()) {
    const double q = heads * (m.qk_nope_head_dim + m.qk_rope_head_dim);
    return {q, q, 2 * q + 2 * heads * m.v_head_dim + (m.kv_lora_rank + m.qk_rope_head_dim)};
  }
  const ModelArch::AttentionShape shape = m.AttentionOf(layer);
  const double q = shape.QueryWidth(m.num_attention_heads);
  const double kv = shape.KvWidth();
  return {q, kv, 2 * q + 2 * kv};
}

// What a Gated DeltaNet layer (Qwen3-Next, Qwen3.5) keeps per token in place of attention, on the
// transformers fast path (modeling_qwen3_5.py 520-600 at transformers 2da00a3c, with
// fla-org/flash-linear-attention at bc3b101d and causal-conv1d):
//  - the convolution's input (in_proj_qkv's output, saved by causal_conv1d) and its output, which
//    v is a view of: c x 2W (W = 2 x key width + value width);
//  - q and k, repeated to the value heads and L2-normalized in the kernel, and their fp32 rstd
//    (fla ops/gated_delta_rule/chunk.py 283-284, saved at 310): 2c x Hv x Dk + 8 Hv;
//  - beta (c) and the fp32 decay g with its softplus input and chunk cumsum: (c + 12) Hv;
//  - the chunk-local matrix A, [T, Hv, 64] in the inputs' dtype (chunk_fwd.py 385): 64c Hv;
//  - the gated norm's inputs (the kernel's output and z) and out_proj's input: 3c x V.
// A frozen out_proj keeps no input. Unmeasured: no H100 run of these layers yet.
//
// A Mamba-2 layer on the mamba_ssm path (transformers' cuda_kernels_forward calls
// mamba_split_conv1d_scan_combined; mamba_ssm ops/triton/ssd_combined.py, whose forward at its
// default checkpoint_lvl 1 saves in_proj's output zxbcdt and the norm's fp32 rstd per group, and
// recomputes the convolution, the scan's output and out_proj's input in backward): c x (z + x, B,
// C + dt) + 4 x groups. transformers' torch_forward fallback, without mamba_ssm, materializes
// chunk x chunk matrices per head and is not priced. Unmeasured.
//
// LFM2's short convolution (modeling_lfm2.py 485-509 at 2da00a3c) keeps in_proj's output B, C
// and x for the products, B x x for the convolution, the convolution's output for C's product
// and that product for out_proj (not when out_proj is frozen). Unmeasured.
//
// A Mamba-1 layer (Jamba: modeling_jamba.py 515-612 at transformers e8c4f0b7, unfused because of
// its dt/B/C norms) keeps in_proj's output (x for causal_conv1d_fn, z for the scan), the
// convolution's output (x_proj's input and the scan's u), dt after dt_proj (the scan's delta),
// the scan's output before the gate (mamba_ssm SelectiveScanFn saves `out` beside z) and after
// it (out_proj's input, not when out_proj is frozen), and x_proj's output with its norms' fp32
// copies. Unmeasured.
double LinearAttentionBytesPerToken(const ModelArch& m, const ActivationInput& in) {
  const ModelArch::LinearAttention& l = m.linear;
  const double c = in.compute_bytes;
  const double heads = static_cast<double>(l.value_heads);
  if (l.kind == ModelArch::LinearAttention::Kind::kMamba2)
    return c * (l.ValueWidth() + l.ConvWidth() + heads) + 4.0 * l.key_heads;
  if (l.kind == ModelArch::LinearAttention::Kind::kMamba1)
    return c * (l.InProjWidth() + (in.frozen_base ? 3 : 4) * l.ValueWidth()) +
           (c + 8) * (static_cast<double>(l.dt_rank) + 2.0 * l.key_head_dim);
  if (l.kind == ModelArch::LinearAttention::Kind::kShortConv)
    return c * (l.InProjWidth() + (in.frozen_base ? 2 : 3) * l.ValueWidth());
  const double value_inputs = in.frozen_base ? 2 : 3;
  const double shared = c * (2 * l.ConvWidth() + 2 * heads * l.key_head_dim +
                             value_inputs * l.ValueWidth()) + 64 * c * heads;
  // Kimi Delta Attention (fla chunk_kda) decays per channel: the gate through f_b_proj is kept
  // in 16 bits and, after fused_kda_gate, in fp32; beta is fp32 per head; each gate's low-rank
  // middle is kept for its second projection's weight gradient (not when frozen). Unmeasured.
  if (l.kind == ModelArch::LinearAttention::Kind::kKda)
    return shared + (c + 4) * l.ValueWidth() + 8 * heads +
           (in.frozen_base ? 0 : 2 * c * static_cast<double>(l.gate_rank));
  return shared + (c + 12) * heads + 8 * heads;
}

// Its backward holds the gradients of the convolution's input and output and of z at once, and
// fla's backward recomputes the chunk states h, one Dk x Dv matrix per value head per 64 tokens,
// with their gradients (chunk.py 126-250).
// Mamba-2's backward recomputes the convolution and the scan's output beside the gradient of
// zxbcdt and of the scan's output, with fp32 chunk states per 256 tokens (mamba_chunk_size).
double LinearAttentionBackwardBytesPerToken(const ModelArch& m, const ActivationInput& in) {
  const ModelArch::LinearAttention& l = m.linear;
  if (l.kind == ModelArch::LinearAttention::Kind::kShortConv)
    return in.compute_bytes * (2 * l.InProjWidth() + 2 * l.ValueWidth());
  // Mamba-1's backward holds the gradients of in_proj's output, of the convolution's output
  // and of the scan's inputs (u, delta, z) against its incoming gradient.
  if (l.kind == ModelArch::LinearAttention::Kind::kMamba1)
    return in.compute_bytes * (2 * l.InProjWidth() + l.ConvWidth() + 2 * l.ValueWidth());
  if (l.kind == ModelArch::LinearAttention::Kind::kMamba2) {
    const double zxbcdt = l.ValueWidth() + l.ConvWidth() + static_cast<double>(l.value_heads);
    const double states =
        static_cast<double>(l.value_heads) * l.key_head_dim * l.value_head_dim / 256;
    return in.compute_bytes * (2 * zxbcdt + l.ConvWidth() + 2 * l.ValueWidth()) + 8 * states;
  }
  const double states = static_cast<double>(l.value_heads) * l.key_head_dim * l.value_head_dim / 64;
  return in.compute_bytes * (2 * l.ConvWidth() + l.ValueWidth() + 2 * states);
}

// Positions one query attends to: the sequence, or the layer's sliding window.
double AttentionSpan(const ModelArch& m, int64_t layer, double context_len) {
  const int64_t window = m.WindowOfLayer(layer);
  return window > 0 ? std::min(context_len, static_cast<double>(window)) : context_len;
}

}  // namespace

// What autograd saves per token in one decoder layer (c = bytes per element):
//  - each norm: see NormBytesPerToken;
//  - attention with flash/SDPA kernels: q and k after RoPE, v, the output and a per-head
//    log-sum-exp: c(2q + 2kv); RoPE itself keeps only cos/sin. Eager attention adds the softmax
//    output, kept in fp32 and again as the 16-bit copy that multiplies V: (4 + c) heads x s;
//  - per-head q/k norms (Qwen3, Gemma 3) keep an fp32 copy and a cast of q and k;
//  - gated MLP: gate output (for SiLU), SiLU output and up output (for the product) and the
//    product (for down_proj): 4cI; a plain MLP keeps fc1's output and the activation: 2cI;
//    Liger's fused GLU keeps no SiLU output: 3cI (dense layers; its MoE patches vary by type);
//  - MoE: each token visits top-k experts: k x (ch dispatched input + expert MLP), plus the
//    shared expert;
//  - a frozen weight needs no saved input for its own gradient: the product in front of
//    down_proj, fc1's output, the q/k norms' 16-bit casts go; LoRA adds its own (see
//    LoraBytesPerTokenLayer), and bitsandbytes' quantized matmuls theirs (see
//    QuantizedBaseInputBytesPerToken).
// Korthikanti et al. 2022 (arXiv 2205.05198) give the GPT version (34sbh + 5as^2b); this is the
// same accounting for RMSNorm, GQA, gated MLPs and experts.
double LayerActivationBytesPerToken(const ModelArch& m, int64_t layer, const ActivationInput& in) {
  const double c = in.compute_bytes;
  const double tp = std::max(in.tp, 1);
  const double h_split = in.sequence_parallel ? tp : 1;
  const double h = static_cast<double>(m.hidden_size);
  const auto [q, kv, attention] = WidthsOf(m, layer);
  // The attention norm feeds q, k and v (MLA: the q and kv down-projections); the MLP norm feeds
  // gate and up, or the router and the experts' dispatched copy (counted with the experts).
  // Further norms (Gemma's sandwich norms) feed the residual add, not a linear.
  // A Gated DeltaNet layer's norm feeds in_proj_qkv, in_proj_z, in_proj_b and in_proj_a; a
  // Mamba-2 or short-convolution layer's its one in_proj; a parallel hybrid block's both the
  // mixer's and the attention's.
  const bool linear = m.IsLinearAttentionLayer(layer);
  const bool attends = m.HasAttention(layer);
  const FusedBlocks fused = FusedOf(m, layer, in);
  // KDA's norm feeds q, k, v, b and the two gates' first projections.
  const ModelArch::LinearAttention::Kind kind = m.linear.kind;
  const double linear_readers = kind == ModelArch::LinearAttention::Kind::kGatedDeltaNet ? 4
                                : kind == ModelArch::LinearAttention::Kind::kKda         ? 6
                                                                                         : 1;
  const double attention_readers = (linear ? linear_readers : 0) +
                                   (attends ? (m.is_mla() ? 2 : 3) : 0);
  const double mlp_readers = m.IsMoeLayer(layer) || !m.gated_mlp ? 1 : 2;
  const bool has_mlp = m.HasMlp(layer);
  // A parallel block (one norm for attention and MLP) feeds all of them from one norm; a mixer
  // without an MLP has its one norm.
  double norms = !has_mlp ? NormBytesPerToken(m, in, attention_readers, in.liger_norms)
                 : m.norms_per_layer == 1
                     ? NormBytesPerToken(m, in, attention_readers + mlp_readers, in.liger_norms)
                     : NormBytesPerToken(m, in, attention_readers, in.liger_norms) +
                           NormBytesPerToken(m, in, mlp_readers, in.liger_norms);
  if (m.norms_per_layer > 2) {
    ActivationInput plain = in;
    plain.autocast = false;
    norms += (m.norms_per_layer - 2) * NormBytesPerToken(m, plain, 1);
  }
  double bytes = norms / h_split;
  if (linear) bytes += LinearAttentionBytesPerToken(m, in) / tp;
  // Falcon-H1 hands each branch its own scaled copy of the norm's output (ssm_in_multiplier,
  // attention_in_multiplier; modeling_falcon_h1.py 683, 924 at transformers e8c4f0b7): the two
  // copies are what the branches' first linears keep, one tensor more than the norm's output.
  if (linear && attends) bytes += c * h / h_split;
  if (attends) {
    bytes += c * attention / tp;
    if (m.qk_norm != ModelArch::QkNorm::kNone)
      bytes += (in.frozen_base ? 4 : 4 + c) * (q + kv) / tp;
    if (in.attention == AttentionKind::kEager)
      bytes += (4 + c) * m.num_attention_heads * AttentionSpan(m, layer, in.context_len) / tp;
    // An output gate keeps its sigmoid (the product's other factor) and the gated product,
    // o_proj's input (a frozen o_proj keeps none).
    if (m.attention_output_gate) bytes += (in.frozen_base ? 1 : 2) * c * q / tp;
  }
  // A frozen down_proj / fc2 does not keep its input.
  const double mlp_factor = (m.gated_mlp ? 4 : 2) - (in.frozen_base ? 1 : 0);
  // Liger's GLU keeps no activation output: gate and up only (and down_proj's input).
  const double dense_mlp_factor = mlp_factor - (in.liger_glu && m.gated_mlp ? 1 : 0);
  if (!has_mlp) {
    // A mixer alone.
  } else if (m.IsMoeLayer(layer)) {
    const double k = static_cast<double>(std::max<int64_t>(m.experts_per_token, 1));
    bytes += k * (c * h + mlp_factor * c * m.expert_intermediate_size) / tp;
    bytes += c * m.num_experts / tp;  // router logits
    if (m.shared_expert_intermediate_size > 0)
      bytes += mlp_factor * c * m.shared_expert_intermediate_size / tp;
  } else {
    double width = m.MlpWidthOf(layer);
    // A fused LoRA MLP keeps gate and up itself (FusedLoraBytesPerToken).
    if (!fused.mlp) bytes += dense_mlp_factor * c * width / tp;
  }
  return bytes + LoraBytesPerTokenLayer(m, layer, in) +
         QuantizedBaseInputBytesPerToken(m, layer, in) + FusedLoraBytesPerToken(m, layer, fused, in);
}

// Backward frees a block's saved tensors as it goes and holds only the block's own gradients at
// once; the widest block decides:
//  - a gated MLP's product rule holds the gradients of the product and of both factors (3cI; a
//    plain MLP's activation 2cI); with an adapter on down_proj, PEFT's fp32 path adds the
//    gradient of the adapter's input and of its dropout (8 bytes) and the cast back (c) of the
//    product's width, beside the base gradient; 16-bit adapters need no cast (3cI in all);
//  - attention holds dq, dk, dv and the output's gradient; eager attention also the scores'
//    gradient in 16 bits, in fp32 and the softmax's (c + 8 bytes per score).
// Measured: with checkpointing, where one layer's backward sets the peak (eager attention, LoRA
// with a small vocabulary), twice the saved activations missed by -10% to +8% (bench/gpu/results,
// holdout sweeps); the saved activations plus this are within 3%.
double LayerBackwardBytesPerToken(const ModelArch& m, int64_t layer, const ActivationInput& in) {
  const double c = in.compute_bytes;
  const double tp = std::max(in.tp, 1);
  double attention = c * WidthsOf(m, layer).saved / tp;
  if (in.attention == AttentionKind::kEager)
    attention += (c + 8) * m.num_attention_heads * AttentionSpan(m, layer, in.context_len) / tp;
  // Autograd runs a parallel block's two branches one after the other: the wider decides.
  if (m.IsLinearAttentionLayer(layer)) {
    const double mixer = LinearAttentionBackwardBytesPerToken(m, in) / tp;
    attention = m.HasAttention(layer) ? std::max(attention, mixer) : mixer;
  }
  double width = m.IsMoeLayer(layer)
                     ? static_cast<double>(std::max<int64_t>(m.experts_per_token, 1)) *
                           static_cast<double>(m.expert_intermediate_size)
                     : m.MlpWidthOf(layer);
  // Liger's GLU writes the gradients of gate and up into their saved outputs: only the
  // product's gradient is new.
  const bool liger = in.liger_glu && m.gated_mlp && !m.IsMoeLayer(layer);
  double mlp = (liger ? 1 : m.gated_mlp ? 3 : 2) * c * width / tp;
  if (FusedOf(m, layer, in).mlp) {
    // LoRA_MLP.backward: the down projection's input gradient, the product recomputed from
    // gate and up, and the gradients of both (kernels/lora.py `activation_fn_backward`).
    mlp = 4 * c * width / tp;
  } else if (in.lora_rank > 0 && in.lora_all_linear) {
    const double cast_back = in.lora_bytes > c ? c : 0;
    mlp = std::max(mlp, (2 * in.lora_bytes + cast_back + c) * width / tp);
  }
  return m.HasMlp(layer) ? std::max(attention, mlp) : attention;
}

double FinalNormBytesPerToken(const ModelArch& m, const ActivationInput& in) {
  const double h_split = in.sequence_parallel ? std::max(in.tp, 1) : 1;
  return NormBytesPerToken(m, in, 1, in.liger_norms) / h_split;  // read by the LM head alone
}

ActivationEstimate EstimateActivations(const ModelArch& m, const ActivationInput& in) {
  ActivationEstimate out;
  const double layers = std::max(in.layers, 1);
  const double total_layers = std::max<double>(static_cast<double>(m.num_layers), 1);
  // Average over the layers of the model (MoE, linear-attention and sliding-window layers differ). Layers differ
  // in nothing else, so each kind is priced once: the tuner asks this thousands of times.
  struct Kind {
    bool moe;
    bool linear;
    bool mlp;
    int64_t window;
    double per_token, backward_per_token;
  };
  std::vector<Kind> kinds;
  double sum = 0, largest = 0, largest_backward = 0;
  for (int64_t l = 0; l < std::max<int64_t>(m.num_layers, 1); ++l) {
    const bool moe = m.IsMoeLayer(l);
    const bool linear = m.IsLinearAttentionLayer(l);
    const bool mlp = m.HasMlp(l);
    const int64_t window = m.WindowOfLayer(l);
    auto known = std::find_if(kinds.begin(), kinds.end(), [&](const Kind& kind) {
      return kind.moe == moe && kind.linear == linear && kind.mlp == mlp && kind.window == window;
    });
    if (known == kinds.end())
      known = kinds.insert(kinds.end(), {moe, linear, mlp, window,
                                         LayerActivationBytesPerToken(m, l, in),
                                         LayerBackwardBytesPerToken(m, l, in)});
    sum += known->per_token;
    largest = std::max(largest, known->per_token);
    largest_backward = std::max(largest_backward, known->backward_per_token);
  }
  out.per_token_layer = sum / total_layers;
  out.layer_bytes = largest * in.tokens;
  out.backward_bytes = largest_backward * in.tokens;
  const double in_flight = std::max(in.in_flight_microbatches, 1.0);
  const double h_split = in.sequence_parallel ? std::max(in.tp, 1) : 1;
  // The input of each layer (the residual stream) is what a checkpoint keeps; fp32 under
  // autocast, whose residual stream keeps the weights' dtype.
  const double residual_bytes = in.autocast ? 4 : in.compute_bytes;
  const double checkpoint = residual_bytes * m.hidden_size / h_split * in.tokens;
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
