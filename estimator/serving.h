// Per-GPU memory of an inference engine: vLLM's and SGLang's budget rules (a claimed fraction
// of the GPU, minus weights, the profiled activation peak and non-torch memory, leaves the KV
// pool) and Hugging Face generate with device_map placement.
#pragma once

#include <string>
#include <vector>

#include "estimator/breakdown.h"
#include "estimator/engine_version.h"
#include "estimator/model_arch.h"
#include "estimator/vllm_eras.h"

namespace gpulint::est {

enum class Engine { kVllm, kSglang, kHf };

/// "vllm", "sglang" or "hf" (a map's `engine` setting); false for anything else.
bool ParseEngine(const std::string& text, Engine* engine);

/// vLLM and SGLang claim a fraction of the GPU at start-up and hold it as a KV pool;
/// transformers allocates as it generates.
inline bool ClaimsMemoryFraction(Engine engine) { return engine != Engine::kHf; }

struct ServingInput {
  const ModelArch* arch = nullptr;
  double gpu_total_bytes = 0;
  Engine engine = Engine::kVllm;
  int tp = 1, pp = 1, dp = 1;
  bool expert_parallel = false;      ///< vLLM --enable-expert-parallel
  Quantization quant;                ///< weight format (checkpoint or --quantization)
  double memory_fraction = 0.9;      ///< gpu_memory_utilization / mem_fraction_static
  double max_model_len = 0;          ///< 0: the model's max_position_embeddings
  double max_num_seqs = 256;
  double max_num_batched_tokens = 8192;
  std::string kv_cache_dtype = "auto";
  bool enforce_eager = false;
  double cpu_offload_bytes = 0;
  /// vLLM releases the estimate holds for (estimator/vllm_eras.h); the newest by default.
  VersionRange versions{kNewestVersion, kNewestVersion};
  VllmEngineHints vllm_engine;       ///< V0 or V1 where a release has both
  bool max_num_batched_tokens_default = false;  ///< not set by the user: the engine's default
  bool max_num_seqs_default = false;
  double cuda_graph_max_bs = 0;      ///< SGLang
  double chunked_prefill = 0;        ///< SGLang
  double max_total_tokens = 0;       ///< SGLang --max-total-tokens
  // Hugging Face transformers generate.
  int batch = 1;
  double sequence_tokens = 0;        ///< prompt + generated tokens per sequence
  int device_count = 1;              ///< GPUs device_map spreads the model over
  std::vector<double> max_memory_bytes;  ///< device_map caps per GPU (0: none)
};

Breakdown EstimateServing(const ServingInput& input);

/// Weight bytes on the most loaded GPU for a format (exported for the device_map placement and
/// the rules that ask whether a model fits at all).
double ServingWeightBytes(const ModelArch& arch, const Quantization& quant, int tp, int pp, int ep);

/// SGLang's default mem_fraction_static for a GPU of `total_bytes` (server_args.py heuristic).
double SglangDefaultMemoryFraction(double total_bytes, int tp, int pp, double chunked_prefill,
                                   double cuda_graph_max_bs);

}  // namespace gpulint::est
