// Activation memory of training: the tensors autograd keeps from the forward pass for the
// backward pass, per layer and token, and how checkpointing, recompute, flash attention,
// sequence/context parallelism and pipelining change them.
#pragma once

#include "estimator/model_arch.h"

namespace gpulint::est {

enum class AttentionKind { kFlash, kEager };
enum class Recompute { kNone, kSelective, kFull };
enum class NormStyle {
  kUnfused,  ///< HF RMSNorm: keeps an fp32 copy of its input and a 16-bit output
  kFused,    ///< Transformer Engine / Apex fused norms: keep the input only
};

struct ActivationInput {
  double tokens = 0;          ///< tokens per GPU in one micro-batch (batch x seq / CP)
  double context_len = 0;     ///< attention span for the s^2 term (the sequence length)
  double compute_bytes = 2;   ///< bytes per activation element (2 bf16/fp16, 4 fp32)
  int tp = 1;
  bool sequence_parallel = false;  ///< h-sized tensors split over TP too (Megatron SP)
  AttentionKind attention = AttentionKind::kFlash;
  NormStyle norms = NormStyle::kUnfused;
  Recompute recompute = Recompute::kNone;  ///< grad_ckpt == kFull with one layer live
  int layers = 1;             ///< layers on this GPU (pipeline stage)
  double in_flight_microbatches = 1;  ///< pipeline 1F1B: min(pp, micro-batches per step)
  /// The layers' weights are frozen (LoRA, a reference model): an op keeps the input a frozen
  /// weight multiplies only when something else needs it.
  bool frozen_base = false;
  int lora_rank = 0;          ///< > 0: LoRA adapters
  bool lora_all_linear = false;  ///< adapters on every linear layer, else q_proj and v_proj
  bool lora_routed_experts = true;  ///< ... the routed experts among them (TrainingInput's)
  bool lora_dropout = true;      ///< dropout in front of each adapter (a mask per input)
  /// Bytes per element of the adapters' weights, which PEFT casts each input to: 4 where PEFT
  /// keeps them in fp32; the 16-bit compute dtype where the trainer casts the whole module
  /// (DeepSpeed's engine calls module.bfloat16() or .half()).
  double lora_bytes = 4;
  /// Liger-Kernel's RMSNorm in the decoder layers' two norms and the final one: it keeps its
  /// 16-bit input and an fp32 rstd per row (ops/rms_norm.py `ctx.save_for_backward(X, W, RSTD)`).
  bool liger_norms = false;
  /// Liger-Kernel's SwiGLU/GeGLU in the dense layers' MLP: it keeps the gate's and up's outputs
  /// only (ops/swiglu.py `ctx.save_for_backward(a, b)`) and writes their gradients into them.
  bool liger_glu = false;
  /// The frozen base is quantized and multiplied through bitsandbytes, whose 4- and 8-bit
  /// matmuls keep their 16-bit input for backward whether or not the weight is frozen.
  bool quantized_base_keeps_inputs = false;
  /// The trainer runs a block's adapted projections through one fused autograd function
  /// (axolotl's LoRA_QKV, LoRA_O and LoRA_MLP, src/axolotl/kernels/lora.py): the block keeps its
  /// input once, the dropped copy and its mask, and a gated MLP its gate and up outputs; the
  /// base matmuls run inside, so bitsandbytes keeps nothing of its own there. Each applies where
  /// every projection of its block is adapted (all linear layers); the MLP's to a dense gated one.
  bool lora_fused_qkv = false, lora_fused_o = false, lora_fused_mlp = false;
  /// torch.autocast over fp32 weights (plain mixed precision): the residual stream stays fp32,
  /// and every linear layer makes and keeps its own 16-bit copy of its input.
  bool autocast = false;
};

struct ActivationEstimate {
  double stored_bytes = 0;     ///< kept across the whole forward pass (checkpoints or all)
  double layer_bytes = 0;      ///< one layer's full activations (recompute and backward buffers)
  double backward_bytes = 0;   ///< gradients alive at once while one layer runs backward
  double per_token_layer = 0;  ///< bytes per token per layer without recompute
};

/// Bytes per token of one decoder layer's saved activations (no recompute).
double LayerActivationBytesPerToken(const ModelArch& arch, int64_t layer,
                                    const ActivationInput& in);

/// Bytes per token of the gradients alive at once while one decoder layer runs backward, beside
/// its saved activations: its widest block's.
double LayerBackwardBytesPerToken(const ModelArch& arch, int64_t layer, const ActivationInput& in);

/// Bytes per token of the final norm in front of the LM head (not a decoder layer's).
double FinalNormBytesPerToken(const ModelArch& arch, const ActivationInput& in);

ActivationEstimate EstimateActivations(const ModelArch& arch, const ActivationInput& in);

}  // namespace gpulint::est
