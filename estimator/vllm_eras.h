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

/// Releases 0.8 to 0.10 still carry the V0 engine beside V1, and run it in its own accounting
/// (the 0.6.5-0.7 one): when VLLM_USE_V1=0 asks for it (to 0.10.2, the last release with V0),
/// or, with the variable unset, when the V1 oracle falls back on a GPU before Ampere (to
/// 0.10.1; pre-Ampere GPUs ran V1 from 0.10.2). Other fallbacks (fp32, some quantizations)
/// are not followed.
const VllmEra& VllmV0InV1Releases();

/// What decides between the engines in the releases that have both.
struct VllmEngineHints {
  bool v0_requested = false;      ///< VLLM_USE_V1=0
  bool v1_requested = false;      ///< VLLM_USE_V1=1: no fallback (vLLM raises instead)
  bool v0_maybe_requested = false;  ///< VLLM_USE_V1 set to a value gpulint cannot read
  bool before_ampere = false;     ///< compute capability below 8.0 (Volta, Turing)
  bool gpu_arch_unknown = false;  ///< a GPU known only by its size: either engine may run
};

/// The eras a range touches, oldest first (never empty). Where the hints make the V0 engine
/// certain for some releases, VllmV0InV1Releases() stands in for the V1 eras of those releases;
/// where they make it possible (an unknown GPU), it is added beside them.
std::vector<const VllmEra*> VllmErasIn(const VersionRange& range,
                                       const VllmEngineHints& hints = {});

}  // namespace gpulint::est
