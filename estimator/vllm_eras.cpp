#include "estimator/vllm_eras.h"

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

std::vector<const VllmEra*> VllmErasIn(const VersionRange& range) {
  std::vector<const VllmEra*> touched;
  for (const VllmEra& era : VllmEras())
    if (!(range.high < era.first) && !(era.last < range.low)) touched.push_back(&era);
  if (touched.empty()) touched.push_back(&VllmEras().back());
  return touched;
}

}  // namespace gpulint::est
