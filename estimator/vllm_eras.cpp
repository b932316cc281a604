#include "estimator/vllm_eras.h"

#include <algorithm>

namespace gpulint::est {

const std::vector<VllmEra>& VllmEras() {
  static const std::vector<VllmEra> eras = {
      {{0, 0, 0}, {0, 6, 3}, "V0, profile measured from the instance's start (0.6.3 and earlier)",
       false, 12, 12, 512,
       "vllm/worker/worker.py determine_num_available_blocks: peak_memory = init_gpu_memory - "
       "free_gpu_memory (vllm PR #2863; quoted as 0.6.3's code in vllm issue #10451); long "
       "contexts turn chunked prefill on, 512 tokens (PR #6666)"},
      {{0, 6, 4}, {0, 6, 4}, "V0, device-wide profile (0.6.4)", true, 12, 12, 512,
       "vllm PR #9352: peak = torch's allocated peak + (device used - torch allocated); vllm "
       "issue #10451 'Breaking Change in gpu_memory_utilization Behavior in vLLM 0.6.4'"},
      {{0, 6, 5}, {0, 7, 9999}, "V0, per-instance profile (0.6.5-0.7)", false, 12, 12, 2048,
       "vllm PR #10511 memory_profiling(baseline_snapshot, ...) (likely 0.6.5); chunked prefill "
       "batches 2048 tokens (PR #10544)"},
      {{0, 8, 0}, {0, 9, 1}, "V1, device-wide profile (0.8.0-0.9.1)", true, 12, 36, 0,
       "V1 default from 0.8.0 (vllm PR #13726); v1/worker/gpu_worker.py determine_available_"
       "memory charges other processes' memory as non-torch (PR #19312's description) and the "
       "process's own tensors through torch's allocated peak (0.9.1 excludes other processes, "
       "PR #18974); the dummy sampler run with top_p 0.9, top_k vocab-1 (PR #14508) sorts in "
       "PyTorch unless FlashInfer's sampler is installed"},
      {{0, 9, 2}, {0, 9, 9999}, "V1, per-instance profile (0.9.2-0.9)", false, 12, 36, 0,
       "vllm PR #19312 (likely 0.9.2): requested_memory - non_kv_cache_memory of memory_profiling"
       "(init_snapshot); start-up refuses when free memory < util x total (PR #18974)"},
      {{0, 10, 0}, kNewestVersion, "V1, per-instance profile (0.10 and later)", false, 36, 36,
       0,
       "as 0.9.2; the sampler run's 36 bytes per element fitted on llm-d's vLLM 0.11 start-up "
       "logs (bench/accuracy: llmd-v011-*). From 0.21 the profile also estimates CUDA graphs "
       "inside the budget (vllm PR #30515, vllm/envs.py VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS) "
       "except under Model Runner V2, which reports 0 (vllm issue #49224): gpulint keeps graphs "
       "on top of the budget, the larger device total and the larger pool"},
  };
  return eras;
}

const VllmEra& VllmV0InV1Releases() {
  static const VllmEra era = {
      {0, 8, 0}, {0, 10, 2},
      "V0 engine in a V1 release, per-instance profile (0.8-0.10)", false, 12, 36, 2048,
      "vllm/engine/arg_utils.py (vllm PR #13726, 0.8.0): `try_v1 = envs.VLLM_USE_V1 or not "
      "envs.is_set(\"VLLM_USE_V1\")`, `_raise_or_fallback(feature_name=\"Compute Capability < "
      "8.0\"`, _set_default_args_v0 (chunked prefill past 32768 tokens, 256 sequences); V1 on "
      "pre-Ampere GPUs from PR #24022 (2025-09-01, likely 0.10.2); the V0 engine removed by PR "
      "#25321 (2025-09-20, before 0.11.0); vllm/worker/worker.py profiles as in 0.6.5 (PR #10511). "
      "The dummy run samples with top_p 0.99, top_k vocab-1 (vllm/worker/model_runner.py "
      "_dummy_run), which the sampler sorts in PyTorch (_apply_top_k_top_p: sorted fp32 values, "
      "int64 indices, softmax, cumsum) unless FlashInfer's sampler is installed: 12 to 36 bytes"};
  return era;
}

std::vector<const VllmEra*> VllmErasIn(const VersionRange& range, const VllmEngineHints& hints) {
  const VllmEra& v0 = VllmV0InV1Releases();
  // The releases in which V0 runs for sure (v0_certain) or may run, and their last one.
  EngineVersion v0_last{0, 0, 0};
  bool v0_possible = false, v0_certain = false;
  if (hints.v0_requested) {
    v0_last = v0.last;
    v0_possible = v0_certain = true;
  } else if (hints.v0_maybe_requested) {
    v0_last = v0.last;
    v0_possible = true;
  } else if (!hints.v1_requested && (hints.before_ampere || hints.gpu_arch_unknown)) {
    v0_last = {0, 10, 1};
    v0_possible = true;
    v0_certain = hints.before_ampere;
  }
  std::vector<const VllmEra*> touched;
  for (const VllmEra& era : VllmEras()) {
    if (range.high < era.first || era.last < range.low) continue;
    // The era's releases the range admits.
    const EngineVersion low = range.low < era.first ? era.first : range.low;
    const EngineVersion high = era.last < range.high ? era.last : range.high;
    const bool has_v0_releases = v0_possible && !(high < v0.first) && !(v0_last < low);
    if (has_v0_releases && std::find(touched.begin(), touched.end(), &v0) == touched.end())
      touched.push_back(&v0);
    // V1 runs in the era unless V0 is certain for every release of it the range admits.
    const bool all_v0 = has_v0_releases && v0_certain && v0.first <= low && high <= v0_last;
    if (!all_v0) touched.push_back(&era);
  }
  if (touched.empty()) touched.push_back(&VllmEras().back());
  return touched;
}

}  // namespace gpulint::est
