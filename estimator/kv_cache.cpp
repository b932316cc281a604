#include "estimator/kv_cache.h"

#include <algorithm>
#include <cmath>

namespace gpulint::est {

double KvElementBytes(const std::string& kv_cache_dtype, const std::string& model_dtype) {
  if (kv_cache_dtype.rfind("fp8", 0) == 0 || kv_cache_dtype == "int8") return 1;
  if (kv_cache_dtype == "fp4" || kv_cache_dtype == "nvfp4") return 0.5625;
  if (kv_cache_dtype == "float32" || kv_cache_dtype == "fp32") return 4;
  if (kv_cache_dtype.empty() || kv_cache_dtype == "auto")
    return model_dtype == "float32" ? 4 : 2;
  return 2;
}

double KvBytesPerToken(const ModelArch& m, int tp, int pp, double element_bytes,
                       bool sliding_layers_count) {
  tp = std::max(tp, 1);
  pp = std::max(pp, 1);
  double per_token = 0;
  for (int64_t layer = 0; layer < m.num_layers; ++layer) {
    if (!sliding_layers_count && m.WindowOfLayer(layer) > 0) continue;
    if (!m.HasAttention(layer)) continue;  // a fixed state per sequence, not per token
    if (m.is_mla()) {
      per_token += (m.kv_lora_rank + m.qk_rope_head_dim) * element_bytes;
      continue;
    }
    // A layer that reads another layer's K/V keeps none; values that are the keys' projection
    // are still cached apart (normed differently, modeling_gemma4.py 1247-1257).
    const ModelArch::AttentionShape shape = m.AttentionOf(layer);
    if (!shape.caches_kv) continue;
    double heads = std::max<double>(1, std::floor(shape.kv_heads / tp));
    per_token += 2 * heads * shape.head_dim * element_bytes;
  }
  return per_token / pp;
}

double LinearStateBytesPerSequence(const ModelArch& m, int tp, int pp, double conv_element_bytes,
                                   double state_element_bytes) {
  const ModelArch::LinearAttention& l = m.linear;
  double per_layer = l.ConvWidth() * std::max<int64_t>(l.conv_kernel - 1, 0) * conv_element_bytes +
                     static_cast<double>(l.value_heads) * l.key_head_dim * l.value_head_dim *
                         state_element_bytes;
  double layers = 0;
  for (int64_t layer = 0; layer < m.num_layers; ++layer)
    if (m.IsLinearAttentionLayer(layer)) layers += 1;
  return layers * per_layer / std::max(tp, 1) / std::max(pp, 1);
}

}  // namespace gpulint::est
