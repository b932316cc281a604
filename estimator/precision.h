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

enum class Optimizer {
  kAdamW,          ///< two moments in the state dtype
  kAdamW8bit,      ///< bitsandbytes: two 8-bit moments (+ small absmax)
  kPagedAdamW,     ///< bitsandbytes paged 32-bit: like AdamW, pageable under pressure
  kPagedAdamW8bit,
  kAdafactor,      ///< factored second moment: a row and a column vector per matrix
  kSgd,            ///< no state
  kLion,           ///< one moment
};

/// Parses dtype settings ("bf16", "amp-bf16", "fp32", "bfloat16", "float16", ...).
bool ParsePrecision(const std::string& text, Precision* precision);
bool ParseOptimizer(const std::string& text, Optimizer* optimizer);
const char* PrecisionName(Precision precision);
const char* OptimizerName(Optimizer optimizer);

/// Bytes per element of activations and of the compute copy of weights.
double ComputeBytes(Precision precision);
/// Bytes per element of the stored (master) weights and of the optimizer's moments.
double MasterBytes(Precision precision);
/// Whether the run keeps a separate fp32 master copy next to 16-bit compute weights.
bool HasMasterCopy(Precision precision);
/// Optimizer state bytes per trainable parameter (moments only, not the master copy).
double OptimizerStateBytes(Optimizer optimizer, Precision precision, double hidden_size);

}  // namespace gpulint::est
