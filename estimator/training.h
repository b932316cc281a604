// Per-GPU peak memory of a training step: a ledger of persistent memory (weights, master copy,
// gradients, optimizer states) plus the worst transient moment — at the loss (all saved
// activations and the loss's buffers), in backward through the last or the first layer (one
// layer live beside what is saved and the gradients made so far), or the optimizer step (all
// gradients and the step's temporaries). Checked against H100 runs in bench/gpu/results.
#pragma once

#include <string>

#include "estimator/activations.h"
#include "estimator/breakdown.h"
#include "estimator/model_arch.h"
#include "estimator/precision.h"

namespace gpulint::est {

/// How a framework lays out mixed-precision state (bytes per parameter, before sharding).
enum class TrainerStyle {
  kPlain,      ///< PyTorch/HF/FSDP/torchtune: the model's params are the master copy
  kDeepSpeed,  ///< 16-bit params and grads + fp32 grads, master and moments (20 B with Adam)
  kMegatron,   ///< 16-bit params + fp32 main_grad + fp32 master and moments (18 B with Adam)
};

enum class Sharding {
  kNone,
  kOptimizer,   ///< ZeRO-1, Megatron distributed optimizer
  kGradients,   ///< ZeRO-2, FSDP SHARD_GRAD_OP
  kParameters,  ///< ZeRO-3, FSDP FULL_SHARD (HYBRID_SHARD: within the node)
};

/// How the loss reads the logits (per logit, c = the compute dtype's bytes).
enum class LossPath {
  kUpcast,         ///< HF ForCausalLMLoss: fp32 copy and log_softmax (c + 8 in forward, 12 back)
  kVocabParallel,  ///< Megatron: 16-bit logits and one fp32 softmax (c + 4)
  kInplace,        ///< verl: 16-bit logits, a fused cross-entropy writing its gradient in place (c)
  kScaledGather,   ///< 16-bit logits, a temperature-scaled copy, compiled log_softmax+gather (2c, 3c)
  kOutputChunked,  ///< logits in n chunks, each upcast alone; the fp32 log-softmax of all is kept
  kLinearChunked,  ///< the output projection and the loss run chunk by chunk: no full logits
  kFused,          ///< no full logits tensor (Liger, chunked cross-entropy)
};

struct TrainingInput {
  const ModelArch* arch = nullptr;
  /// Word the terms' notes; false when only the numbers are wanted (the tuner's searches).
  bool explain = true;
  double gpu_total_bytes = 0;
  int gpus = 1;            ///< GPUs of this training job
  int tp = 1, pp = 1, cp = 1, ep = 1;
  int micro_batch = 1;
  double seq_len = 2048;
  double tokens_per_micro_batch = 0;  ///< dynamic batching budget; 0 = micro_batch x seq_len
  /// Tokens per sequence the model computes logits for: the completion where the trainer asks
  /// for the last ones only (TRL's logits_to_keep); 0: every token.
  double logit_tokens_per_sequence = 0;
  int grad_accum = 1;
  Precision precision = Precision::kAmpBf16;
  Optimizer optimizer;  // AdamW
  bool optimizer_in_backward = false;
  TrainerStyle style = TrainerStyle::kPlain;
  Sharding sharding = Sharding::kNone;
  int shard_group = 1;     ///< GPUs the sharded states are split over (DP x CP, or a node for hybrid)
  bool offload_optimizer = false;
  bool offload_params = false;
  /// ZeRO-3 upcasts gradients and steps the optimizer one sub-group of at most this many
  /// elements at a time (zero_optimization.sub_group_size; deepspeed/runtime/zero/config.py:175
  /// `sub_group_size: int = Field(pp_int(1e9), ge=0)` at DeepSpeed edaa7221, 0.19.5).
  double zero_sub_group_elements = 1e9;
  /// FSDP accumulates gradients inside no_sync (accelerate's and Lightning's gradient
  /// accumulation): until the optimizer step every rank holds the whole unsharded gradients.
  bool unsharded_accumulation = false;
  /// LoRA adapters share FSDP units with frozen weights (FSDP1 with use_orig_params, as LitGPT
  /// wraps whole blocks): the unit's flat parameter requires grad, so every weight in it gets a
  /// gradient and keeps its input for one, as if nothing were frozen.
  bool frozen_weights_get_grads = false;
  Recompute recompute = Recompute::kNone;
  bool sequence_parallel = false;
  AttentionKind attention = AttentionKind::kFlash;
  LossPath loss_path = LossPath::kUpcast;
  int loss_chunks = 8;  ///< chunks of the chunked paths (torchtune's num_output_chunks)
  /// The loss also takes the entropy of every logit (RL with an entropy bonus): a softmax and
  /// its product beside the logits, and no in-place gradient.
  bool loss_entropy = false;
  // Parameter-efficient fine-tuning.
  int lora_rank = 0;
  bool lora_all_linear = false;      ///< else q_proj and v_proj only (PEFT's default for Llama)
  /// With lora_all_linear: the adapters reach the routed experts too (false where the targets
  /// name the dense MLP's modules only and the experts' are named apart).
  bool lora_routed_experts = true;
  bool lora_lm_head = false;         ///< the output projection is adapted too
  bool lora_dropout = true;          ///< dropout before each adapter keeps a mask and a copy
  /// The trainer has Liger-Kernel patch the model's RMSNorms / gated MLPs, where Liger supports
  /// the model type (ModelArch::liger_rms_norm, liger_glu).
  bool liger_rms_norm = false;
  bool liger_glu = false;
  Quantization base_quant;           ///< QLoRA: the frozen base in NF4 etc.
  /// The quantized base runs through bitsandbytes, which keeps each linear layer's input.
  bool quantized_base_keeps_inputs = false;
  /// Routed experts stored as 3D parameters are quantized too, by a loader patch (axolotl's
  /// quantize_moe_experts): bitsandbytes' own conversion replaces nn.Linear modules only, so
  /// without it a model whose experts are 3D (ModelArch::fused_experts) keeps them in 16 bits.
  /// The patch dequantizes a layer's experts whole while the layer runs.
  bool experts_quantized_on_load = false;
  /// The trainer fuses a block's adapted projections into one autograd function
  /// (ActivationInput::lora_fused_qkv, _o, _mlp).
  bool lora_fused_qkv = false, lora_fused_o = false, lora_fused_mlp = false;
  bool forward_only = false;         ///< a frozen reference / reward model scoring batches
  /// A value or reward model (an RL critic, a reward model): a head of one output per token
  /// (transformers' *ForTokenClassification with num_labels=1, OpenRLHF's value_head) in place
  /// of the output projection, so no vocabulary-sized weights or logits.
  bool value_head = false;
  /// PyTorch's allocator runs with expandable segments: the high end takes the typical slack
  /// (estimator/overhead.h, ExpandableReserved).
  bool expandable_segments = false;
  /// Batches vary in length step by step (padded to their own longest, or unpadded), as real
  /// data makes them; false when every micro-batch has one shape (packing, fixed rows).
  bool varying_shapes = true;
};

Breakdown EstimateTraining(const TrainingInput& input);

}  // namespace gpulint::est
