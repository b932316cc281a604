// Estimates a workload with some settings changed, without touching the analysis: the tuner's
// inner loop. Pure: the estimator only, no file is read.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>

#include "lint/analysis/file_analysis.h"

namespace gpulint {

/// Estimates of one file's workloads with settings changed, remembered across searches: --fit
/// runs a maximize search under each base it tries, and those ask for many of the same values.
/// One thread uses a memo at a time; it must not outlive the analysis it was filled from.
class WhatIfMemo {
 public:
  using Values = std::map<std::string, std::string>;
  /// The remembered estimate of workload `index` with `values`, or nullptr.
  const std::optional<est::Breakdown>* Find(const FileAnalysis& analysis, size_t index,
                                            const Values& values) const;
  const std::optional<est::Breakdown>& Remember(const FileAnalysis& analysis, size_t index,
                                                Values values,
                                                std::optional<est::Breakdown> estimate);

 private:
  std::map<std::tuple<const FileAnalysis*, size_t, Values>, std::optional<est::Breakdown>>
      estimates_;
};

class WhatIf {
 public:
  /// `base` is applied under every query (a change already decided, e.g. checkpointing on).
  /// `memo` is shared with other searches on the same file; a fresh one when null.
  /// `engines_asleep`: as if every colocated rollout engine slept through the update (the
  /// framework's sleep mode switched on), freeing what it holds now.
  WhatIf(const FileAnalysis& analysis, size_t workload, double headroom,
         std::map<std::string, std::string> base = {},
         std::shared_ptr<WhatIfMemo> memo = nullptr, bool engines_asleep = false);

  /// The colocated rollout engines that hold their memory while this workload runs (they do
  /// not sleep): indices into RunConfig::workloads.
  const std::vector<size_t>& held_engines() const { return held_engines_; }

  /// The estimate with `values` (setting -> text) applied; nullopt when the workload cannot be
  /// estimated.
  std::optional<est::Breakdown> Estimate(const std::map<std::string, std::string>& values) const;
  /// The high end of the estimated peak per GPU with `values` applied (what "fits" means).
  std::optional<double> TotalBytes(const std::map<std::string, std::string>& values) const;
  /// Training: the high end of the peak within usable memory minus headroom. vLLM and SGLang
  /// size themselves to their memory fraction, so for them: the engine starts (its KV cache
  /// holds one sequence of max_model_len) and the claim is within the GPU.
  bool Fits(const std::map<std::string, std::string>& values) const;

  /// What `values` change, for people: "peak up to 31.2 -> 71.0 GiB per GPU, 71.7 GiB allowed", or
  /// for an engine that sizes itself, what its KV cache then holds.
  std::string Outcome(const std::map<std::string, std::string>& values) const;

  /// Usable memory minus headroom and minus what shares the GPU with the workload at the same
  /// time (further models in its process, processes beside it); 0 when the GPU is unknown.
  double limit_bytes() const { return limit_bytes_; }
  const Workload& workload() const { return analysis_.read.config.workloads[index_]; }
  const WorkloadEstimate& estimate() const { return analysis_.estimates[index_]; }

 private:
  const FileAnalysis& analysis_;
  size_t index_;
  std::map<std::string, std::string> base_;
  double limit_bytes_ = 0;
  std::vector<size_t> held_engines_;
  // The searches ask for the same values more than once (grow, then bisect, then describe the
  // winner); one estimate per distinct set of values. A WhatIf lives on one thread.
  std::shared_ptr<WhatIfMemo> memo_;
};

}  // namespace gpulint
