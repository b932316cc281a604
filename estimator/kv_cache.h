// KV cache bytes per token: what each full-attention, sliding-window or latent (MLA) layer keeps
// for one token on one tensor-parallel rank.
#pragma once

#include "estimator/model_arch.h"

namespace gpulint::est {

/// Bytes per element of a KV cache dtype ("auto" = the model's 16-bit dtype, "fp8*" = 1).
double KvElementBytes(const std::string& kv_cache_dtype, const std::string& model_dtype);

/// Bytes per token on one rank, summed over the layers this rank holds. KV heads are split over
/// TP (at least one head per rank, vLLM get_num_kv_heads); an MLA latent is replicated on every
/// rank. `sliding_layers_count` = false leaves sliding-window layers out (engines that page them
/// separately and bound them by the window).
double KvBytesPerToken(const ModelArch& arch, int tp, int pp, double element_bytes,
                       bool sliding_layers_count = true);

/// Bytes one sequence holds on one rank in the linear-attention layers (0 for a model without
/// them), whatever its length: each layer's convolution keeps its last conv_kernel - 1 inputs
/// (`conv_element_bytes` each) and its recurrence one key_head_dim x value_head_dim matrix per
/// value head (`state_element_bytes`; Qwen3-Next and Qwen3.5 configs ask for float32 with
/// mamba_ssm_dtype). Heads split over TP; PP splits the layers.
double LinearStateBytesPerSequence(const ModelArch& arch, int tp, int pp,
                                   double conv_element_bytes, double state_element_bytes = 4);

}  // namespace gpulint::est
