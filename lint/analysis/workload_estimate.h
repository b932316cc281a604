// Maps a workload the reader found onto the estimator's inputs — resolving the model and GPU,
// filling what the script leaves out with stated assumptions — and runs the estimator.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "estimator/breakdown.h"
#include "estimator/gpu_spec.h"
#include "estimator/serving.h"
#include "lint/catalog/catalog.h"
#include "lint/core/run_config.h"

namespace gpulint {

struct EstimateContext {
  const Catalog* catalog = nullptr;
  ResolveContext resolve;
  std::string gpu_override;  ///< --gpu
  std::string gpu_default;   ///< gpulint.toml gpu
};

struct WorkloadEstimate {
  enum class Kind { kTraining, kServing } kind = Kind::kTraining;
  std::shared_ptr<const ModelEntry> model;
  ModelResolution resolution;
  std::optional<est::GpuSpec> gpu;
  /// The GPU as the script names it, and where that name does not say the memory size
  /// ("A100"), the largest variant it may mean (`gpu` is the smallest): JudgeGpuSize.
  std::string gpu_declared;
  std::optional<est::GpuSpec> gpu_largest_variant;
  std::optional<est::Breakdown> breakdown;  ///< nullopt when skipped
  std::string skipped;                      ///< why there is no estimate
  bool input_error = false;                 ///< a broken config.json: an exit-2 error
  std::vector<std::string> assumptions;
  /// Settings the estimate needed that the script writes with a value gpulint cannot know; the
  /// estimate used an assumption for them, and rules do not judge it.
  std::vector<std::string> unknown_inputs;
  double usable_bytes = 0;                  ///< the GPU's memory (nvidia-smi total)
  bool fits = false;                        ///< breakdown->total <= usable_bytes
  std::string engine;                       ///< vllm | sglang | hf for serving, as written
  std::optional<est::Engine> engine_kind;   ///< serving: the engine gpulint prices
  /// A serving engine that claims a fraction of the GPU as a KV pool (vLLM, SGLang).
  bool ClaimsMemoryFraction() const {
    return engine_kind && est::ClaimsMemoryFraction(*engine_kind);
  }
  double max_model_len = 0;                 ///< serving: the context the engine is set up for
  double persistent_bytes = 0;              ///< training: memory held between steps (colocation)
  /// Training, RL: the prompt tokens each sequence is priced with (the stated cap, or the
  /// length assumed where nothing truncates prompts); 0 where the job has no prompt length.
  double prompt_tokens = 0;
  /// Training: the step's size is the data's (unpadded sequences, lengths no flag caps), and
  /// the estimate is at the longest the flags allow.
  bool size_from_data = false;
  /// Why the verdict is left open although there is an estimate: it flips with a value the
  /// script leaves to the data (the sequence length), and that value is in unknown_inputs.
  std::string undecided;
  /// Its short form: up to what the data fits ("sequences up to 2737 tokens fit").
  std::string undecided_bound;
  /// Why the verdict is left open: a flag of a team's own entry point whose meaning decides it
  /// (lint/analysis/readings.h); the setting is in unknown_inputs.
  std::string reading_decides;
  std::string reading_setting;  ///< the setting of that flag (GL009 points at it)
  /// Each reading that moves the estimate, with both numbers (also in `assumptions`).
  std::vector<std::string> readings;
};

/// The GPU a file's workloads run on: --gpu, a directive or SBATCH, gpulint.toml.
/// Sets `declared` to the name used and `source` to where it was declared.
GpuResolution ResolveRunGpu(const RunConfig& config, const EstimateContext& context,
                            std::string* declared, std::string* source);

WorkloadEstimate EstimateWorkload(const Workload& workload, const RunConfig& config,
                                  const EstimateContext& context);

/// Estimates `workload` on the model and GPU that `resolved` (an estimate of the same workload
/// before some settings changed) already found: the tuner's inner loop changes settings only,
/// and resolving the names costs more than the estimate. Its assumptions are not worded unless
/// `explain`: by default only the numbers and `unknown_inputs` are filled.
WorkloadEstimate EstimateSettings(const Workload& workload, const WorkloadEstimate& resolved,
                                  bool explain = false);

}  // namespace gpulint
