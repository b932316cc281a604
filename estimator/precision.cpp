#include "estimator/precision.h"

namespace gpulint::est {

bool ParsePrecision(const std::string& text, Precision* precision) {
  if (text == "bf16" || text == "bfloat16" || text == "bf16-true" || text == "pure_bf16") {
    *precision = Precision::kBf16;
  } else if (text == "fp16" || text == "float16" || text == "half") {
    *precision = Precision::kFp16;
  } else if (text == "amp-bf16" || text == "bf16-mixed" || text == "amp_bf16" ||
             text == "amp-16") {
    // amp-16: a framework's "auto", bf16 where the GPU has it and fp16 where not; the same
    // bytes either way.
    *precision = Precision::kAmpBf16;
  } else if (text == "amp-fp16" || text == "fp16-mixed" || text == "amp_fp16") {
    *precision = Precision::kAmpFp16;
  } else if (text == "fp32" || text == "float32" || text == "no") {
    *precision = Precision::kFp32;
  } else {
    return false;
  }
  return true;
}

bool ParseOptimizer(const std::string& text, Optimizer* optimizer) {
  if (text == "adamw" || text == "adam" || text == "adamw_torch" || text == "adamw_torch_fused" ||
      text == "fused_adam") {
    *optimizer = Optimizer::kAdamW;
  } else if (text == "adamw_8bit" || text == "adam8bit" || text == "adamw_bnb_8bit") {
    *optimizer = Optimizer::kAdamW8bit;
  } else if (text == "paged_adamw" || text == "paged_adamw_32bit") {
    *optimizer = Optimizer::kPagedAdamW;
  } else if (text == "paged_adamw_8bit") {
    *optimizer = Optimizer::kPagedAdamW8bit;
  } else if (text == "adafactor") {
    *optimizer = Optimizer::kAdafactor;
  } else if (text == "sgd") {
    *optimizer = Optimizer::kSgd;
  } else if (text == "lion" || text == "lion_32bit") {
    *optimizer = Optimizer::kLion;
  } else {
    return false;
  }
  return true;
}

const char* PrecisionName(Precision precision) {
  switch (precision) {
    case Precision::kBf16: return "bf16";
    case Precision::kFp16: return "fp16";
    case Precision::kAmpBf16: return "amp-bf16";
    case Precision::kAmpFp16: return "amp-fp16";
    case Precision::kFp32: return "fp32";
  }
  return "bf16";
}

const char* OptimizerName(Optimizer optimizer) {
  switch (optimizer) {
    case Optimizer::kAdamW: return "adamw";
    case Optimizer::kAdamW8bit: return "adamw_8bit";
    case Optimizer::kPagedAdamW: return "paged_adamw";
    case Optimizer::kPagedAdamW8bit: return "paged_adamw_8bit";
    case Optimizer::kAdafactor: return "adafactor";
    case Optimizer::kSgd: return "sgd";
    case Optimizer::kLion: return "lion";
  }
  return "adamw";
}

double ComputeBytes(Precision precision) { return precision == Precision::kFp32 ? 4 : 2; }

double MasterBytes(Precision precision) {
  return precision == Precision::kBf16 || precision == Precision::kFp16 ? 2 : 4;
}

bool HasMasterCopy(Precision precision) {
  return precision == Precision::kAmpBf16 || precision == Precision::kAmpFp16;
}

double OptimizerStateBytes(Optimizer optimizer, Precision precision, double hidden_size) {
  const double state = MasterBytes(precision);
  switch (optimizer) {
    case Optimizer::kAdamW:
    case Optimizer::kPagedAdamW:
      return 2 * state;
    case Optimizer::kAdamW8bit:
    case Optimizer::kPagedAdamW8bit:
      // Two uint8 moments plus an fp32 absmax per 2048-element block (bitsandbytes blockwise).
      return 2 * (1 + 4.0 / 2048);
    case Optimizer::kAdafactor:
      // A row and a column vector per (h x k) matrix: about 2 / h of an element per weight.
      return hidden_size > 0 ? state * 2 / hidden_size : 0;
    case Optimizer::kSgd:
      return 0;
    case Optimizer::kLion:
      return state;
  }
  return 2 * state;
}

}  // namespace gpulint::est
