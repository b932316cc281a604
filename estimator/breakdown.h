// The estimator's answer: per-GPU memory by term, the three peaks users compare against
// (live tensors, allocator reservation, device total) and the assumptions behind them.
#pragma once

#include <string>
#include <vector>

namespace gpulint::est {

/// A named part of the ledger, for people ("activations: 38 layers x 2 x 4096 tokens ...").
struct Term {
  std::string name;
  double bytes = 0;
  std::string note;
};

struct Breakdown {
  // The canonical terms of architecture.md, bytes per GPU at the peak.
  double weights = 0;
  double gradients = 0;
  double optimizer = 0;
  double activations = 0;
  double logits = 0;
  double kv_cache = 0;
  double overhead = 0;  ///< CUDA context, NCCL/cuBLAS workspaces, allocator slack, CUDA graphs

  double torch_allocated = 0;  ///< peak of live tensors (torch.cuda.max_memory_allocated)
  double torch_reserved = 0;   ///< + the caching allocator's slack
  double total = 0;            ///< what nvidia-smi shows for the process, typical slack
  // The range a run's device total falls in. `total_low`: the live tensors at the peak with no
  // allocator slack, which no run can go below; `total_high`: the slack that fragmentation
  // reaches in a long run. An engine that claims a fixed budget has one value for all three.
  double total_low = 0;
  double total_high = 0;
  /// What nvidia-smi may show for the process over a long run when memory is plentiful: the
  /// allocator keeps what it freed until an allocation fails, then gives its cached segments
  /// back and tries again, so this is not what the run needs (estimator/overhead.h,
  /// CachedSlackFraction). At least total_high; 0 where the estimate does not say.
  double total_cached = 0;

  std::string peak_phase;      ///< where the peak is: "backward", "optimizer step", ...
  /// Why the peak's largest term is that large, in one clause ("activations: 524288 tokens x
  /// 36 layers kept for backward, ..."), where activations or logits are it; "" otherwise.
  std::string why;
  std::vector<Term> terms;     ///< finer ledger for the text report
  std::vector<std::string> assumptions;

  // Serving only.
  double kv_cache_tokens = -1;  ///< tokens the engine's KV pool holds (engine-wide); -1: n/a
  double max_concurrency = -1;  ///< kv_cache_tokens / max_model_len
  double requested = 0;         ///< an engine's claimed budget (util x total), 0 when none
  /// The most tokens the pool holds in any engine release the estimate covers (-1: n/a);
  /// `kv_cache_tokens` is the newest release's.
  double kv_cache_tokens_high = -1;
  /// Whether the engine sizes its pool to what the whole device leaves (a colocated trainer's
  /// tensors included) in some (`_low`) or every (`_high`) release the estimate covers.
  bool pool_fits_device_low = false, pool_fits_device_high = false;
  /// The least such an engine starts with: weights, profile peak and a one-sequence pool.
  double engine_floor = 0;
};

}  // namespace gpulint::est
