#include "estimator/param_share.h"

#include <algorithm>
#include <cmath>

namespace gpulint::est {

double ParamShare::Quantizable(const QuantExclusions& exclusions) const {
  double linear = exclusions.routed_experts ? 0 : expert_linear;
  if (!exclusions.attention) linear += attention_linear;
  if (!exclusions.dense_mlp) linear += dense_mlp_linear;
  if (!exclusions.shared_experts) linear += shared_expert_linear;
  return linear;
}

ParamShare ShareOfGpu(const ModelArch& arch, const ParamBreakdown& p, int tp, int pp, int ep) {
  tp = std::max(tp, 1);
  pp = std::max(pp, 1);
  ep = std::max(ep, 1);
  const double layers = std::max<double>(1, static_cast<double>(arch.num_layers));
  const int stage_layers = static_cast<int>(std::ceil(layers / pp));
  const double fraction = stage_layers / layers;
  ParamShare share;
  share.layers = stage_layers;
  share.attention_linear = p.attention_linear * fraction / tp;
  share.dense_mlp_linear = p.dense_mlp_linear * fraction / tp;
  share.expert_linear = p.expert_linear * fraction / (tp * ep);
  share.shared_expert_linear = p.shared_expert_linear * fraction / tp;
  // Biases and norms: small, kept whole per rank (a slight over-count for sharded biases).
  share.small = (p.attention_other + p.dense_mlp_bias + p.expert_bias / ep + p.router + p.norms) *
                fraction;
  const double first_stage_extra = p.embedding / tp + p.vision / tp;
  const double last_stage_extra = p.lm_head / tp;
  if (pp == 1) {
    share.embedding = p.embedding / tp;
    share.lm_head = p.lm_head / tp;
    share.vision = p.vision / tp;
  } else if (first_stage_extra >= last_stage_extra) {
    share.embedding = p.embedding / tp;
    share.vision = p.vision / tp;
  } else {
    share.lm_head = p.lm_head / tp;
  }
  // The largest layer: a MoE layer holds all its (local) experts.
  double per_layer_dense = (p.attention_linear + p.dense_mlp_linear + p.attention_other) / layers;
  double per_layer_moe = 0;
  int moe_layers = 0;
  for (int64_t l = 0; l < arch.num_layers; ++l) moe_layers += arch.IsMoeLayer(l) ? 1 : 0;
  if (moe_layers > 0)
    per_layer_moe = (p.attention_linear + p.attention_other) / layers +
                    (p.expert_linear / ep + p.shared_expert_linear + p.router) / moe_layers;
  share.largest_layer = std::max(per_layer_dense, per_layer_moe) / tp;
  return share;
}

}  // namespace gpulint::est
