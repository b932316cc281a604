#include "estimator/weight_format.h"

namespace gpulint::est {

bool IsBitsandbytes(WeightFormat format) {
  return format == WeightFormat::kNf4 || format == WeightFormat::kNf4Double ||
         format == WeightFormat::kInt8;
}

double QuantizedBytesPerWeight(const Quantization& quant) {
  const double group = quant.group_size > 0 ? quant.group_size : 128;
  switch (quant.format) {
    case WeightFormat::kDefault: return 2;
    case WeightFormat::kInt8: return 1;
    case WeightFormat::kNf4: return (4 + 32.0 / 64) / 8;                  // 4.5 bits
    case WeightFormat::kNf4Double: return (4 + 8.0 / 64 + 32.0 / (64 * 256)) / 8;  // ~4.127
    case WeightFormat::kGptqInt4:
    case WeightFormat::kAwqInt4: return (4 + 16.0 / group + 4.0 / group) / 8;
    case WeightFormat::kGptqInt8:
      return quant.group_size > 0 ? (8 + 16.0 / group + 8.0 / group) / 8 : 1;
    case WeightFormat::kFp8: return 1;  // per-channel or 128x128-block scales: < 0.1%
    case WeightFormat::kMxfp4: return 4.25 / 8;
    case WeightFormat::kNvfp4: return 4.5 / 8;
  }
  return 2;
}

double DtypeBytes(const std::string& dtype) {
  if (dtype == "float32" || dtype == "fp32") return 4;
  if (dtype == "float8" || dtype == "fp8") return 1;
  return 2;
}

}  // namespace gpulint::est
