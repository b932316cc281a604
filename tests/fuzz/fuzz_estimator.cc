// libFuzzer target for the estimator: the bytes (through FuzzedDataProvider) pick a valid model
// architecture — every size within what lint/catalog/model_config.cpp's CheckRanges admits, kv
// heads dividing heads, experts per token at most the experts — and settings within the ranges
// of rules/settings.toml, then run est::EstimateTraining and est::EstimateServing. Property:
// every byte count of the Breakdown (each canonical term, the three peaks, the engine's request
// and every ledger term) is finite and not negative, and the serving figures that are not
// counts of bytes (KV tokens, concurrency) are finite and either -1 (not applicable) or >= 0.
// A NaN or a negative term reaches a rule's `when` as a number and decides a finding.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "estimator/breakdown.h"
#include "estimator/model_arch.h"
#include "estimator/serving.h"
#include "estimator/training.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

namespace est = gpulint::est;

constexpr int64_t kIntMax = std::numeric_limits<int32_t>::max();  // settings without a max

template <typename Enum>
Enum PickEnum(FuzzedDataProvider& in, Enum last) {
  return static_cast<Enum>(in.ConsumeIntegralInRange<int>(0, static_cast<int>(last)));
}

int64_t Size(FuzzedDataProvider& in, int64_t min, int64_t max) {
  return in.ConsumeIntegralInRange<int64_t>(min, max);
}

est::Quantization PickQuantization(FuzzedDataProvider& in) {
  est::Quantization quant;
  quant.format = PickEnum(in, est::WeightFormat::kNvfp4);
  // config.json's group_size reaches the estimator unchecked (any int, 0 = per channel).
  quant.group_size = in.ConsumeIntegral<int>();
  quant.exclusions.attention = in.ConsumeBool();
  quant.exclusions.dense_mlp = in.ConsumeBool();
  quant.exclusions.shared_experts = in.ConsumeBool();
  return quant;
}

est::ModelArch PickModel(FuzzedDataProvider& in) {
  est::ModelArch m;
  static const char* kDtypes[] = {"bfloat16", "float16", "float32", "fp8", ""};
  m.dtype = kDtypes[in.ConsumeIntegralInRange<int>(0, 4)];
  m.hidden_size = Size(in, 1, 1 << 20);
  m.num_layers = Size(in, 1, 4096);
  m.num_kv_heads = Size(in, 1, 1 << 16);
  m.num_attention_heads = m.num_kv_heads * Size(in, 1, (1 << 16) / m.num_kv_heads);
  m.head_dim = Size(in, 1, 1 << 16);
  m.intermediate_size = Size(in, 1, 1 << 24);
  m.vocab_size = Size(in, 1, 1 << 24);
  m.max_position_embeddings = Size(in, 0, int64_t{1} << 31);
  m.tied_embeddings = in.ConsumeBool();
  m.gated_mlp = in.ConsumeBool();
  m.layer_norm_bias = in.ConsumeBool();
  m.norms_per_layer = in.ConsumeIntegralInRange<int>(0, 4);  // catalog/architectures.toml
  m.qkv_bias = in.ConsumeBool();
  m.o_bias = in.ConsumeBool();
  m.mlp_bias = in.ConsumeBool();
  m.lm_head_bias = in.ConsumeBool();
  m.qk_norm = PickEnum(in, est::ModelArch::QkNorm::kFullWidth);
  m.attention_sinks = in.ConsumeBool();
  if (in.ConsumeBool()) {
    m.num_experts = Size(in, 1, 1 << 16);
    m.experts_per_token = Size(in, 1, m.num_experts);
    m.expert_intermediate_size = Size(in, 0, 1 << 24);
    // n_shared_experts (up to 1024) x the expert width, or written directly.
    m.shared_expert_intermediate_size = Size(in, 0, int64_t{1} << 34);
    m.shared_expert_gate = in.ConsumeBool();
    m.expert_bias = in.ConsumeBool();
    m.router_bias = in.ConsumeBool();
    m.dense_intermediate_size = in.ConsumeBool() ? m.intermediate_size : Size(in, 0, 1 << 24);
    m.moe_layer.resize(static_cast<size_t>(m.num_layers));
    const int pattern = in.ConsumeIntegralInRange<int>(0, 2);
    for (size_t layer = 0; layer < m.moe_layer.size(); ++layer)
      m.moe_layer[layer] = pattern == 0 ? true : pattern == 1 ? layer % 2 == 1 : in.ConsumeBool();
  }
  if (in.ConsumeBool()) {  // multi-head latent attention
    m.kv_lora_rank = Size(in, 1, 1 << 20);
    m.q_lora_rank = Size(in, 0, 1 << 20);
    m.qk_nope_head_dim = Size(in, 0, 1 << 16);
    m.qk_rope_head_dim = Size(in, 0, 1 << 16);
    m.v_head_dim = Size(in, 0, 1 << 16);
  }
  if (in.ConsumeBool()) {
    const int64_t window = Size(in, 1, int64_t{1} << 31);
    const int pattern = in.ConsumeIntegralInRange<int>(0, 2);
    m.attention_window.assign(static_cast<size_t>(m.num_layers), 0);
    for (size_t layer = 0; layer < m.attention_window.size(); ++layer)
      if (pattern == 0 || (pattern == 1 && layer % 2 == 0) || (pattern == 2 && in.ConsumeBool()))
        m.attention_window[layer] = window;
  }
  if (in.ConsumeBool()) {
    est::VisionTower& v = m.vision;
    v.depth = Size(in, 0, 4096);
    v.hidden_size = Size(in, 0, 1 << 20);
    v.intermediate_size = Size(in, 0, 1 << 24);
    v.num_heads = Size(in, 0, 1 << 16);
    v.patch_size = Size(in, 0, 4096);
    v.temporal_patch_size = Size(in, 0, 64);
    v.spatial_merge_size = Size(in, 0, 64);
    v.out_hidden_size = Size(in, 0, 1 << 20);
    v.deepstack_mergers = Size(in, 0, 64);
    v.gated_mlp = in.ConsumeBool();
  }
  if (in.ConsumeBool()) m.checkpoint_quant = PickQuantization(in);
  return m;
}

double Gpu(FuzzedDataProvider& in) {
  // From a 4 GiB card to a few hundred GiB, or any positive size a gpulint.toml declares.
  return in.ConsumeBool() ? in.ConsumeFloatingPointInRange<double>(1, 1e13)
                          : static_cast<double>(Size(in, 4, 288)) * (1 << 30);
}

est::TrainingInput PickTraining(FuzzedDataProvider& in, const est::ModelArch* arch) {
  est::TrainingInput t;
  t.arch = arch;
  t.explain = in.ConsumeBool();
  t.gpu_total_bytes = Gpu(in);
  t.gpus = static_cast<int>(Size(in, 1, kIntMax));
  t.tp = static_cast<int>(Size(in, 1, 1024));
  t.pp = static_cast<int>(Size(in, 1, 1024));
  t.cp = static_cast<int>(Size(in, 1, 1024));
  t.ep = static_cast<int>(Size(in, 1, 1024));
  t.micro_batch = static_cast<int>(Size(in, 1, 16777216));
  t.seq_len = static_cast<double>(Size(in, 1, kIntMax));
  t.tokens_per_micro_batch = in.ConsumeBool() ? 0 : static_cast<double>(Size(in, 1, kIntMax));
  t.grad_accum = static_cast<int>(Size(in, 1, kIntMax));
  t.precision = PickEnum(in, est::Precision::kFp32);
  static const char* const kOptimizers[] = {"adamw", "adamw_8bit", "paged_adamw_8bit",
                                            "adamw_torch_4bit", "lion", "ademamix", "adafactor",
                                            "sgd"};
  est::ParseOptimizer(kOptimizers[in.ConsumeIntegralInRange<size_t>(0, 7)], &t.optimizer);
  t.optimizer_in_backward = in.ConsumeBool();
  t.style = PickEnum(in, est::TrainerStyle::kMegatron);
  t.sharding = PickEnum(in, est::Sharding::kParameters);
  t.shard_group = static_cast<int>(Size(in, 1, 65536));
  t.offload_optimizer = in.ConsumeBool();
  t.offload_params = in.ConsumeBool();
  t.unsharded_accumulation = in.ConsumeBool();
  t.frozen_weights_get_grads = in.ConsumeBool();
  t.recompute = PickEnum(in, est::Recompute::kFull);
  t.sequence_parallel = in.ConsumeBool();
  t.attention = PickEnum(in, est::AttentionKind::kEager);
  t.loss_path = PickEnum(in, est::LossPath::kFused);
  t.loss_entropy = in.ConsumeBool();
  t.loss_chunks = static_cast<int>(Size(in, 1, 4096));
  t.lora_rank = in.ConsumeBool() ? 0 : static_cast<int>(Size(in, 1, 65536));
  t.lora_all_linear = in.ConsumeBool();
  t.lora_lm_head = in.ConsumeBool();
  t.lora_dropout = in.ConsumeBool();
  if (in.ConsumeBool()) t.base_quant = PickQuantization(in);
  t.quantized_base_keeps_inputs = in.ConsumeBool();
  t.forward_only = in.ConsumeBool();
  return t;
}

est::ServingInput PickServing(FuzzedDataProvider& in, const est::ModelArch* arch) {
  est::ServingInput s;
  s.arch = arch;
  s.gpu_total_bytes = Gpu(in);
  s.engine = PickEnum(in, est::Engine::kHf);
  s.tp = static_cast<int>(Size(in, 1, 1024));
  s.pp = static_cast<int>(Size(in, 1, 1024));
  s.dp = static_cast<int>(Size(in, 1, 1024));
  s.expert_parallel = in.ConsumeBool();
  s.quant = in.ConsumeBool() ? arch->checkpoint_quant : PickQuantization(in);
  s.memory_fraction = in.ConsumeFloatingPointInRange<double>(0, 1);
  s.max_model_len = in.ConsumeBool() ? 0 : static_cast<double>(Size(in, 1, kIntMax));
  s.max_num_seqs = static_cast<double>(Size(in, 1, kIntMax));
  s.max_num_batched_tokens = static_cast<double>(Size(in, 1, kIntMax));
  static const char* kKvDtypes[] = {"auto",  "fp8",     "fp8_e5m2", "int8", "fp4",
                                    "nvfp4", "float32", "bfloat16", ""};
  s.kv_cache_dtype = kKvDtypes[in.ConsumeIntegralInRange<int>(0, 8)];
  s.enforce_eager = in.ConsumeBool();
  s.cpu_offload_bytes = in.ConsumeBool() ? 0 : in.ConsumeFloatingPointInRange<double>(0, 1e15);
  // Any range of releases, open ends included: the estimate spans the eras it touches.
  est::EngineVersion a{in.ConsumeIntegralInRange<int>(0, 2), in.ConsumeIntegralInRange<int>(0, 30),
                       in.ConsumeIntegralInRange<int>(0, 9999)};
  est::EngineVersion b = in.ConsumeBool() ? est::kNewestVersion : a;
  if (b < a) std::swap(a, b);
  s.versions = {a, b};
  s.max_num_batched_tokens_default = in.ConsumeBool();
  s.max_num_seqs_default = in.ConsumeBool();
  s.cuda_graph_max_bs = static_cast<double>(Size(in, 0, kIntMax));
  s.chunked_prefill = static_cast<double>(in.ConsumeIntegral<int32_t>());  // no min: -1 = off
  s.max_total_tokens = in.ConsumeBool() ? 0 : static_cast<double>(Size(in, 1, kIntMax));
  s.batch = static_cast<int>(Size(in, 1, 16777216));
  s.sequence_tokens = static_cast<double>(Size(in, 0, kIntMax));
  s.device_count = static_cast<int>(Size(in, 1, 1024));
  if (in.ConsumeBool())
    s.max_memory_bytes.push_back(in.ConsumeFloatingPointInRange<double>(0, 1e13));
  return s;
}

void CheckBreakdown(const est::Breakdown& b, const char* what) {
  const struct {
    const char* name;
    double bytes;
  } terms[] = {{"weights", b.weights},
               {"gradients", b.gradients},
               {"optimizer", b.optimizer},
               {"activations", b.activations},
               {"logits", b.logits},
               {"kv_cache", b.kv_cache},
               {"overhead", b.overhead},
               {"torch_allocated", b.torch_allocated},
               {"torch_reserved", b.torch_reserved},
               {"total", b.total},
               {"requested", b.requested},
               {"engine_floor", b.engine_floor}};
  for (const auto& term : terms)
    FUZZ_CHECK(gpulint::fuzz::Sane(term.bytes), "%s: %s is %g bytes", what, term.name, term.bytes);
  for (const est::Term& term : b.terms)
    FUZZ_CHECK(gpulint::fuzz::Sane(term.bytes), "%s: term '%s' is %g bytes", what,
               term.name.c_str(), term.bytes);
  for (double figure : {b.kv_cache_tokens, b.kv_cache_tokens_high, b.max_concurrency})
    FUZZ_CHECK(std::isfinite(figure) && (figure == -1 || figure >= 0),
               "%s: kv_cache_tokens %g (high %g), max_concurrency %g", what, b.kv_cache_tokens,
               b.kv_cache_tokens_high, b.max_concurrency);
  // The most any admitted release holds is at least the newest release's pool.
  FUZZ_CHECK(b.kv_cache_tokens_high >= b.kv_cache_tokens, "%s: kv_cache_tokens_high %g < %g",
             what, b.kv_cache_tokens_high, b.kv_cache_tokens);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  const est::ModelArch arch = PickModel(in);
  const est::TrainingInput training = PickTraining(in, &arch);
  const est::ServingInput serving = PickServing(in, &arch);
  CheckBreakdown(est::EstimateTraining(training), "training");
  CheckBreakdown(est::EstimateServing(serving), "serving");
  return 0;
}
