// Bytes per weight of each storage format, with the scales and zero points it carries.
#pragma once

#include "estimator/model_arch.h"

namespace gpulint::est {

/// Bytes per quantized weight (linear layers only; embeddings and norms keep the model dtype).
/// Sources: QLoRA paper (arXiv 2305.14314) for NF4 and double quantization; AutoGPTQ/AutoAWQ
/// packing (int4 + fp16 scale + 4-bit zero per group); OCP MX spec for MXFP4 (32-element blocks
/// with an 8-bit shared exponent); NVFP4 (16-element blocks with an fp8 scale); bitsandbytes
/// LLM.int8 (int8 + fp32 scale per output row, about 1 byte).
double QuantizedBytesPerWeight(const Quantization& quant);

/// Whether bitsandbytes stores the format (NF4, NF4 with double quantization, LLM.int8): its
/// conversion replaces nn.Linear modules only.
bool IsBitsandbytes(WeightFormat format);

/// Bytes per element of a 16/32-bit dtype name ("bfloat16", "float32", ...); 2 when unknown.
double DtypeBytes(const std::string& dtype);

}  // namespace gpulint::est
