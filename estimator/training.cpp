#include "estimator/training.h"

#include <fmt/format.h>

#include <algorithm>

#include "estimator/overhead.h"
#include "estimator/param_count.h"
#include "estimator/param_share.h"
#include "estimator/units.h"
#include "estimator/weight_format.h"

namespace gpulint::est {
namespace {

// Adapter parameters of LoRA rank r on one GPU: r x (in + out) per adapted linear, in each
// layer as its projections are (a layer without k_proj and v_proj has no adapters there).
double LoraParams(const ModelArch& m, const TrainingInput& in, const ParamShare& share) {
  const double r = in.lora_rank, h = static_cast<double>(m.hidden_size);
  double all_layers = 0;
  for (int64_t layer = 0; layer < m.num_layers; ++layer) {
    const ModelArch::AttentionShape shape = m.AttentionOf(layer);
    const double q = shape.QueryWidth(m.num_attention_heads), kv = shape.KvWidth();
    double per_layer = r * (h + q) + (shape.value_projection ? r * (h + kv) : 0);  // q, v
    if (in.lora_all_linear) {
      per_layer += (shape.key_projection ? r * (h + kv) : 0) + r * (q + h);  // k_proj, o_proj
      if (!m.is_moe()) per_layer += 3 * r * (h + m.MlpWidthOf(layer));  // gate, up, down
      // Routed experts stored as 3D parameters are not modules LoRA's targets name, nor are
      // experts whose modules the targets do not name; a shared expert's gate, up and down are.
      const bool experts_adapted = !m.fused_experts && in.lora_routed_experts;
      if (m.is_moe() && experts_adapted)
        per_layer += 3 * r * (h + m.expert_intermediate_size) * m.num_experts /
                     std::max(in.ep, 1);
      if (m.is_moe() && !experts_adapted)
        per_layer += 3 * r * (h + m.shared_expert_intermediate_size);
    }
    all_layers += per_layer;
  }
  const double share_of_layers =
      static_cast<double>(share.layers) / std::max<double>(1, static_cast<double>(m.num_layers));
  double head = in.lora_lm_head ? r * (h + static_cast<double>(m.vocab_size)) : 0;
  return (all_layers * share_of_layers + head) / std::max(in.tp, 1);
}

// What the base's quantization leaves in 16 bits: its own exclusions, and routed experts stored
// as 3D parameters under bitsandbytes, which replaces `torch.nn.Linear` modules only
// (transformers integrations/bitsandbytes.py:169-208 at 8b-is/transformers@e8c4f0b7:
// `if isinstance(module, Conv1D) or type(module) is nn.Linear:`), unless a loader patch
// quantizes them.
QuantExclusions BaseExclusions(const ModelArch& m, const TrainingInput& in) {
  QuantExclusions exclusions = in.base_quant.exclusions;
  if (IsBitsandbytes(in.base_quant.format) && m.fused_experts && !in.experts_quantized_on_load)
    exclusions.routed_experts = true;
  return exclusions;
}

// One MoE layer's routed experts in 16 bits on this rank: what axolotl's quantize_moe_experts
// dequantizes while the layer runs (bitsandbytes' parametrization caches the dequantized
// gate_up_proj and down_proj for the module's forward, and the matmuls keep them for backward).
double DequantizedExpertLayerBytes(const ModelArch& m, const TrainingInput& in, double c) {
  if (!in.experts_quantized_on_load || !m.is_moe()) return 0;
  return c * 3.0 * static_cast<double>(m.num_experts) * m.expert_intermediate_size *
         m.hidden_size / std::max(in.ep, 1) / std::max(in.tp, 1);
}

}  // namespace

Breakdown EstimateTraining(const TrainingInput& in) {
  const ModelArch& m = *in.arch;
  Breakdown b;
  const ParamBreakdown params = CountParams(m);
  ParamShare share = ShareOfGpu(m, params, in.tp, in.pp, in.ep);
  // A value head holds hidden_size weights (the score layer, one output) where the output
  // projection held vocab x hidden; a head tied to the embedding held none of its own.
  if (in.value_head && share.lm_head > 0) share.lm_head = static_cast<double>(m.hidden_size);
  const double n = std::max(in.shard_group, 1);
  const double c = ComputeBytes(in.precision);
  const bool lora = in.lora_rank > 0;
  const bool frozen_base = lora || in.forward_only;
  auto sharded = [&](Sharding level) { return in.sharding >= level && n > 1 ? n : 1.0; };

  double weights = 0, master = 0, grads = 0, states = 0, trainable = 0;
  double sharded_grads = 0;  // the part of `grads` that is a 1/n shard
  if (frozen_base) {
    // Frozen weights in the compute dtype, or quantized (QLoRA): linear layers converted,
    // embeddings, norms and the head kept in 16 bits.
    const double linear = share.Quantizable(BaseExclusions(m, in));
    const double base_dtype = in.precision == Precision::kFp32 ? 4 : 2;
    const double quantized = in.base_quant.format == WeightFormat::kDefault
                                 ? linear * base_dtype
                                 : linear * QuantizedBytesPerWeight(in.base_quant);
    weights = (quantized + (share.Total() - linear) * base_dtype) / sharded(Sharding::kParameters);
    if (lora) {
      // PEFT keeps adapters in fp32 (autocast_adapter_dtype) with fp32 grads and moments.
      trainable = LoraParams(m, in, share);
      weights += 4 * trainable;
      grads = 4 * trainable;
      states = OptimizerStateBytes(in.optimizer, Precision::kAmpBf16, m.hidden_size) * trainable;
      b.terms.push_back({"lora adapters", 4 * trainable,
                         in.explain ? fmt::format("{:.1f}M parameters of rank {} in fp32",
                                                  trainable / 1e6, in.lora_rank)
                                    : std::string()});
      if (in.frozen_weights_get_grads) {
        // Every block holds adapters, so every block's flat parameter gets a gradient in its
        // own dtype; the embedding and the head sit in the root unit, which holds none.
        const double block_grads =
            base_dtype * (share.Total() - share.embedding - share.lm_head - share.vision);
        sharded_grads = block_grads / sharded(Sharding::kGradients);
        grads += sharded_grads;
        b.terms.push_back({"gradients of frozen weights", sharded_grads,
                           "LoRA shares FSDP units with frozen weights: the units get gradients"});
      }
    }
  } else {
    trainable = share.Total();
    const double state_bytes = OptimizerStateBytes(in.optimizer, in.precision, m.hidden_size);
    const bool amp = HasMasterCopy(in.precision);
    switch (in.style) {
      case TrainerStyle::kPlain:
        // The model's own parameters are the master copy; autocast casts per layer.
        weights = MasterBytes(in.precision) * trainable / sharded(Sharding::kParameters);
        grads = MasterBytes(in.precision) * trainable / sharded(Sharding::kGradients);
        sharded_grads = grads;
        states = state_bytes * trainable / sharded(Sharding::kOptimizer);
        break;
      case TrainerStyle::kDeepSpeed:
        // 16-bit params and gradients; the fp32 master and moments live in the optimizer's
        // partition, and gradients are upcast to fp32 one sub-group at a time in the step.
        weights = c * trainable / sharded(Sharding::kParameters);
        grads = c * trainable / sharded(Sharding::kGradients);
        if (amp) master = 4 * trainable / sharded(Sharding::kOptimizer);
        states = state_bytes * trainable / sharded(Sharding::kOptimizer);
        break;
      case TrainerStyle::kMegatron:
        weights = c * trainable;
        grads = (amp ? 4 : c) * trainable;  // main_grad buffer, fp32 with mixed precision
        if (amp) master = 4 * trainable / sharded(Sharding::kOptimizer);
        states = state_bytes * trainable / sharded(Sharding::kOptimizer);
        break;
    }
  }
  // Every gradient unsharded, as no_sync accumulates them (on the GPU even with CPU offload).
  const double whole_grads = grads + sharded_grads * (n - 1);
  if (in.offload_optimizer || in.offload_params) {
    states = 0;
    master = 0;
    if (in.style == TrainerStyle::kDeepSpeed) grads = c * trainable / sharded(Sharding::kGradients);
    if (in.style == TrainerStyle::kPlain && in.offload_params) grads = 0;  // FSDP CPU offload
  }
  if (in.offload_params) weights = lora ? 4 * trainable : 0;
  if (in.optimizer_in_backward && !frozen_base) {
    // The step runs inside backward: each parameter's gradient is freed right away.
    grads = MasterBytes(in.precision) * share.largest_layer;
  }
  if (in.forward_only) grads = states = master = 0;
  // Accumulating inside FSDP's no_sync keeps each gradient whole until the last micro-batch of
  // the step reduce-scatters it (torch/distributed/fsdp FullyShardedDataParallel.no_sync: "FSDP
  // will accumulate the full model gradients (instead of gradient shards) until the eventual
  // sync"; "with CPU offloading, the gradients will not be offloaded to CPU when inside the
  // context manager"); the optimizer step sees the shards.
  const bool accumulate_unsharded =
      in.unsharded_accumulation && in.grad_accum > 1 && in.style == TrainerStyle::kPlain &&
      !in.optimizer_in_backward && !in.forward_only && in.sharding >= Sharding::kGradients && n > 1;
  const double accumulated_grads = accumulate_unsharded ? whole_grads : grads;

  // ZeRO-3 / FSDP gather whole layers in 16 bits before using them: the current one and the
  // prefetched next one, or the embedding / head at the ends. FSDP's root unit (what no wrapped
  // layer holds: the embedding, the LM head, the final norm) is not resharded after forward, so
  // its parameters stay whole beside the layers until its backward ends, the last of the step,
  // and so does the head's whole gradient from the first backward op on; each layer's gradients
  // are whole until their reduce-scatter (FSDP2:
  // torch/distributed/fsdp/_fully_shard/_fsdp_state.py `# For the root, do not reshard after
  // forward since for training,` `fsdp_param_group.post_forward_mesh_info = None` at pytorch
  // 01c9f4fc; FSDP1: _runtime_utils.py _post_forward_reshard `not state._is_root` at 3ade90a6).
  double gathered = 0;
  if (in.sharding == Sharding::kParameters || in.offload_params) {
    double layer_bytes = frozen_base && in.base_quant.format != WeightFormat::kDefault
                             ? QuantizedBytesPerWeight(in.base_quant)
                             : c;
    if (in.style == TrainerStyle::kPlain) {
      gathered = 2 * share.largest_layer * layer_bytes + c * (share.lm_head + share.embedding);
      if (!frozen_base && !in.forward_only)
        gathered += c * (share.lm_head + share.largest_layer);
    } else {
      gathered = std::max(2 * share.largest_layer * layer_bytes,
                          c * std::max(share.lm_head, share.embedding));
    }
  }

  // Activations and logits.
  const double tokens =
      (in.tokens_per_micro_batch > 0 ? in.tokens_per_micro_batch : in.micro_batch * in.seq_len) /
      std::max(in.cp, 1);
  ActivationInput act;
  act.tokens = tokens;
  act.context_len = in.seq_len;
  act.compute_bytes = c;
  act.tp = in.tp;
  act.sequence_parallel = in.sequence_parallel;
  act.attention = in.attention;
  act.norms = in.style == TrainerStyle::kMegatron ? NormStyle::kFused : NormStyle::kUnfused;
  act.recompute = in.recompute;
  act.layers = share.layers;
  act.in_flight_microbatches = in.pp > 1 ? std::min(in.pp, std::max(in.grad_accum, 1)) : 1;
  // Weights that get gradients keep their inputs for them, frozen or not.
  act.frozen_base = frozen_base && !(lora && in.frozen_weights_get_grads);
  act.quantized_base_keeps_inputs =
      in.quantized_base_keeps_inputs && in.base_quant.format != WeightFormat::kDefault;
  act.lora_rank = in.lora_rank;
  act.lora_all_linear = in.lora_all_linear;
  act.lora_routed_experts = in.lora_routed_experts;
  act.lora_dropout = in.lora_dropout;
  act.lora_fused_qkv = in.lora_fused_qkv;
  act.lora_fused_o = in.lora_fused_o;
  act.lora_fused_mlp = in.lora_fused_mlp;
  // DeepSpeed's engine casts the whole module to its 16-bit dtype, adapters included
  // (deepspeed/runtime/engine.py:1224-1231 at 38327e07, 0.16.5: `self.module.half()`,
  // `self.module.bfloat16()`); elsewhere PEFT keeps them in fp32.
  act.lora_bytes = in.style == TrainerStyle::kDeepSpeed && c < 4 ? c : 4;
  act.liger_norms = in.liger_rms_norm && m.liger_rms_norm;
  act.liger_glu = in.liger_glu && m.liger_glu;
  // Plain mixed precision runs the forward under torch.autocast over the fp32 master weights.
  // DeepSpeed and Megatron keep 16-bit weights, FSDP gathers them in 16 bits, and a frozen base
  // is stored in 16 bits: none of them computes on fp32 weights.
  act.autocast = in.style == TrainerStyle::kPlain && HasMasterCopy(in.precision) && !frozen_base &&
                 in.sharding != Sharding::kParameters && !in.offload_params;
  ActivationEstimate activation = EstimateActivations(m, act);
  // A value head's output is one number per token, not the vocabulary's logits.
  const double vocab_per_rank =
      in.value_head ? 1.0 : static_cast<double>(m.vocab_size) / std::max(in.tp, 1);
  // HF's loss (transformers' ForCausalLMLoss) upcasts the 16-bit logits to fp32 and takes
  // log_softmax, another fp32 tensor: c + 8 bytes per logit in forward, while the model still
  // holds its 16-bit logits. The backward of the log-softmax then holds its saved output, the
  // incoming gradient and its own result, all fp32: 12 bytes. Measured on an H100
  // (bench/gpu/results): without checkpointing the peak grows by 12 x vocabulary bytes per
  // token on top of the layers' activations. Megatron's vocab-parallel loss keeps the 16-bit
  // logits and one fp32 softmax.
  // verl's log-probs (dp_actor.py: logits.div_(temperature), then flash-attn's triton
  // cross_entropy_loss with inplace_backward=True) keep only the 16-bit logits, and the backward
  // writes their gradient into the same storage. An entropy term (entropy_from_logits) adds a
  // saved softmax and its product with the logits, and turns the in-place backward off.
  double forward_logit_bytes = 0, backward_logit_bytes = 0;
  switch (in.loss_path) {
    case LossPath::kUpcast:
      forward_logit_bytes = (c < 4 ? c + 4 : 4) + 4;
      backward_logit_bytes = 12;
      break;
    case LossPath::kVocabParallel:
      forward_logit_bytes = backward_logit_bytes = c + 4;
      break;
    case LossPath::kInplace:
      forward_logit_bytes = backward_logit_bytes = in.loss_entropy ? 3 * c : c;
      break;
    case LossPath::kScaledGather:
      // logits / temperature is a second tensor; the compiled log_softmax + gather keeps no
      // log-probabilities, but its backward writes a gradient beside both.
      forward_logit_bytes = 2 * c;
      backward_logit_bytes = 3 * c;
      break;
    case LossPath::kOutputChunked: {
      // torchtune's CEWithChunkedOutputLoss: F.cross_entropy(chunk.float()) per chunk keeps
      // each chunk's fp32 log-softmax (4 bytes per logit in all) beside the 16-bit chunks and
      // one chunk's fp32 copy; the recipe drops the 16-bit logits before backward
      // (lora_finetune_single_device.py: del outputs), which then holds one chunk's gradients.
      const double chunks = std::max(in.loss_chunks, 1);
      forward_logit_bytes = c + 4 + 4 / chunks;
      backward_logit_bytes = 4 + (c + 4) / chunks;
      break;
    }
    case LossPath::kLinearChunked: {
      // torchtune's LinearCrossEntropyLoss: the projection runs inside the loss, per chunk; the
      // fp32 log-softmax of every chunk is kept, the chunk's 16-bit logits and fp32 copy live
      // only while it runs.
      const double chunks = std::max(in.loss_chunks, 1);
      forward_logit_bytes = backward_logit_bytes = 4 + (c + 4) / chunks;
      break;
    }
    case LossPath::kFused:
      break;
  }
  const double logit_tokens =
      in.logit_tokens_per_sequence > 0 && in.seq_len > 0
          ? tokens * std::min(1.0, in.logit_tokens_per_sequence / in.seq_len)
          : tokens;
  const double logit_count = in.loss_path == LossPath::kFused ? 0 : logit_tokens * vocab_per_rank;
  // An adapted LM head adds its own vocabulary-sized output (c bytes per logit).
  const double lora_head_bytes = in.lora_lm_head ? logit_tokens * vocab_per_rank * c : 0;
  double logits_in_forward = logit_count * forward_logit_bytes + lora_head_bytes;
  double logits_in_backward =
      in.forward_only ? 0 : logit_count * backward_logit_bytes + lora_head_bytes;
  double stored = in.forward_only ? 0 : activation.stored_bytes;
  // The final norm's saved tensors sit beside the logits at the loss.
  double final_norm = in.forward_only ? 0 : FinalNormBytesPerToken(m, act) * tokens;
  // Beyond what is stored, one layer's backward holds its gradients (and under checkpointing
  // the layer's recomputed activations); a forward-only pass holds one layer's activations.
  // That happens after the loss's buffers are freed, so it competes with them for the peak.
  double transient = in.forward_only ? activation.layer_bytes
                     : activation.backward_bytes +
                           (in.recompute == Recompute::kFull ? activation.layer_bytes : 0);
  // bitsandbytes and torchao multiply by a 4-bit weight after dequantizing it to 16 bits (and
  // bitsandbytes' 8-bit backward does the same): one layer's widest weight at a time, the MLP's
  // or a fused q/k/v projection's (LitGPT).
  const WeightFormat base_format = frozen_base ? in.base_quant.format : WeightFormat::kDefault;
  if (IsBitsandbytes(base_format)) {
    const ModelArch::AttentionShape widest = m.WidestAttention();
    const double q = widest.QueryWidth(m.num_attention_heads), kv = widest.KvWidth();
    const double width = std::max({m.WidestMlpWidth(),
                                   static_cast<double>(m.intermediate_size),
                                   static_cast<double>(m.expert_intermediate_size), q + 2 * kv});
    transient += c * static_cast<double>(m.hidden_size) * width / std::max(in.tp, 1);
  }
  // Experts a loader patch quantized are dequantized whole while their layer runs: under full
  // recomputation one layer's at a time; otherwise every MoE layer keeps its copy for backward.
  if (const double expert_layer = frozen_base ? DequantizedExpertLayerBytes(m, in, c) : 0;
      expert_layer > 0) {
    if (in.forward_only || in.recompute == Recompute::kFull) {
      transient += expert_layer;
    } else {
      double moe_layers = 0;
      for (int64_t layer = 0; layer < m.num_layers; ++layer) moe_layers += m.IsMoeLayer(layer);
      stored += expert_layer * moe_layers * share.layers / std::max<double>(1, m.num_layers);
    }
  }
  bool head_here = true;
  if (in.pp > 1) {
    // The last stage holds the logits but only one micro-batch in flight; the first stage holds
    // pp micro-batches. Take the heavier.
    double last_stage = activation.stored_bytes / act.in_flight_microbatches + logits_in_backward;
    if (stored >= last_stage) {
      head_here = false;
      logits_in_forward = logits_in_backward = final_norm = 0;
    }
  }
  // Autocast caches a 16-bit copy of each fp32 weight it casts until the autocast region ends,
  // and trainers compute the loss inside it: at the loss in forward every linear weight has its
  // copy. Backward runs outside autocast; there only the copies matmuls saved remain: every
  // layer's without checkpointing, with it only the LM head's (tied to the embedding or not),
  // which sits outside the checkpointed layers. Measured: the peak's intercept over weights and
  // optimizer states is 2 bytes x these parameters (bench/gpu/results: Qwen2.5, Qwen3, Llama
  // without checkpointing; TinyLlama and SmolLM2, whose small vocabularies put the peak at the
  // forward's loss, with it).
  const double head_params = head_here ? vocab_per_rank * static_cast<double>(m.hidden_size) : 0;
  double copies_in_forward = 0, copies_in_backward = 0;
  if (act.autocast) {
    const double layers = share.attention_linear + share.dense_mlp_linear + share.expert_linear +
                          share.shared_expert_linear;
    copies_in_forward = c * (head_params + layers);
    copies_in_backward = c * (head_params + (in.recompute == Recompute::kFull ? 0 : layers));
  }

  // bitsandbytes paged optimizers keep their states in CUDA unified memory, outside PyTorch's
  // allocator: torch's counters do not see them, and the driver pages them out to the CPU when
  // the GPU fills up, so they take what is free and never cause an out-of-memory error.
  const bool paged = in.optimizer.paged;
  const double paged_states = paged ? states : 0;
  const double allocator_states = states - paged_states;
  const bool grads_persistent =
      in.style != TrainerStyle::kPlain || in.gpus > 1 || in.grad_accum > 1;
  const double persistent = weights + master + allocator_states + gathered;
  // Gradients produced during backward (none yet at the loss); the LM head's come first.
  const double new_grads = grads_persistent ? 0 : grads;
  const double head_grads =
      frozen_base || trainable <= 0 ? 0 : new_grads * std::min(1.0, head_params / trainable);
  // Candidate peaks between forward and backward. Backward frees each layer's saved tensors as
  // it adds that layer's gradients, so between the last layer and the first the total moves in
  // a straight line and the ends bound it.
  struct Candidate {
    const char* phase;
    double activations, logits, gradients, copies;
    double Sum() const { return activations + logits + gradients + copies; }
  };
  const double layers_here = std::max(share.layers, 1);
  const Candidate candidates[] = {
      // The loss in forward: every saved activation, the final norm, the 16-bit logits with
      // their fp32 copies, and autocast's whole cache.
      {"the loss in forward", stored + final_norm, logits_in_forward, 0, copies_in_forward},
      // The loss's backward: the log-softmax's fp32 buffers and the copies saved for backward.
      {"the loss in backward", stored + final_norm, logits_in_backward, 0, copies_in_backward},
      // Backward through the last layer: one layer live (recomputed under checkpointing, with
      // its gradients) beside everything saved and the LM head's gradient.
      {"backward through the last layer", stored + transient, 0, head_grads, copies_in_backward},
      // Backward through the first layer: its saved share, one layer live and every gradient.
      {"backward through the first layer", stored / layers_here + transient, 0, new_grads, 0},
  };
  const Candidate* worst = &candidates[0];
  for (const Candidate& candidate : candidates)
    if (candidate.Sum() > worst->Sum()) worst = &candidate;
  const double phase_forward =
      persistent + (grads_persistent ? accumulated_grads : 0) + worst->Sum();
  // The optimizer step: every gradient, plus foreach AdamW's temporary (the sqrt of the second
  // moment, one state-sized tensor) on frameworks that step with torch.optim.
  double step_temporary = 0;
  if (!in.forward_only && in.style == TrainerStyle::kPlain && !in.optimizer_in_backward &&
      in.optimizer.foreach_temporary)
    step_temporary = states / 2;
  // DeepSpeed steps its own fp32 partition: for each parameter group (ZeRO-3: each sub-group)
  // it flattens the 16-bit gradient partition, upcasts it to an fp32 gradient that lives
  // through the optimizer's step, and frees the flat 16-bit copy (stage_1_and_2.py step():
  // `single_grad_partition = flat_grad_partition.to(...)`, `del flat_grad_partition`,
  // `self._optimizer_step(i)`; stage3.py _prepare_fp32_grad_for_sub_group; DeepSpeed edaa7221,
  // the same at v0.11.1). A torch.optim optimizer (the trainer's own, when the DeepSpeed config
  // names none) then makes its state-sized temporary of that flat partition; DeepSpeed's
  // FusedAdam updates in place. Seen in a user's log: an 8-GPU ZeRO-2 llama-7b run died at
  // torch AdamW's `exp_avg_sq.sqrt()` asking for 3.14 GiB, one rank's partition in fp32
  // (hiyouga/LlamaFactory#1221).
  if (!in.forward_only && in.style == TrainerStyle::kDeepSpeed && master > 0 &&
      !in.optimizer_in_backward) {
    const double partition = trainable / sharded(Sharding::kOptimizer);  // elements it steps
    const double group = in.sharding == Sharding::kParameters
                             ? std::min(partition, std::max(in.zero_sub_group_elements, 1.0))
                             : partition;
    const double optimizer_temporary =
        in.optimizer.foreach_temporary ? states / 2 * group / partition : 0;
    step_temporary = 4 * group + std::max(c * group, optimizer_temporary);
  }
  // By the step every layer is sharded again: FSDP and ZeRO-3 free each unit's gathered
  // parameters in its post-backward, the root's too (FSDP2 FSDPParamGroup.post_backward calls
  // reshard(); FSDP1 _post_backward_hook frees the unsharded flat parameter under FULL_SHARD,
  // _should_free_in_backward; ZeRO-3 releases each submodule after its backward).
  const double phase_step = persistent - gathered + grads + step_temporary;
  const bool step_peak = phase_forward < phase_step;

  b.optimizer = master + states;
  b.weights = weights;
  if (!step_peak) {
    b.peak_phase = in.forward_only ? "forward" : worst->phase;
    b.torch_allocated = phase_forward;
    b.gradients = (grads_persistent ? accumulated_grads : 0) + worst->gradients;
    // Autocast's weight copies are tensors autograd saves for backward, like activations, and
    // are gone after it: they belong there, not with the weights a user sizes.
    b.activations = worst->activations + worst->copies;
    b.logits = worst->logits;
    if (worst->copies > 0)
      b.terms.push_back({"autocast weight copies", worst->copies,
                         worst->copies < copies_in_forward
                             ? "16-bit copy of the LM head kept for backward"
                             : "16-bit copy of every linear weight, cached or kept for backward"});
  } else {
    b.peak_phase = "optimizer step";
    b.torch_allocated = phase_step;
    b.gradients = grads;
    if (step_temporary > 0)
      b.terms.push_back({"optimizer step temporaries", step_temporary,
                         in.style == TrainerStyle::kDeepSpeed
                             ? "DeepSpeed's fp32 gradient of the partition it steps, and the "
                               "optimizer's temporary or the flat 16-bit copy"
                             : "foreach AdamW keeps one state-sized temporary"});
  }
  if (gathered > 0 && !step_peak)
    b.terms.push_back({"gathered layers", gathered,
                       in.style == TrainerStyle::kPlain
                           ? "FSDP: current and prefetched layer and the root unit (embedding, "
                             "head and its gradient) in 16 bits"
                           : "ZeRO-3: current and prefetched layer in 16 bits"});
  const double loaded_weights = b.weights;  // the gathered layers come and go each step
  if (!step_peak) b.weights += gathered;
  const double workspace = GibToBytes(kCublasWorkspaceGib);
  b.torch_allocated += workspace;
  b.torch_reserved = TypicalReserved(b.torch_allocated, loaded_weights);
  b.total = DeviceTotal(b.torch_reserved, in.gpus > 1, kTrainingCudaContextGib);
  b.total_low = DeviceTotal(b.torch_allocated, in.gpus > 1, kTrainingCudaContextGib);
  b.total_high = DeviceTotal(in.expandable_segments
                                 ? ExpandableReserved(b.torch_allocated, loaded_weights)
                                 : HighReserved(b.torch_allocated, loaded_weights),
                             in.gpus > 1, kTrainingCudaContextGib);
  // What nvidia-smi may show with memory to spare: the weights (less the gathered layers, which
  // come and go each step) and the optimizer's states leave no holes; the working set's cache
  // grows with varying lengths and recomputation.
  const AllocatorRun run{in.varying_shapes, in.recompute != Recompute::kNone && !in.forward_only,
                         in.expandable_segments};
  b.total_cached = DeviceTotal(
      WithSlack(b.torch_allocated, loaded_weights + b.optimizer, CachedSlackFraction(run)),
      in.gpus > 1, kTrainingCudaContextGib);
  if (paged_states > 0) {
    // Paged states take what the GPU has left and page out under pressure: none at the low end.
    double resident = std::min(paged_states, std::max(0.0, in.gpu_total_bytes - b.total));
    b.total += resident;
    b.total_high += std::min(paged_states, std::max(0.0, in.gpu_total_bytes - b.total_high));
    b.terms.push_back(
        {"paged optimizer states", paged_states,
         in.explain ? fmt::format("unified memory: {:.1f} GiB on the GPU, the rest paged out",
                                  BytesToGib(resident))
                    : std::string()});
  }
  b.total_cached = CachedTotal(b.total_cached, b.total_high, in.gpu_total_bytes);
  // The workspaces are allocated tensors but belong to no term of the model: overhead.
  b.overhead = b.total - (b.torch_allocated - workspace);
  b.terms.push_back({"activations per token per layer", activation.per_token_layer,
                     in.explain ? fmt::format("{:.0f} tokens x {} layers", tokens, share.layers)
                                : std::string()});
  // The clause a finding ends with: where the step's own tensors, not the model's state, are
  // the peak's largest part, what multiplies into them.
  if (in.explain && b.peak_phase != "optimizer step") {
    const double state = std::max({b.weights, b.optimizer, b.gradients});
    if (b.activations >= b.logits && b.activations > state)
      b.why = fmt::format(
          "activations: {:.0f} tokens x {} layers at {:.1f} KiB per token per layer, {}", tokens,
          share.layers, activation.per_token_layer / 1024,
          in.recompute == Recompute::kFull ? "one hidden state per layer kept (checkpointing) "
                                             "and one layer live"
                                           : "all kept for backward (no checkpointing)");
    else if (b.logits > b.activations && b.logits > state && logit_count > 0)
      b.why = fmt::format("logits: {:.0f} tokens x {:.0f} vocabulary entries at {:.0f} bytes each",
                          logit_tokens, vocab_per_rank, b.logits / logit_count);
  }
  return b;
}

}  // namespace gpulint::est
