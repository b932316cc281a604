#include "estimator/serving.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "estimator/kv_cache.h"
#include "estimator/overhead.h"
#include "estimator/param_count.h"
#include "estimator/param_share.h"
#include "estimator/units.h"
#include "estimator/vllm_eras.h"
#include "estimator/weight_format.h"

namespace gpulint::est {

bool ParseEngine(const std::string& text, Engine* engine) {
  if (text == "vllm") {
    *engine = Engine::kVllm;
  } else if (text == "sglang") {
    *engine = Engine::kSglang;
  } else if (text == "hf") {
    *engine = Engine::kHf;
  } else {
    return false;
  }
  return true;
}

namespace {

// vLLM's non-torch memory measured after its baseline (llm-d capacity planner, vLLM 0.11 on H100:
// 0.13 GiB at TP=1, 0.54 GiB at TP=2 with NCCL).
constexpr double kVllmNonTorchGib = 0.13;
constexpr double kVllmNcclGib = 0.41;
// CUDA graphs of the decode batch sizes, captured after the KV pool outside the budget: vLLM
// logs 0.1-1.1 GiB ("Graph capturing finished ... took X GiB").
constexpr double kVllmCudaGraphGib = 0.5;
constexpr double kBlockSize = 16;  // vLLM's default KV block on CUDA

double MlpWidthPerToken(const ModelArch& m) {
  // Tokens pass through a dense MLP, or top-k experts of expert width.
  if (m.is_moe())
    return static_cast<double>(m.experts_per_token) * m.expert_intermediate_size +
           m.shared_expert_intermediate_size;
  return m.WidestMlpWidth();  // Gemma 4's doubled kv-shared layers
}

// The forward pass over `tokens` tokens keeps, at its widest point (the MLP), the hidden input,
// the residual and the MLP's intermediate tensors of one layer: c x (2h + 3I) per token for a
// gated MLP (gate and up outputs, then the activation's output), c x (2h + 2I) otherwise.
double ForwardPeakBytes(const ModelArch& m, double tokens, int tp) {
  const double c = 2;
  double mlp = (m.gated_mlp ? 3 : 2) * MlpWidthPerToken(m) / std::max(tp, 1);
  const ModelArch::AttentionShape widest = m.WidestAttention();
  double attention = (widest.QueryWidth(m.num_attention_heads) + 2.0 * widest.KvWidth()) /
                     std::max(tp, 1);
  // A Gated DeltaNet layer holds its projected q, k, v (before and after the convolution), the
  // output gate and the output at once; a parallel hybrid block (Falcon-H1) keeps the mixer's
  // output while its attention runs.
  if (m.has_linear_attention()) {
    const double mixer = (2 * m.linear.ConvWidth() + 2 * m.linear.ValueWidth()) / std::max(tp, 1);
    const double waiting = m.attention_beside_linear ? m.hidden_size : 0;
    attention = std::max(attention + waiting, mixer);
  }
  return c * tokens * (2.0 * m.hidden_size + std::max(mlp, attention));
}

// What one running sequence holds in the linear-attention layers on one rank, whatever its length
// (0 without them): the convolution's inputs in the model's dtype, the recurrent state in fp32.
double StateBytesPerSequence(const ServingInput& in, int tp, int pp) {
  return LinearStateBytesPerSequence(*in.arch, tp, pp, DtypeBytes(in.arch->dtype));
}

// Sequences of `max_len` tokens a pool of `pool_bytes` holds, each with its linear-attention state.
double Concurrency(double pool_bytes, double max_len, double kv_per_token, double state) {
  const double per_sequence = max_len * kv_per_token + state;
  return per_sequence > 0 ? std::max(0.0, pool_bytes) / per_sequence : 0;
}

void NoteLinearState(Breakdown& b, double state) {
  if (state <= 0) return;
  b.terms.push_back({"linear-attention state per sequence per rank", state,
                     "conv inputs + fp32 recurrent state, whatever the length"});
  b.assumptions.push_back(fmt::format(
      "linear-attention layers hold {:.1f} MiB per running sequence; counted per sequence of "
      "max_model_len, not as an up-front reserve for max_num_seqs",
      state / kMiB));
}

// One era's vLLM start-up: requested = util x total; the KV pool is what the profile run
// leaves of it.
Breakdown VllmAt(const ServingInput& in, const VllmEra& era, double sampler_bytes,
                 double weights, double kv_per_token, double max_len, bool nccl) {
  const ModelArch& m = *in.arch;
  Breakdown b;
  b.weights = weights;
  double tokens = std::max(in.max_num_batched_tokens, 1.0);
  double seqs = std::max(in.max_num_seqs, 1.0);
  if (era.v0_chunked_prefill_tokens > 0) {
    // The V0 engine batched a whole max-length prompt unless chunked prefill was on, which it
    // turned on by itself past 32768 tokens; 256 sequences (vllm/engine/arg_utils.py).
    if (in.max_num_batched_tokens_default)
      tokens = max_len > 32768 ? era.v0_chunked_prefill_tokens : std::max(max_len, 2048.0);
    if (in.max_num_seqs_default) seqs = 256;
  } else {
    // V1's dummy sampler run takes min(max_num_seqs, max_num_batched_tokens) rows.
    seqs = std::min(seqs, tokens);
  }
  const double requested = std::ceil(in.memory_fraction * in.gpu_total_bytes);
  b.activations = ForwardPeakBytes(m, tokens, in.tp);
  b.logits = seqs * static_cast<double>(m.vocab_size) * sampler_bytes;
  const double non_torch = GibToBytes(kVllmNonTorchGib + (nccl ? kVllmNcclGib : 0));
  const double graphs = in.enforce_eager ? 0 : GibToBytes(kVllmCudaGraphGib);
  double available = requested - b.weights - b.activations - b.logits - non_torch;
  double page = kBlockSize * kv_per_token;
  double blocks = available > 0 ? std::floor(available / page) : 0;
  b.kv_cache = std::max(0.0, available);
  // "GPU KV cache size": tokens of the whole engine (every TP rank holds its heads of them).
  b.kv_cache_tokens = blocks * kBlockSize;
  const double state = StateBytesPerSequence(in, in.tp, in.pp);
  if (max_len > 0)
    b.max_concurrency = state > 0 ? Concurrency(available, max_len, kv_per_token, state)
                                  : b.kv_cache_tokens / max_len;
  b.requested = requested;
  // The engine holds its whole budget from start-up on, and graphs captured after it on top.
  b.torch_allocated = b.weights + b.kv_cache + b.activations + b.logits;
  b.torch_reserved = std::max(b.torch_allocated, requested - non_torch) + graphs;
  const double floor_without_pool = b.weights + b.activations + b.logits + non_torch;
  b.total = std::max(requested, floor_without_pool) + graphs;
  b.total_low = b.total_high = b.total;  // the pool is sized to fill the budget
  // The least the engine can start with: a pool of one max-length sequence.
  b.engine_floor =
      floor_without_pool + std::ceil(std::max(max_len, 1.0) / kBlockSize) * page + state + graphs;
  b.overhead = b.total - b.torch_allocated;
  b.peak_phase = "start-up profile, then a fixed KV pool";
  b.terms.push_back({"non-torch (context, NCCL)", non_torch, ""});
  if (graphs > 0) b.terms.push_back({"CUDA graphs", graphs, "captured outside the budget"});
  b.terms.push_back({"KV bytes per token per rank", kv_per_token, ""});
  NoteLinearState(b, state);
  if (available < 0)
    b.assumptions.push_back(fmt::format(
        "the budget ({:.2f} GiB) is smaller than weights + activation peak + non-torch memory",
        BytesToGib(requested)));
  return b;
}

}  // namespace

double ServingWeightBytes(const ModelArch& m, const Quantization& quant, int tp, int pp, int ep) {
  ParamBreakdown params = CountParams(m);
  ParamShare share = ShareOfGpu(m, params, tp, pp, ep);
  double base = DtypeBytes(m.dtype);
  if (quant.format == WeightFormat::kDefault) return share.Total() * base;
  double linear = share.Quantizable(quant.exclusions);
  return linear * QuantizedBytesPerWeight(quant) + (share.Total() - linear) * base;
}

double SglangDefaultMemoryFraction(double total_bytes, int tp, int pp, double chunked_prefill,
                                   double cuda_graph_max_bs) {
  // sgl-project/sglang server_args.py: reserve room for activations and CUDA graphs, sized by
  // the chunked prefill and the largest graph batch, and a little per TP x PP rank.
  double total_gb = total_bytes / 1e9;
  if (chunked_prefill <= 0) chunked_prefill = total_gb < 35 ? 2048 : total_gb < 60 ? 4096
                                              : total_gb < 160 ? 8192 : 16384;
  if (cuda_graph_max_bs <= 0)
    cuda_graph_max_bs = total_gb < 35 ? (tp < 4 ? 24 : 80) : total_gb < 60 ? (tp < 4 ? 32 : 160)
                        : total_gb < 160 ? (tp < 4 ? 256 : 512) : 512;
  double reserved_mb = 512 + 1.5 * std::max(chunked_prefill, 2048.0) + 2 * cuda_graph_max_bs +
                       1024.0 * tp * pp / 8;
  double total_mb = total_bytes / kMiB;
  if (total_mb > 60 * 1024) reserved_mb = std::max(reserved_mb, 10.0 * 1024);
  return std::clamp((total_mb - reserved_mb) / total_mb, 0.3, 0.95);
}

Breakdown EstimateServing(const ServingInput& in) {
  const ModelArch& m = *in.arch;
  Breakdown b;
  const int ep = in.expert_parallel ? std::max(in.dp, 1) : 1;
  b.weights = ServingWeightBytes(m, in.quant, in.tp, in.pp, ep);
  if (in.cpu_offload_bytes > 0) b.weights = std::max(0.0, b.weights - in.cpu_offload_bytes);
  const double max_len = in.max_model_len > 0 ? in.max_model_len
                                              : static_cast<double>(m.max_position_embeddings);
  const double kv_element = KvElementBytes(in.kv_cache_dtype, m.dtype);
  const double kv_per_token = KvBytesPerToken(m, in.tp, in.pp, kv_element);
  const bool nccl = in.tp * in.pp > 1;

  if (in.engine == Engine::kHf) {
    // device_map="auto" balances layers over the GPUs; max_memory caps each GPU and the rest
    // goes to the CPU (or disk). The most loaded GPU holds its share plus that share of the
    // cache and one layer's activations.
    const int devices = std::max(in.device_count, 1);
    double all_weights = ServingWeightBytes(m, in.quant, 1, 1, 1);
    double share = all_weights / devices;
    double cap = in.max_memory_bytes.empty() ? 0 : in.max_memory_bytes[0];
    double placed = cap > 0 ? std::min(share, cap) : share;
    if (placed < share)
      b.terms.push_back({"offloaded to CPU/disk", (share - placed) * devices,
                         "weights past max_memory per GPU"});
    b.weights = placed;
    double tokens = std::max(in.sequence_tokens, 1.0);
    b.kv_cache = in.batch *
                 (tokens * KvBytesPerToken(m, 1, 1, kv_element) + StateBytesPerSequence(in, 1, 1)) /
                 devices;
    b.activations = ForwardPeakBytes(m, in.batch * tokens, 1);
    b.logits = in.batch * static_cast<double>(m.vocab_size) * 4;  // last position, fp32
    b.torch_allocated = b.weights + b.kv_cache + b.activations + b.logits;
    b.torch_reserved = TypicalReserved(b.torch_allocated, b.weights);
    b.total = DeviceTotal(b.torch_reserved, false);
    b.total_low = DeviceTotal(b.torch_allocated, false);
    b.total_high = DeviceTotal(HighReserved(b.torch_allocated, b.weights), false);
    // Generation grows the cache token by token: shapes vary every step. The fraction is the
    // one measured on training steps of varying length without recompute; no generation run of
    // bench/gpu measured its own.
    b.total_cached = CachedTotal(
        DeviceTotal(WithSlack(b.torch_allocated, b.weights,
                              CachedSlackFraction({/*varying_shapes=*/true, /*recompute=*/false,
                                                   /*expandable_segments=*/false})),
                    false),
        b.total_high, in.gpu_total_bytes);
    b.overhead = b.total - b.torch_allocated;
    b.peak_phase = "prefill";
    return b;
  }

  if (in.engine == Engine::kSglang) {
    // mem_fraction_static x total holds the weights and the KV pool; what is left holds the
    // activations, CUDA graphs and the context.
    double claimed = in.memory_fraction * in.gpu_total_bytes;
    double context = GibToBytes(kCudaContextGib) + (nccl ? GibToBytes(kNcclGib) : 0);
    double pool = claimed - b.weights - context;
    if (in.max_total_tokens > 0) pool = std::min(pool, in.max_total_tokens * kv_per_token);
    b.kv_cache = std::max(0.0, pool);
    b.kv_cache_tokens = pool > 0 ? std::floor(pool / kv_per_token) : 0;
    b.kv_cache_tokens_high = b.kv_cache_tokens;
    double chunk = in.chunked_prefill > 0 ? in.chunked_prefill : 8192;
    b.activations = ForwardPeakBytes(m, chunk, in.tp);
    b.logits = std::max(in.max_num_seqs, 1.0) * static_cast<double>(m.vocab_size) * 4;
    double graphs = in.cuda_graph_max_bs > 0 ? in.cuda_graph_max_bs * 2 * kMiB : GibToBytes(0.5);
    b.requested = claimed;
    b.torch_allocated = b.weights + b.kv_cache + b.activations + b.logits;
    b.torch_reserved = b.torch_allocated + graphs;
    b.total = b.total_low = b.total_high = b.torch_reserved + context;
    b.overhead = b.total - b.torch_allocated;
    b.peak_phase = "serving (static pool + activations)";
    const double state = StateBytesPerSequence(in, in.tp, in.pp);
    if (max_len > 0)
      b.max_concurrency = state > 0 ? Concurrency(pool, max_len, kv_per_token, state)
                                    : b.kv_cache_tokens / max_len;
    NoteLinearState(b, state);
    return b;
  }

  // vLLM: the estimate of each era the version range touches, at each end of its sampler's
  // footprint; the report is the newest era's at the larger footprint, the range spans them all.
  Breakdown typical;
  bool first = true;
  double low = 0, high = 0, kv_tokens_high = -1;
  bool fits_device_any = false, fits_device_all = true;
  for (const VllmEra* era : VllmErasIn(in.versions, in.vllm_engine)) {
    for (double sampler_bytes : {era->sampler_bytes_low, era->sampler_bytes_high}) {
      Breakdown e = VllmAt(in, *era, sampler_bytes, b.weights, kv_per_token, max_len, nccl);
      low = first ? e.total_low : std::min(low, e.total_low);
      high = first ? e.total_high : std::max(high, e.total_high);
      kv_tokens_high = std::max(kv_tokens_high, e.kv_cache_tokens);
      first = false;
      typical = std::move(e);
      if (era->sampler_bytes_low == era->sampler_bytes_high) break;
    }
    fits_device_any = fits_device_any || era->pool_fits_device;
    fits_device_all = fits_device_all && era->pool_fits_device;
  }
  typical.total_low = low;
  typical.total_high = high;
  typical.kv_cache_tokens_high = kv_tokens_high;
  typical.pool_fits_device_low = fits_device_any;
  typical.pool_fits_device_high = fits_device_all;
  return typical;
}

}  // namespace gpulint::est
