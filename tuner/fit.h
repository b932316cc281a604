// --fit: the cheapest change set that makes an out-of-memory workload fit, with the others that
// also fit, ranked. Cheapest means least change to what the job computes and how fast: a
// colocated rollout engine put to sleep during the update (the same job, its weights reloaded
// each step) before checkpointing (same gradients, about a third more compute) before a
// smaller micro-batch (same global batch, more accumulation steps) before more sharding, an
// fp8 KV cache, an 8-bit optimizer or a shorter context.
#pragma once

#include "lint/analysis/file_analysis.h"
#include "lint/reader/framework_map.h"
#include "tuner/proposal.h"

namespace gpulint {

/// `maps` tells which changes the framework can express (a flag exists for the setting).
Proposal Fit(const FileAnalysis& analysis, const FrameworkMaps& maps, size_t workload,
             const TunerOptions& options);

}  // namespace gpulint
