// Parameter counts computed from the architecture, split by the groups that memory rules treat
// differently (quantized or not, sharded by TP or replicated, routed experts or always active).
#pragma once

#include <cstdint>

#include "estimator/model_arch.h"

namespace gpulint::est {

struct ParamBreakdown {
  double embedding = 0;        ///< input token embedding tables (V x h; per-layer inputs)
  double lm_head = 0;          ///< output projection (0 when tied), with its bias if any
  double attention_linear = 0; ///< q/k/v/o projections (MLA: all its projections)
  double attention_other = 0;  ///< attention biases, q/k norms, MLA latent norms, sinks
  double dense_mlp_linear = 0; ///< MLP weights of dense layers
  double dense_mlp_bias = 0;
  double expert_linear = 0;    ///< routed experts' weights, all of them
  double expert_bias = 0;
  double shared_expert_linear = 0;  ///< shared experts and their gate
  double router = 0;           ///< MoE gates (with bias)
  double norms = 0;            ///< per-layer and final norms
  double vision = 0;           ///< vision and audio towers and their projectors
  double mtp = 0;              ///< multi-token-prediction layers: stored, never loaded

  /// Everything loaded: what must sit in memory.
  double Total() const;
  /// What the checkpoint stores: Total() and the MTP layers, which loaders skip.
  double CheckpointTotal() const { return Total() + mtp; }
  /// Language model only (no vision or audio tower): how model cards usually state the size.
  double TextTotal() const { return Total() - vision; }
  /// Weights a token passes through in the language model: routed experts scaled to
  /// experts_per_token / num_experts. `count_embedding` = false drops the input lookup table,
  /// which some model cards do (gpt-oss).
  double TextActive(const ModelArch& arch, bool count_embedding = true) const;
  /// Linear weights a quantization format converts (everything but embeddings, norms, routers,
  /// biases and excluded groups).
  double QuantizableLinear(const QuantExclusions& exclusions) const;
};

/// Counts the parameters of `arch` the way the transformers implementation stores them.
ParamBreakdown CountParams(const ModelArch& arch);

}  // namespace gpulint::est
