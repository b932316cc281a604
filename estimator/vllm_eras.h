// What each era of vLLM releases does with memory at start-up, as far as gpulint models it.
// An estimate for a range of versions (a pin such as verl's vllm>=0.8.5,<=0.12.0) is the span
// of the estimates of the eras the range touches (estimator/serving.cpp).
//
// Sources: vllm-project/vllm pull requests and issue threads named in vllm_eras.cpp. Release
// numbers not checked against a tag are marked "likely" there.
#pragma once

#include <vector>

#include "estimator/engine_version.h"

namespace gpulint::est {

struct VllmEra {
  EngineVersion first, last;  ///< releases the era spans, both inclusive
  const char* name;           ///< "V1, device-wide profile (0.8.0-0.9.1)"
  /// The KV pool is util x total less what the whole device holds after the profile run (the
  /// tensors of a trainer in the same process, other processes): the pool shrinks to fit. Else
  /// the pool is util x total less what this instance itself allocated.
  bool pool_fits_device = false;
  /// Bytes per (sequence, vocabulary) element the profile's sampler run keeps, lowest and
  /// highest: fp32 logits, probabilities, log-probabilities (12) and, when top-k/top-p sort in
  /// PyTorch, sorted copies with int64 indices (36). Which one runs depends on the install.
  double sampler_bytes_low = 12, sampler_bytes_high = 12;
  /// The V0 engine batches max(max_model_len, 2048) tokens, or this many under chunked prefill,
  /// which it turns on by itself above 32768 tokens of context. 0: the V1 engine's defaults
  /// (the flag map's) apply.
  double v0_chunked_prefill_tokens = 0;
  const char* source = "";
};

/// Every era, oldest first, covering 0.0.0 to kNewestVersion without gaps.
const std::vector<VllmEra>& VllmEras();

/// The eras a range touches, oldest first (never empty).
std::vector<const VllmEra*> VllmErasIn(const VersionRange& range);

}  // namespace gpulint::est
