// The parameters one GPU holds under tensor, pipeline and expert parallelism: the most loaded
// pipeline stage, with linear layers split by TP, experts by EP, and the vocabulary by TP.
#pragma once

#include "estimator/model_arch.h"
#include "estimator/param_count.h"

namespace gpulint::est {

struct ParamShare {
  double attention_linear = 0;
  double dense_mlp_linear = 0;
  double expert_linear = 0;
  double shared_expert_linear = 0;
  double embedding = 0;   ///< input embedding (first stage)
  double lm_head = 0;     ///< output projection (last stage)
  double small = 0;       ///< norms, biases, routers: replicated across TP
  double vision = 0;
  double largest_layer = 0;  ///< parameters of the largest decoder layer on this GPU
  int layers = 0;            ///< decoder layers on this GPU

  double Total() const {
    return attention_linear + dense_mlp_linear + expert_linear + shared_expert_linear + embedding +
           lm_head + small + vision;
  }
  /// Linear weights a quantization format converts.
  double Quantizable(const QuantExclusions& exclusions) const;
};

/// What the most loaded GPU holds. tp, pp, ep >= 1. Routed experts are split over EP x TP
/// (Megatron's default expert tensor parallel size is TP); the first stage holds the embedding
/// and the vision tower, the last the LM head; the heavier of the two is returned.
ParamShare ShareOfGpu(const ModelArch& arch, const ParamBreakdown& params, int tp, int pp, int ep);

}  // namespace gpulint::est
