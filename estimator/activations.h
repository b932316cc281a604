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
  int lora_rank = 0;          ///< LoRA on every linear adds its r-dim outputs
};

struct ActivationEstimate {
  double stored_bytes = 0;     ///< kept across the whole forward pass (checkpoints or all)
  double layer_bytes = 0;      ///< one layer's full activations (recompute and backward buffers)
  double per_token_layer = 0;  ///< bytes per token per layer without recompute
};

/// Bytes per token of one decoder layer's saved activations (no recompute).
double LayerActivationBytesPerToken(const ModelArch& arch, int64_t layer,
                                    const ActivationInput& in);

ActivationEstimate EstimateActivations(const ModelArch& arch, const ActivationInput& in);

}  // namespace gpulint::est
