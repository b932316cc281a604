// How a training run stores weights, gradients and optimizer states, and how many bytes each
// element takes. Names follow ../shared/calibration/README.md (dtype and optimizer values).
#pragma once

#include <string>

namespace gpulint::est {

enum class Precision {
  kBf16,     ///< weights, gradients and optimizer states in bf16 ("bf16-true")
  kFp16,     ///< the same in fp16
  kAmpBf16,  ///< fp32 master weights and states, bf16 compute
  kAmpFp16,  ///< fp32 master weights and states, fp16 compute
  kFp32,     ///< everything fp32, fp32 activations
};

/// An optimizer as memory sees it: the per-parameter states it keeps and where they live.
/// Default-constructed it is torch.optim.AdamW.
struct Optimizer {
  const char* name = "adamw";
  int moments = 2;          ///< states of the parameter's size (AdamW: exp_avg, exp_avg_sq)
  int state_bits = 0;       ///< 0: the run's state dtype (MasterBytes); else 32, 8 or 4 bits
  int scale_block = 0;      ///< quantized states: elements per fp32 scale (absmax)
  bool factored = false;    ///< Adafactor: a row and a column vector per matrix, not a moment
  bool paged = false;       ///< bitsandbytes paged: CUDA unified memory, outside torch's allocator
  bool foreach_temporary = true;  ///< torch.optim's foreach step makes one state-sized temporary
};

/// Parses dtype settings ("bf16", "amp-bf16", "fp32", "bfloat16", "float16", ...).
bool ParsePrecision(const std::string& text, Precision* precision);
/// Parses an optimizer as the frameworks name it: transformers' OptimizerNames (which
/// LLaMA-Factory, axolotl, ms-swift and TRL pass through) and the canonical names the flag maps
/// translate theirs to ("adamw", "adamw_8bit", "paged_adamw", "lion", ...). False for a name
/// whose states gpulint does not know; the caller says so.
bool ParseOptimizer(const std::string& text, Optimizer* optimizer);
const char* PrecisionName(Precision precision);

/// Bytes per element of activations and of the compute copy of weights.
double ComputeBytes(Precision precision);
/// Bytes per element of the stored (master) weights and of the optimizer's moments.
double MasterBytes(Precision precision);
/// Whether the run keeps a separate fp32 master copy next to 16-bit compute weights.
bool HasMasterCopy(Precision precision);
/// Optimizer state bytes per trainable parameter (moments only, not the master copy).
double OptimizerStateBytes(const Optimizer& optimizer, Precision precision, double hidden_size);

}  // namespace gpulint::est
