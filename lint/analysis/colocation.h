// Memory per physical GPU when several workloads share it: two processes running at the same
// time add up; a trainer and its colocated rollout engine alternate phases; a further model in
// the same process (an evaluator) adds its tensors.
#pragma once

#include <vector>

#include "lint/analysis/workload_estimate.h"
#include "lint/core/run_config.h"

namespace gpulint {

struct DeviceLoad {
  int device = 0;
  double bytes = 0;             ///< the peak of everything live on it at once
  double low_bytes = 0;         ///< the same from the low ends of the workloads' ranges
  double high_bytes = 0;        ///< ... and from their high ends
  /// What stays on it whatever the data: the held state of the workloads (weights, gradients,
  /// optimizer states) and a colocated engine's budget, at their low ends, without any step's
  /// activations. A floor that holds where a sequence length is left to the data.
  double held_low_bytes = 0;
  double held_high_bytes = 0;   ///< ... at their high ends
  double held_bytes = 0;        ///< the same at the typical estimates (internal to LoadAt)
  std::vector<int> workloads;   ///< indices into RunConfig::workloads that use it
  std::vector<int> peak_workloads;  ///< those live together at the peak (sorted)
  bool shared = false;          ///< more than one workload is live on it at the same time
};

std::vector<DeviceLoad> ComputeDeviceLoads(const RunConfig& config,
                                           const std::vector<WorkloadEstimate>& estimates);

/// What else holds memory on workload `index`'s GPUs while it runs, at the others' high ends:
/// further models in its own process (their held state), processes started beside it with '&',
/// and colocated rollout engines that do not sleep through its update. `engines_asleep`: as if
/// every such engine slept (the framework's sleep mode switched on).
struct LiveBeside {
  double bytes = 0;
  std::vector<size_t> held_engines;  ///< the engines that hold their memory (indices)
};
LiveBeside LiveBesideWorkload(const RunConfig& config,
                              const std::vector<WorkloadEstimate>& estimates, size_t index,
                              bool engines_asleep = false);

}  // namespace gpulint
