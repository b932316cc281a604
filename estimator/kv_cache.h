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

}  // namespace gpulint::est
