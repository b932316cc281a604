// What the tuner proposes: new values for a workload's settings, why, and the estimate before
// and after. Edits on the file come later (tuner/apply.h), so that a proposal can be shown even
// where a value cannot be rewritten.
#pragma once

#include <cstddef>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lint/config/project_config.h"

namespace gpulint {

class WhatIfMemo;
class FrameworkMaps;

inline constexpr size_t kProposalWorkload = std::numeric_limits<size_t>::max();

/// One setting's new value.
struct Change {
  std::string setting;  ///< canonical name: micro_batch, grad_accum, grad_ckpt, ...
  std::string before;   ///< "" when the script does not set it
  std::string after;
  /// The workload whose setting it is: the proposal's, or another its command starts (a
  /// rollout's max_model_len that moves with the trainer's response length).
  size_t workload = kProposalWorkload;
};

struct Proposal {
  size_t workload = 0;               ///< index into RunConfig::workloads
  std::string objective;             ///< maximize-batch | maximize-context | fit | set
  std::string summary;               ///< "micro_batch 4 -> 16 (grad_accum 8 -> 2)"
  std::vector<Change> changes;       ///< empty: nothing to change
  double total_before_bytes = 0;     ///< the estimated peak per GPU
  double total_after_bytes = 0;
  double limit_bytes = 0;            ///< usable memory minus headroom
  bool safe = false;                 ///< keeps what the job computes (checkpointing)
  std::string note;                  ///< why nothing is proposed, when `changes` is empty
  std::vector<std::string> alternatives;  ///< --fit: other change sets that fit, cheapest first
};

/// Everything a search needs besides the file: the CLI's --keep/--pow2/--headroom.
struct TunerOptions {
  double headroom = kDefaultHeadroom;
  bool pow2 = false;
  bool keep_global_batch = false;  ///< --keep global-batch (on by itself when the script sets it)
  std::string workload_role;       ///< --workload: only workloads with this role
  /// --fit: also search the costlier change sets, for Proposal::alternatives (the fix command
  /// lists them; a finding shows only the cheapest).
  bool alternatives = true;
  /// The flag maps, for the bounds a context change moves along (tuner/bounds.h); none are
  /// moved without them.
  const FrameworkMaps* maps = nullptr;
  /// Estimates shared by the searches on one file (tuner/what_if.h); each search makes its own
  /// when none is given.
  std::shared_ptr<WhatIfMemo> memo;
};

}  // namespace gpulint
