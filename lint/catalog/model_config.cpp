#include "lint/catalog/model_config.h"

#include <fmt/format.h>

#include <toml++/toml.h>
#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <sstream>
#include <string_view>
#include <nlohmann/json.hpp>

#include "estimator/param_count.h"
#include "lint/catalog/toml_json.h"
#include "lint/util/toml_parse.h"
#include "lint/util/strings.h"
#include "lint/data/embedded_data.h"
#include "lint/util/nesting_depth.h"

namespace gpulint {
namespace {

using nlohmann::json;

// Traits per model_type from catalog/architectures.toml, parsed once.
const json& ArchitectureTraits() {
  static const json traits = [] {
    for (const EmbeddedFile& file : EmbeddedFiles())
      if (file.path == "catalog/architectures.toml") return TomlTextToJson(file.content);
    return json::object();
  }();
  return traits;
}

// Merges VLM sub-configs (text, vision, audio) into one flat object with the catalog's key names.
json Flatten(const json& config) {
  json flat = json::object();
  for (const auto& [key, value] : config.items())
    if (key != "text_config" && key != "vision_config" && key != "audio_config") flat[key] = value;
  if (auto text = config.find("text_config"); text != config.end() && text->is_object()) {
    for (const auto& [key, value] : text->items()) {
      if (key == "model_type") {
        flat["text_model_type"] = value;
      } else {
        flat[key] = value;
      }
    }
  }
  // A tower's sub-config, under the catalog's prefixed names (the first spelling found wins).
  auto copy_tower = [&](const char* name, const std::map<std::string, std::string>& keys) {
    auto tower = config.find(name);
    if (tower == config.end() || !tower->is_object()) return;
    for (const auto& [key, value] : tower->items())
      if (auto it = keys.find(key); it != keys.end() && !flat.contains(it->second))
        flat[it->second] = value;
  };
  static const std::map<std::string, std::string> kVisionKeys = {
      {"depth", "vision_depth"},
      {"num_hidden_layers", "vision_depth"},
      {"num_heads", "vision_num_heads"},
      {"num_attention_heads", "vision_num_heads"},
      {"hidden_size", "vision_hidden_size"},
      {"embed_dim", "vision_hidden_size"},
      {"intermediate_size", "vision_intermediate_size"},
      {"patch_size", "vision_patch_size"},
      {"temporal_patch_size", "vision_temporal_patch_size"},
      {"spatial_merge_size", "vision_spatial_merge_size"},
      {"out_hidden_size", "vision_out_hidden_size"},
      {"deepstack_visual_indexes", "vision_deepstack_visual_indexes"},
      {"image_size", "vision_image_size"},
      {"model_type", "vision_model_type"},
      {"position_embedding_size", "vision_position_embedding_size"},
      {"num_patches", "vision_num_patches"},
  };
  static const std::map<std::string, std::string> kAudioKeys = {
      {"num_hidden_layers", "audio_depth"},
      {"encoder_layers", "audio_depth"},  // Whisper's spellings (Qwen2-Audio)
      {"hidden_size", "audio_hidden_size"},
      {"d_model", "audio_hidden_size"},
      {"num_attention_heads", "audio_num_heads"},
      {"encoder_attention_heads", "audio_num_heads"},
      {"intermediate_size", "audio_intermediate_size"},
      {"encoder_ffn_dim", "audio_intermediate_size"},
      {"num_mel_bins", "audio_num_mel_bins"},
      {"max_source_positions", "audio_max_source_positions"},
      {"conv_kernel_size", "audio_conv_kernel"},
      {"subsampling_conv_channels", "audio_subsampling_conv_channels"},
      {"output_proj_dims", "audio_output_size"},
      {"model_type", "audio_model_type"},
  };
  copy_tower("vision_config", kVisionKeys);
  copy_tower("audio_config", kAudioKeys);
  // Older key spellings (GPT-2 style, Falcon, Qwen 1) onto the modern names.
  static const std::pair<const char*, const char*> kAliases[] = {
      {"n_embd", "hidden_size"},
      {"n_layer", "num_hidden_layers"},
      {"n_head", "num_attention_heads"},
      {"n_inner", "intermediate_size"},
      {"n_positions", "max_position_embeddings"},
      {"num_kv_heads", "num_key_value_heads"},
      {"dtype", "torch_dtype"},
      {"num_local_experts", "num_experts"},
      {"n_routed_experts", "num_experts"},
      {"kv_channels", "head_dim"},
      {"seq_length", "max_position_embeddings"},
      {"use_bias", "bias"},                           // ERNIE 4.5
      {"moe_num_experts", "num_experts"},             // ERNIE 4.5 MoE
      {"moe_k", "num_experts_per_tok"},
      {"moe_num_shared_experts", "n_shared_experts"},
      {"num_shared_experts", "n_shared_experts"},     // Kimi Linear
      {"shared_intermediate_size", "shared_expert_intermediate_size"},  // Granite MoE
  };
  for (const auto& [old_key, new_key] : kAliases)
    if (flat.contains(old_key) && !flat.contains(new_key) && !flat[old_key].is_null())
      flat[new_key] = flat[old_key];
  // A model type's own spellings (catalog/architectures.toml `key_aliases`): Nemotron-H's
  // ssm_state_size is Granite's mamba_d_state. The text model's type and, for a VLM, the
  // top-level type (SmolVLM's scale_factor) each bring theirs.
  const json& traits = ArchitectureTraits();
  for (const char* type_key : {"text_model_type", "model_type"}) {
    auto type = flat.find(type_key);
    if (type == flat.end() || !type->is_string() || !traits.contains(type->get<std::string>()))
      continue;
    const json& table = traits[type->get<std::string>()];
    if (auto aliases = table.find("key_aliases"); aliases != table.end() && aliases->is_object())
      for (const auto& [old_key, new_key] : aliases->items())
        if (new_key.is_string() && flat.contains(old_key) &&
            !flat.contains(new_key.get<std::string>()) && !flat[old_key].is_null())
          flat[new_key.get<std::string>()] = flat[old_key];
    // The configuration class's defaults for keys a config leaves out (Jamba's layer periods).
    if (auto defaults = table.find("key_defaults"); defaults != table.end() && defaults->is_object())
      for (const auto& [key, value] : defaults->items())
        if (!flat.contains(key) || flat[key].is_null()) flat[key] = value;
  }
  return flat;
}

// A whole number of a config; anything else (text, 1.5, 1e300, NaN) is the fallback: a float
// outside int64's range does not convert (undefined behaviour), and the range checks of
// CheckRanges refuse the description before an absurd value reaches the estimator.
int64_t Int(const json& j, const char* key, int64_t fallback = 0) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return fallback;
  if (it->is_number_integer()) return it->get<int64_t>();
  double value = it->get<double>();
  if (!(value >= -9e18 && value <= 9e18) ||
      value != static_cast<double>(static_cast<int64_t>(value)))
    return fallback;
  return static_cast<int64_t>(value);
}

// Limits no real model comes near (the largest public models have ~100-200 layers, hidden
// sizes of ~20k, vocabularies of ~260k), so that a description with 2,000,000,000 layers is
// refused before gpulint allocates per-layer tables or multiplies it into bytes.
struct FieldRange {
  const char* key;
  int64_t min, max;
};
constexpr FieldRange kFieldRanges[] = {
    {"hidden_size", 1, 1 << 20},
    {"num_hidden_layers", 1, 4096},
    {"num_attention_heads", 1, 1 << 16},
    {"num_key_value_heads", 0, 1 << 16},
    {"head_dim", 1, 1 << 16},
    {"intermediate_size", 0, 1 << 24},
    {"vocab_size", 1, 1 << 24},
    {"max_position_embeddings", 1, int64_t{1} << 31},
    {"num_experts", 0, 1 << 16},
    {"num_experts_per_tok", 0, 1 << 16},
    {"moe_intermediate_size", 0, 1 << 24},
    {"shared_expert_intermediate_size", 0, 1 << 24},
    {"n_shared_experts", 0, 1 << 10},
    {"q_lora_rank", 0, 1 << 20},
    {"kv_lora_rank", 0, 1 << 20},
    {"qk_nope_head_dim", 0, 1 << 16},
    {"qk_rope_head_dim", 0, 1 << 16},
    {"v_head_dim", 0, 1 << 16},
    {"sliding_window", 0, int64_t{1} << 31},
    {"vision_depth", 0, 4096},
    {"vision_hidden_size", 0, 1 << 20},
    {"vision_intermediate_size", 0, 1 << 24},
    {"vision_num_heads", 0, 1 << 16},
    {"vision_patch_size", 0, 4096},
    {"vision_temporal_patch_size", 0, 64},
    {"vision_spatial_merge_size", 0, 64},
    {"vision_out_hidden_size", 0, 1 << 20},
    {"vision_position_embedding_size", 0, 1 << 20},
    {"vision_image_size", 0, 1 << 20},
    {"vision_num_patches", 0, 1 << 24},
    {"vision_projector_hidden_size", 0, 1 << 20},
    {"audio_depth", 0, 4096},
    {"audio_hidden_size", 0, 1 << 20},
    {"audio_num_heads", 0, 1 << 16},
    {"audio_conv_kernel", 0, 4096},
    {"audio_output_size", 0, 1 << 20},
    {"audio_intermediate_size", 0, 1 << 20},
    {"audio_num_mel_bins", 0, 4096},
    {"audio_max_source_positions", 0, 1 << 20},
    {"global_head_dim", 0, 1 << 16},
    {"num_global_key_value_heads", 0, 1 << 16},
    {"num_kv_shared_layers", 0, 4096},
    {"hidden_size_per_layer_input", 0, 1 << 16},
    {"vocab_size_per_layer_input", 0, 1 << 24},
    {"first_k_dense_replace", 0, 4096},
    {"moe_layer_freq", 0, 4096},
    {"decoder_sparse_step", 0, 4096},
    {"interleave_moe_layer_step", 0, 4096},
    {"sliding_window_pattern", 0, 4096},
    {"linear_num_key_heads", 0, 1 << 16},
    {"linear_num_value_heads", 0, 1 << 16},
    {"linear_key_head_dim", 0, 1 << 16},
    {"linear_value_head_dim", 0, 1 << 16},
    {"linear_conv_kernel_dim", 0, 64},
    {"full_attention_interval", 0, 4096},
    {"mtp_num_hidden_layers", 0, 64},
    {"mamba_n_heads", 0, 1 << 16},
    {"mamba_n_groups", 0, 1 << 16},
    {"mamba_d_state", 0, 1 << 16},
    {"mamba_d_head", 0, 1 << 16},
    {"mamba_d_conv", 0, 64},
    {"mamba_expand", 0, 64},
    {"mamba_d_ssm", 0, 1 << 20},
    {"mamba_dt_rank", 0, 1 << 20},
    {"attn_layer_period", 1, 4096},
    {"attn_layer_offset", 0, 4095},
    {"expert_layer_period", 1, 4096},
    {"expert_layer_offset", 0, 4095},
    {"shared_intermediate_size", 0, 1 << 24},
    {"conv_L_cache", 0, 64},
    {"block_multiple_of", 0, 1 << 16},
};

bool CheckRanges(const json& flat, const std::string& where, std::string* error) {
  for (const FieldRange& range : kFieldRanges) {
    auto it = flat.find(range.key);
    if (it == flat.end() || it->is_null()) continue;
    if (!it->is_number()) {
      // Some configs write "head_dim": null or strings for fields they do not use; only
      // numbers are read, so text is refused only where a number is required.
      if (it->is_boolean() || it->is_string()) continue;
      *error = fmt::format("'{}' is not a number: {}", range.key, where);
      return false;
    }
    double value = it->get<double>();
    if (!(value >= static_cast<double>(range.min) && value <= static_cast<double>(range.max)) ||
        value != std::floor(value)) {
      *error = fmt::format("'{}' is {}, not a whole number from {} to {}: {}", range.key,
                           it->dump(), range.min, range.max, where);
      return false;
    }
  }
  return true;
}

bool Bool(const json& j, const char* key, bool fallback) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

std::string String(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Returns false for a model_type the table does not describe: its layout is then a guess.
bool ApplyTraits(const json& flat, est::ModelArch& arch, std::vector<std::string>& uncertain) {
  const json& traits = ArchitectureTraits();
  std::string type = String(flat, "text_model_type");
  if (type.empty() || !traits.contains(type)) type = String(flat, "model_type");
  if (!traits.contains(type)) {
    uncertain.push_back(fmt::format(
        "model_type '{}' is not in catalog/architectures.toml: a Llama-like layout is assumed",
        type));
    return false;
  }
  const json& t = traits[type];
  arch.gated_mlp = Bool(t, "gated_mlp", true);
  arch.layer_norm_bias = Bool(t, "layer_norm_bias", false);
  arch.norms_per_layer = static_cast<int>(Int(t, "norms_per_layer", 2));
  arch.liger_rms_norm = Bool(t, "liger_rms_norm", false);
  arch.liger_glu = Bool(t, "liger_glu", false);
  // What the config's attention_bias switches, as the type's modules read it (Llama: q/k/v and
  // o; GLM-4: q/k/v only; GLM-4.1V's text: nothing, its biases are fixed in code).
  const std::string covers =
      t.contains("attention_bias_covers") ? String(t, "attention_bias_covers") : "qkv+o";
  arch.qkv_bias = Bool(t, "qkv_bias", false) ||
                  (covers != "none" && Bool(flat, "attention_bias", false)) ||
                  Bool(flat, "use_qkv_bias", false) || Bool(flat, "bias", false);
  // Seed-OSS splits the two: attention_bias is q/k/v, attention_out_bias is o_proj.
  const char* o_bias_key = flat.contains("attention_out_bias") ? "attention_out_bias"
                                                               : "attention_bias";
  arch.o_bias = Bool(t, "o_bias", false) ||
                (covers == "qkv+o" && Bool(flat, o_bias_key, false)) || Bool(flat, "bias", false);
  arch.mlp_bias = Bool(t, "mlp_bias", false) || Bool(flat, "mlp_bias", false);
  arch.lm_head_bias = Bool(t, "lm_head_bias", false);
  std::string qk_norm = String(t, "qk_norm");
  if (qk_norm == "per-head") arch.qk_norm = est::ModelArch::QkNorm::kPerHead;
  if (qk_norm == "full-width") arch.qk_norm = est::ModelArch::QkNorm::kFullWidth;
  // Norms a config switches on (Command R+: use_qk_norm).
  if (std::string when = String(t, "qk_norm_when"); !when.empty() && !Bool(flat, when.c_str(), false))
    arch.qk_norm = est::ModelArch::QkNorm::kNone;
  arch.attention_sinks = Bool(t, "attention_sinks", false);
  arch.attention_output_gate =
      Bool(flat, "attn_output_gate", Bool(t, "attention_output_gate", false));
  arch.expert_bias = Bool(t, "expert_bias", false);
  arch.router_bias = Bool(t, "router_bias", false);
  arch.shared_expert_gate = Bool(t, "shared_expert_gate", false);
  arch.fused_experts = Bool(t, "fused_experts", false);
  arch.expert_linear_names.clear();
  if (auto names = t.find("expert_linear_names"); names != t.end() && names->is_array())
    for (const json& name : *names)
      if (name.is_string()) arch.expert_linear_names.push_back(name.get<std::string>());
  arch.router_scales = Bool(t, "router_scales", false);
  arch.moe_extra_norms = static_cast<int>(Int(t, "moe_extra_norms", 0));

  if (Bool(t, "intermediate_size_is_doubled", false)) arch.intermediate_size /= 2;
  // LFM2 sizes its MLP from the config's width: two thirds of it, times block_ffn_dim_multiplier
  // and rounded up to block_multiple_of when a multiplier is set (modeling_lfm2.py 138-146 at
  // transformers 2da00a3c; configuration_lfm2.py 75-77: 256, 1.0, on).
  if (Bool(t, "block_ff_dim_adjust", false) && Bool(flat, "block_auto_adjust_ff_dim", true)) {
    int64_t width = 2 * arch.intermediate_size / 3;
    auto multiplier = flat.find("block_ffn_dim_multiplier");
    const bool scaled = multiplier == flat.end() || multiplier->is_number();
    const double factor =
        multiplier == flat.end() || !scaled ? 1.0 : multiplier->get<double>();
    // A factor no model uses (the published ones are 1.0) would overflow the cast below.
    if (scaled && !(factor > 0 && factor <= 64)) {
      uncertain.push_back(fmt::format(
          "block_ffn_dim_multiplier {} is not a factor between 0 and 64: the MLP is taken as "
          "two thirds of intermediate_size, unscaled",
          factor));
    } else if (scaled) {
      const int64_t multiple = std::max<int64_t>(1, Int(flat, "block_multiple_of", 256));
      width = static_cast<int64_t>(factor * static_cast<double>(width));
      width = multiple * ((width + multiple - 1) / multiple);
    }
    arch.intermediate_size = width;
  }
  // A dense model whose one MLP has its own key (Granite 4.0's shared_mlp).
  if (std::string key = String(t, "dense_model_mlp_key"); !arch.is_moe() && !key.empty())
    if (int64_t width = Int(flat, key.c_str()); width > 0) arch.intermediate_size = width;
  if (arch.is_moe()) {
    if (Bool(t, "shared_expert_from_intermediate_size", false))
      arch.shared_expert_intermediate_size = arch.intermediate_size;
    std::string dense_key = String(t, "dense_intermediate_key");
    if (!dense_key.empty()) arch.dense_intermediate_size = Int(flat, dense_key.c_str());
  }
  return true;
}

// ERNIE 4.5's moe_layer_start_index / moe_layer_end_index: a number or a list (one per modality;
// the span runs from the smallest start to the largest end), -1 for the last layer.
int64_t BoundOf(const json& flat, const char* key, int64_t last_layer, bool end) {
  auto it = flat.find(key);
  if (it == flat.end()) return end ? last_layer : 0;
  std::vector<int64_t> values;
  if (it->is_array()) {
    for (const json& v : *it)
      if (v.is_number_integer()) values.push_back(v.get<int64_t>());
  } else if (it->is_number_integer()) {
    values.push_back(it->get<int64_t>());
  }
  if (values.empty()) return end ? last_layer : 0;
  int64_t bound = end ? *std::max_element(values.begin(), values.end())
                      : *std::min_element(values.begin(), values.end());
  if (bound < 0) return end ? last_layer : 0;
  return bound;
}

void ReadMoe(const json& flat, est::ModelArch& arch) {
  arch.num_experts = Int(flat, "num_experts");
  if (arch.num_experts <= 0) return;
  arch.experts_per_token = Int(flat, "num_experts_per_tok", Int(flat, "num_experts_per_token"));
  arch.expert_intermediate_size = Int(flat, "moe_intermediate_size", arch.intermediate_size);
  arch.dense_intermediate_size = arch.intermediate_size;
  if (int64_t shared = Int(flat, "n_shared_experts"); shared > 0)
    arch.shared_expert_intermediate_size = shared * arch.expert_intermediate_size;
  if (int64_t width = Int(flat, "shared_expert_intermediate_size"); width > 0)
    arch.shared_expert_intermediate_size = width;
  // Which layers route to experts, as each modeling file decides it.
  std::vector<int64_t> mlp_only;
  if (auto it = flat.find("mlp_only_layers"); it != flat.end() && it->is_array())
    for (const json& layer : *it)
      if (layer.is_number_integer()) mlp_only.push_back(layer.get<int64_t>());
  arch.moe_layer.assign(static_cast<size_t>(arch.num_layers), true);
  for (int64_t layer = 0; layer < arch.num_layers; ++layer) {
    bool moe = true;
    if (flat.contains("first_k_dense_replace")) {  // DeepSeek
      int64_t freq = std::max<int64_t>(1, Int(flat, "moe_layer_freq", 1));
      moe = layer >= Int(flat, "first_k_dense_replace") && layer % freq == 0;
    } else if (flat.contains("interleave_moe_layer_step")) {  // Llama 4
      moe = (layer + 1) % std::max<int64_t>(1, Int(flat, "interleave_moe_layer_step", 1)) == 0;
    } else if (flat.contains("moe_layer_interval")) {  // ERNIE 4.5: an interval within a span
      moe = (layer + 1) % std::max<int64_t>(1, Int(flat, "moe_layer_interval", 1)) == 0 &&
            layer >= BoundOf(flat, "moe_layer_start_index", 0, false) &&
            layer <= BoundOf(flat, "moe_layer_end_index", arch.num_layers - 1, true);
    } else if (flat.contains("expert_layer_period")) {  // Jamba
      moe = layer % std::max<int64_t>(1, Int(flat, "expert_layer_period", 1)) ==
            Int(flat, "expert_layer_offset");
    } else if (flat.contains("decoder_sparse_step")) {  // Qwen MoE
      int64_t step = std::max<int64_t>(1, Int(flat, "decoder_sparse_step", 1));
      moe = std::find(mlp_only.begin(), mlp_only.end(), layer) == mlp_only.end() &&
            (layer + 1) % step == 0;
    }
    arch.moe_layer[static_cast<size_t>(layer)] = moe;
  }
}

void ReadAttentionWindows(const json& flat, est::ModelArch& arch) {
  const json& traits = ArchitectureTraits();
  std::string type = String(flat, "text_model_type");
  if (type.empty()) type = String(flat, "model_type");
  const json traits_of_type = traits.contains(type) ? traits[type] : json::object();
  int64_t window = Int(flat, "sliding_window");
  arch.attention_window.assign(static_cast<size_t>(arch.num_layers), 0);
  if (window <= 0 || !Bool(flat, "use_sliding_window", true)) return;
  auto types = flat.find("layer_types");
  for (int64_t layer = 0; layer < arch.num_layers; ++layer) {
    bool sliding = true;
    if (types != flat.end() && types->is_array() && static_cast<size_t>(layer) < types->size()) {
      sliding = (*types)[static_cast<size_t>(layer)] == "sliding_attention";
    } else if (int64_t pattern = Int(flat, "sliding_window_pattern");
               pattern > 0 && Bool(traits_of_type, "sliding_every_nth_global", false)) {
      sliding = (layer + 1) % pattern != 0;
    } else if (Bool(traits_of_type, "alternating_sliding", false)) {
      sliding = layer % 2 == 0;
    }
    if (sliding) arch.attention_window[static_cast<size_t>(layer)] = window;
  }
}

// Gated DeltaNet layers (Qwen3-Next, Qwen3.5): `layer_types` names them "linear_attention";
// without it the configuration classes put full attention on every full_attention_interval-th
// layer (configuration_qwen3_5.py 107-111 at transformers 2da00a3c: default 4).
// Nemotron-H's hybrid_override_pattern: one block per character, M (Mamba-2), * (attention),
// - (MLP) or E (MoE), each with one norm (modeling_nemotron_h.py 1011-1050 at transformers
// 2da00a3c). A mixer and the feed-forward block after it make one layer of gpulint's model; a
// mixer followed by another mixer is a layer without an MLP.
struct HybridLayers {
  std::vector<bool> mamba, moe, mlp_absent;
};

bool ReadHybridPattern(const std::string& pattern, int64_t blocks, HybridLayers* out,
                       std::string* error) {
  if (static_cast<int64_t>(pattern.size()) != blocks) {
    *error = fmt::format("hybrid_override_pattern has {} blocks, num_hidden_layers {}",
                         pattern.size(), blocks);
    return false;
  }
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char block = pattern[i];
    if (block == 'M' || block == '*') {
      out->mamba.push_back(block == 'M');
      out->moe.push_back(false);
      out->mlp_absent.push_back(true);
    } else if ((block == '-' || block == 'E') && !out->mamba.empty() && out->mlp_absent.back()) {
      out->moe.back() = block == 'E';
      out->mlp_absent.back() = false;
    } else if (block == '-' || block == 'E') {
      *error = fmt::format(
          "hybrid_override_pattern block {} ('{}') follows no attention or Mamba block: gpulint "
          "models a feed-forward block after its mixer",
          i, block);
      return false;
    } else {
      *error = fmt::format("hybrid_override_pattern block {} is '{}', not M, *, - or E", i,
                           std::string(1, block));
      return false;
    }
  }
  return true;
}

// A structure trait of the config's model type (its text model's, for a VLM), false when the
// table does not describe the type.
bool TypeTrait(const json& flat, const char* trait) {
  const json& traits = ArchitectureTraits();
  std::string type = String(flat, "text_model_type");
  if (type.empty() || !traits.contains(type)) type = String(flat, "model_type");
  return traits.contains(type) && Bool(traits[type], trait, false);
}

// Whether the model type's linear layers are Mamba-2 (catalog/architectures.toml `mamba2`).
bool HasMamba2(const json& flat) { return TypeTrait(flat, "mamba2"); }

// Mamba-2 layers (Granite 4.0 H, granitemoehybrid): `layer_types` names them "mamba", and
// without it every layer is one (configuration_granitemoehybrid.py 110-111 at transformers
// 2da00a3c). Absent mamba_* keys take that class's defaults (86-97: 128 heads, 1 group, state
// 256, head "auto" = expand x hidden / heads, kernel 4, expand 2, conv bias on, proj bias off).
// Falcon-H1 (configuration_falcon_h1.py 77-90, 109-111 at transformers e8c4f0b7) states the
// inner width as mamba_d_ssm, its gated norm is switched by mamba_rms_norm (default off) and
// out_proj's bias by projectors_bias (modeling_falcon_h1.py 641-654); each of its layers runs
// attention beside the mixer (`parallel_hybrid`, 911-934).
// False with `error` set where the widths disagree, which transformers refuses too (122).
bool ReadMamba2(const json& flat, est::ModelArch& arch, std::string* error) {
  est::ModelArch::LinearAttention& l = arch.linear;
  l.kind = est::ModelArch::LinearAttention::Kind::kMamba2;
  const int64_t expand = Int(flat, "mamba_expand", 2);
  const int64_t inner = Int(flat, "mamba_d_ssm", expand * arch.hidden_size);
  l.value_heads = Int(flat, "mamba_n_heads", 128);
  l.key_heads = Int(flat, "mamba_n_groups", 1);
  l.key_head_dim = Int(flat, "mamba_d_state", 256);
  l.value_head_dim = Int(flat, "mamba_d_head", l.value_heads > 0 ? inner / l.value_heads : 0);
  l.conv_kernel = Int(flat, "mamba_d_conv", 4);
  l.conv_bias = Bool(flat, "mamba_conv_bias", true);
  l.proj_bias = Bool(flat, "mamba_proj_bias", false);
  l.out_proj_bias = Bool(flat, "projectors_bias", l.proj_bias);
  l.gated_norm = !TypeTrait(flat, "mamba_norm_optional") || Bool(flat, "mamba_rms_norm", false);
  // Granite's and Falcon-H1's mixers are that inner width and check the heads against it;
  // Nemotron-H's is heads x head_dim wide whatever expand says (modeling_nemotron_h.py 241).
  const bool width_checked = TypeTrait(flat, "mamba_width_is_expand");
  if (l.value_heads <= 0 || l.key_heads <= 0 || l.key_head_dim <= 0 || l.value_head_dim <= 0 ||
      (width_checked && l.value_heads * l.value_head_dim != inner)) {
    *error = fmt::format(
        "mamba_n_heads {} x mamba_d_head {} is not the mixer's width {} ({})", l.value_heads,
        l.value_head_dim, inner,
        flat.contains("mamba_d_ssm") ? std::string("mamba_d_ssm")
                                     : fmt::format("mamba_expand {} x hidden_size {}", expand,
                                                   arch.hidden_size));
    return false;
  }
  arch.attention_beside_linear = TypeTrait(flat, "parallel_hybrid");
  auto types = flat.find("layer_types");
  const bool listed = types != flat.end() && types->is_array() && !arch.attention_beside_linear;
  arch.linear_attention_layer.assign(static_cast<size_t>(arch.num_layers), true);
  if (listed)
    for (int64_t layer = 0; layer < arch.num_layers; ++layer)
      arch.linear_attention_layer[static_cast<size_t>(layer)] =
          static_cast<size_t>(layer) >= types->size() ||
          (*types)[static_cast<size_t>(layer)] == "mamba";
  return true;
}

// Mamba-1 layers (Jamba; catalog/architectures.toml `mamba1`): the inner width is mamba_expand x
// hidden_size and dt_rank "auto" is ceil(hidden_size / 16) (configuration_jamba.py 97 at
// transformers e8c4f0b7); a layer attends where its index modulo attn_layer_period is
// attn_layer_offset (layers_block_type, 101-105), or where layer_types says "full_attention"
// (its layer_types property, 107-110) or "attention" (layers_block_type's spelling).
// False with `error` set where an offset is not below its period, which the class refuses too
// (validate_architecture, 119-129).
bool ReadMamba1(const json& flat, est::ModelArch& arch, std::string* error) {
  est::ModelArch::LinearAttention& l = arch.linear;
  l.kind = est::ModelArch::LinearAttention::Kind::kMamba1;
  l.key_heads = 0;
  l.value_heads = Int(flat, "mamba_expand", 2) * arch.hidden_size;
  l.value_head_dim = 1;
  l.key_head_dim = Int(flat, "mamba_d_state", 16);
  l.conv_kernel = Int(flat, "mamba_d_conv", 4);
  l.dt_rank = Int(flat, "mamba_dt_rank", (arch.hidden_size + 15) / 16);
  l.conv_bias = Bool(flat, "mamba_conv_bias", true);
  l.proj_bias = l.out_proj_bias = Bool(flat, "mamba_proj_bias", false);
  l.gated_norm = false;
  l.inner_norms = TypeTrait(flat, "mamba_inner_norms");
  const int64_t period = Int(flat, "attn_layer_period", 1);
  const int64_t offset = Int(flat, "attn_layer_offset");
  for (const char* key : {"attn_layer", "expert_layer"}) {
    const std::string p = std::string(key) + "_period", o = std::string(key) + "_offset";
    if (flat.contains(p) && Int(flat, o.c_str()) >= Int(flat, p.c_str(), 1)) {
      *error = fmt::format("{} {} is not below {} {}", o, Int(flat, o.c_str()), p,
                           Int(flat, p.c_str(), 1));
      return false;
    }
  }
  if (l.value_heads <= 0 || l.key_head_dim <= 0 || l.dt_rank <= 0) {
    *error = fmt::format("a Mamba layer of width {}, state {} and dt rank {}", l.value_heads,
                         l.key_head_dim, l.dt_rank);
    return false;
  }
  auto types = flat.find("layer_types");
  const bool listed = types != flat.end() && types->is_array();
  arch.linear_attention_layer.assign(static_cast<size_t>(arch.num_layers), true);
  for (int64_t layer = 0; layer < arch.num_layers; ++layer)
    arch.linear_attention_layer[static_cast<size_t>(layer)] =
        listed ? static_cast<size_t>(layer) >= types->size() ||
                     ((*types)[static_cast<size_t>(layer)] != "full_attention" &&
                      (*types)[static_cast<size_t>(layer)] != "attention")
               : layer % period != offset;
  return true;
}

// LFM2's gated short convolutions (catalog/architectures.toml `short_conv`): layer_types names
// them "conv"; older configs list the attention layers in full_attn_idxs, and with neither every
// layer is attention (configuration_lfm2.py 82-88 at transformers 2da00a3c).
bool HasShortConv(const json& flat) { return TypeTrait(flat, "short_conv"); }

void ReadShortConv(const json& flat, est::ModelArch& arch) {
  est::ModelArch::LinearAttention& l = arch.linear;
  l.kind = est::ModelArch::LinearAttention::Kind::kShortConv;
  l.value_heads = 1;
  l.value_head_dim = arch.hidden_size;
  l.conv_kernel = Int(flat, "conv_L_cache", 3);
  l.conv_bias = Bool(flat, "conv_bias", false);
  // in_proj and out_proj take the same bias switch (474-475).
  l.proj_bias = l.out_proj_bias = l.conv_bias;
  arch.linear_attention_layer.assign(static_cast<size_t>(arch.num_layers), false);
  auto types = flat.find("layer_types");
  auto attention = flat.find("full_attn_idxs");
  for (int64_t layer = 0; layer < arch.num_layers; ++layer) {
    bool conv = false;
    if (types != flat.end() && types->is_array()) {
      conv = static_cast<size_t>(layer) < types->size() &&
             (*types)[static_cast<size_t>(layer)] == "conv";
    } else if (attention != flat.end() && attention->is_array()) {
      conv = std::find(attention->begin(), attention->end(), json(layer)) == attention->end();
    }
    arch.linear_attention_layer[static_cast<size_t>(layer)] = conv;
  }
}

// Kimi Linear's linear_attn_config (configuration_kimi.py at axolotl-ai-cloud/axolotl@067b021c,
// src/axolotl/model_support/kimi_linear/): num_heads of head_dim for q, k and v alike, the
// convolution's kernel, and kda_layers counted from 1 (is_kda_layer: `(layer_idx + 1) in
// self.linear_attn_config["kda_layers"]`); each gate's low-rank middle is head_dim wide. A
// config that lists KDA layers without their shape is refused: those layers would count as
// nothing.
bool ReadKda(const json& flat, est::ModelArch& arch, std::string* error) {
  auto found = flat.find("linear_attn_config");
  if (found == flat.end() || !found->is_object()) {
    *error = "linear_attn_config is not an object";
    return false;
  }
  const json& config = *found;
  auto layers = config.find("kda_layers");
  if (layers == config.end() || !layers->is_array()) {
    *error = "linear_attn_config has no kda_layers list";
    return false;
  }
  est::ModelArch::LinearAttention& l = arch.linear;
  l.kind = est::ModelArch::LinearAttention::Kind::kKda;
  const int64_t heads = std::clamp<int64_t>(Int(config, "num_heads"), 0, 1 << 16);
  const int64_t head_dim = std::clamp<int64_t>(Int(config, "head_dim"), 0, 1 << 16);
  if (heads <= 0 || head_dim <= 0) {
    *error = "linear_attn_config needs num_heads and head_dim above 0";
    return false;
  }
  l.key_heads = l.value_heads = heads;
  l.key_head_dim = l.value_head_dim = l.gate_rank = head_dim;
  l.conv_kernel = std::clamp<int64_t>(Int(config, "short_conv_kernel_size"), 0, 4096);
  arch.linear_attention_layer.assign(static_cast<size_t>(arch.num_layers), false);
  for (const json& one_based : *layers)
    if (one_based.is_number_integer() && one_based.get<int64_t>() >= 1 &&
        one_based.get<int64_t>() <= arch.num_layers)
      arch.linear_attention_layer[static_cast<size_t>(one_based.get<int64_t>() - 1)] = true;
  return true;
}

void ReadLinearAttention(const json& flat, est::ModelArch& arch) {
  est::ModelArch::LinearAttention& l = arch.linear;
  l.key_heads = Int(flat, "linear_num_key_heads");
  l.value_heads = Int(flat, "linear_num_value_heads");
  l.key_head_dim = Int(flat, "linear_key_head_dim");
  l.value_head_dim = Int(flat, "linear_value_head_dim");
  l.conv_kernel = Int(flat, "linear_conv_kernel_dim");
  arch.linear_attention_layer.assign(static_cast<size_t>(arch.num_layers), false);
  if (l.key_heads <= 0 || l.value_heads <= 0 || l.key_head_dim <= 0 || l.value_head_dim <= 0)
    return;
  auto types = flat.find("layer_types");
  const bool listed = types != flat.end() && types->is_array();
  const int64_t interval = std::max<int64_t>(1, Int(flat, "full_attention_interval", 4));
  for (int64_t layer = 0; layer < arch.num_layers; ++layer) {
    bool linear = (layer + 1) % interval != 0;
    if (listed)
      linear = static_cast<size_t>(layer) < types->size() &&
               (*types)[static_cast<size_t>(layer)] == "linear_attention";
    arch.linear_attention_layer[static_cast<size_t>(layer)] = linear;
  }
}

void ReadVision(const json& flat, est::ModelArch& arch) {
  est::VisionTower& v = arch.vision;
  v.depth = Int(flat, "vision_depth");
  v.hidden_size = Int(flat, "vision_hidden_size");
  v.intermediate_size = Int(flat, "vision_intermediate_size");
  v.num_heads = Int(flat, "vision_num_heads");
  v.patch_size = Int(flat, "vision_patch_size");
  v.temporal_patch_size = Int(flat, "vision_temporal_patch_size", 1);
  v.spatial_merge_size = Int(flat, "vision_spatial_merge_size", 1);
  v.out_hidden_size = Int(flat, "vision_out_hidden_size", Int(flat, "vision_projector_dim"));
  if (auto it = flat.find("vision_deepstack_visual_indexes"); it != flat.end() && it->is_array())
    v.deepstack_mergers = static_cast<int64_t>(it->size());
  // The tower's own structure: the VLM's type where the table has it (SmolVLM's text model is
  // a plain llama), else the text model's (Gemma 4 keeps its tower's traits with its text type).
  const json& traits = ArchitectureTraits();
  std::string type = String(flat, "model_type");
  if (!traits.contains(type)) type = String(flat, "text_model_type");
  if (!traits.contains(type)) return;
  const json& t = traits[type];
  v.gated_mlp = Bool(t, "vision_gated_mlp", false);
  const std::string projector = String(t, "vision_projector");
  if (projector == "linear" || projector == "mlp") {
    v.projector = projector == "linear" ? est::VisionTower::Projector::kLinear
                                        : est::VisionTower::Projector::kMlp;
    v.projector_hidden_size = Int(flat, "vision_projector_hidden_size");
    if (v.out_hidden_size <= 0) v.out_hidden_size = arch.hidden_size;
  }
  // A learned position table: one row per axis position (Gemma 4), per patch of the square
  // image (SigLIP), or num_patches rows resized at run time (SigLIP2's NaFlex).
  const std::string table = String(t, "vision_position_table");
  if (table == "two-axes") v.position_rows = 2 * Int(flat, "vision_position_embedding_size");
  if (table == "image-grid" && v.patch_size > 0) {
    const int64_t side = Int(flat, "vision_image_size") / v.patch_size;
    v.position_rows = side * side;
  }
  if (table == "num-patches") v.position_rows = Int(flat, "vision_num_patches");
}

// Gemma 4's audio conformer.
void ReadAudio(const json& flat, est::ModelArch& arch) {
  est::AudioTower& a = arch.audio;
  a.depth = Int(flat, "audio_depth");
  a.hidden_size = Int(flat, "audio_hidden_size");
  a.num_heads = Int(flat, "audio_num_heads");
  a.conv_kernel = Int(flat, "audio_conv_kernel");
  a.output_size = Int(flat, "audio_output_size");
  if (auto it = flat.find("audio_subsampling_conv_channels");
      it != flat.end() && it->is_array() && it->size() == 2)
    for (size_t i = 0; i < 2; ++i)
      a.subsample_channels[i] =
          (*it)[i].is_number_integer() ? std::clamp<int64_t>((*it)[i].get<int64_t>(), 0, 4096) : 0;
  // Which encoder: the model type's trait (catalog/architectures.toml audio_encoder).
  const json& traits = ArchitectureTraits();
  const std::string type = String(flat, "model_type");
  if (!traits.contains(type) || String(traits[type], "audio_encoder") != "whisper") return;
  a.kind = est::AudioTower::Kind::kWhisper;
  a.intermediate_size = Int(flat, "audio_intermediate_size");
  a.num_mel_bins = Int(flat, "audio_num_mel_bins");
  a.max_source_positions = Int(flat, "audio_max_source_positions");
  if (String(traits[type], "audio_projector") == "stacked-mlp")
    a.projector = est::AudioTower::Projector::kStackedMlp;
}

// Gemma 4's attention (configuration_gemma4.py 210-223 at transformers e8c4f0b7): full-attention
// layers take global_head_dim (512 when the config leaves it out: the type's key_defaults), and
// num_global_key_value_heads only where attention_k_eq_v, which also drops their v_proj
// (modeling_gemma4.py 1179); the last num_kv_shared_layers layers share K/V (1186-1212) and,
// with use_double_wide_mlp, run a doubled MLP (1068-1073); hidden_size_per_layer_input sizes
// the per-layer inputs (1602-1617).
void ReadLayerSharing(const json& flat, est::ModelArch& arch) {
  arch.full_attention.head_dim = Int(flat, "global_head_dim");
  arch.full_attention.values_are_keys = Bool(flat, "attention_k_eq_v", false);
  if (arch.full_attention.values_are_keys)
    arch.full_attention.kv_heads = Int(flat, "num_global_key_value_heads");
  arch.kv_shared_layers = std::max<int64_t>(Int(flat, "num_kv_shared_layers"), 0);
  arch.kv_shared_mlp_doubled = Bool(flat, "use_double_wide_mlp", false);
  arch.per_layer_input_size = std::max<int64_t>(Int(flat, "hidden_size_per_layer_input"), 0);
  arch.per_layer_input_vocab =
      std::max<int64_t>(Int(flat, "vocab_size_per_layer_input", arch.vocab_size), 0);
}

// Whether an entry of a quantizer's exclusion list keeps attention's projections in 16 bits:
// it names the attention module or a weight inside it. A norm inside it (Qwen3-Next's FP8
// release lists every layer's self_attn.q_norm and k_norm) is never quantized, so its exclusion
// says nothing about the projections.
bool NamesAttentionWeights(std::string_view name) {
  const size_t at = name.find("self_attn");
  if (at == std::string_view::npos) return false;
  const size_t last_dot = name.rfind('.');
  const std::string_view leaf =
      last_dot == std::string_view::npos || last_dot < at ? name : name.substr(last_dot + 1);
  return leaf.find("norm") == std::string_view::npos;
}

// quantization_config of a pre-quantized checkpoint.
void ReadQuantization(const json& flat, est::ModelArch& arch, std::vector<std::string>& uncertain) {
  auto it = flat.find("quantization_config");
  if (it == flat.end() || !it->is_object()) return;
  const json& q = *it;
  std::string method = String(q, "quant_method");
  int64_t bits = Int(q, "bits", 4);
  est::Quantization& out = arch.checkpoint_quant;
  out.group_size = static_cast<int>(Int(q, "group_size", 128));
  if (method == "fp8" || method == "fbgemm_fp8") {
    out.format = est::WeightFormat::kFp8;
  } else if (method == "mxfp4") {
    out.format = est::WeightFormat::kMxfp4;
  } else if (method == "awq") {
    out.format = est::WeightFormat::kAwqInt4;
  } else if (method == "gptq") {
    out.format = bits <= 4 ? est::WeightFormat::kGptqInt4 : est::WeightFormat::kGptqInt8;
  } else if (method == "bitsandbytes") {
    if (Bool(q, "load_in_8bit", false)) {
      out.format = est::WeightFormat::kInt8;
    } else {
      out.format = Bool(q, "bnb_4bit_use_double_quant", false) ? est::WeightFormat::kNf4Double
                                                               : est::WeightFormat::kNf4;
    }
  } else if (method == "compressed-tensors") {
    // Weights' num_bits and type sit in config_groups.*.weights.
    const json* weights = nullptr;
    if (auto groups = q.find("config_groups"); groups != q.end() && groups->is_object())
      for (const auto& [name, group] : groups->items())
        if (group.contains("weights") && group["weights"].is_object()) weights = &group["weights"];
    if (weights && String(*weights, "type") == "float" && Int(*weights, "num_bits") == 8) {
      out.format = est::WeightFormat::kFp8;
    } else if (weights && Int(*weights, "num_bits") == 4) {
      out.format = est::WeightFormat::kGptqInt4;
      out.group_size = static_cast<int>(Int(*weights, "group_size", 128));
    } else if (weights && Int(*weights, "num_bits") == 8) {
      out.format = est::WeightFormat::kGptqInt8;
      out.group_size = static_cast<int>(Int(*weights, "group_size", 0));
    }
  }
  if (out.format == est::WeightFormat::kDefault) {
    uncertain.push_back(fmt::format(
        "quantization_config method '{}' is not modeled: weights priced at the model dtype",
        method));
    return;
  }
  for (const char* key : {"modules_to_not_convert", "ignore", "ignored_layers"})
    if (auto list = q.find(key); list != q.end() && list->is_array())
      for (const json& name : *list)
        if (name.is_string() && NamesAttentionWeights(name.get<std::string>()))
          out.exclusions.attention = true;
}

bool FromJson(const json& config, const std::string& where, ModelEntry* entry, std::string* error) {
  json flat = Flatten(config);
  if (!CheckRanges(flat, where, error)) return false;
  for (const char* required :
       {"hidden_size", "num_hidden_layers", "num_attention_heads", "vocab_size"}) {
    if (Int(flat, required) <= 0) {
      *error = fmt::format("model description has no positive '{}': {}", required, where);
      return false;
    }
  }
  ModelEntry& e = *entry;
  est::ModelArch& a = e.arch;
  e.hf_id = String(flat, "hf_id");
  if (e.hf_id.empty()) e.hf_id = String(flat, "name");
  if (e.hf_id.empty()) e.hf_id = String(flat, "_name_or_path");
  a.name = e.hf_id;
  a.model_type = String(flat, "text_model_type");
  if (a.model_type.empty()) a.model_type = String(flat, "model_type");
  if (std::string dtype = String(flat, "torch_dtype"); !dtype.empty()) {
    a.dtype = dtype;
    e.dtype_recorded = true;
  }
  a.hidden_size = Int(flat, "hidden_size");
  a.num_layers = Int(flat, "num_hidden_layers");
  HybridLayers hybrid;
  const std::string pattern = String(flat, "hybrid_override_pattern");
  if (!pattern.empty()) {
    if (!ReadHybridPattern(pattern, a.num_layers, &hybrid, error)) {
      *error += ": " + where;
      return false;
    }
    a.num_layers = static_cast<int64_t>(hybrid.mamba.size());
  }
  a.num_attention_heads = Int(flat, "num_attention_heads");
  a.num_kv_heads = Int(flat, "num_key_value_heads");
  if (Bool(flat, "multi_query", false)) a.num_kv_heads = 1;  // Falcon-7B
  if (a.num_kv_heads <= 0) {
    a.num_kv_heads = a.num_attention_heads;
    e.uncertain_fields.push_back("num_key_value_heads absent: multi-head attention assumed");
  }
  a.head_dim = Int(flat, "head_dim", a.hidden_size / a.num_attention_heads);
  if (a.head_dim <= 0) {
    *error =
        fmt::format("head_dim is {}: a head needs at least one dimension: {}", a.head_dim, where);
    return false;
  }
  if (a.num_kv_heads > a.num_attention_heads) {
    *error = fmt::format("num_key_value_heads {} is more than num_attention_heads {}: {}",
                         a.num_kv_heads, a.num_attention_heads, where);
    return false;
  }
  a.intermediate_size = Int(flat, "intermediate_size");
  const bool intermediate_absent = a.intermediate_size <= 0;
  if (intermediate_absent) a.intermediate_size = 4 * a.hidden_size;
  a.vocab_size = Int(flat, "vocab_size");
  a.max_position_embeddings = Int(flat, "max_position_embeddings");
  // A type whose configuration class ties by default says so in its key_defaults (LFM2).
  if (flat.contains("tie_word_embeddings")) {
    a.tied_embeddings = Bool(flat, "tie_word_embeddings", false);
  } else {
    e.uncertain_fields.push_back("tie_word_embeddings absent: a separate lm_head is assumed");
  }
  a.q_lora_rank = Int(flat, "q_lora_rank");
  a.kv_lora_rank = Int(flat, "kv_lora_rank");
  a.qk_nope_head_dim = Int(flat, "qk_nope_head_dim");
  a.qk_rope_head_dim = Int(flat, "qk_rope_head_dim");
  a.v_head_dim = Int(flat, "v_head_dim");
  ReadMoe(flat, a);
  if (a.num_experts > 0 && (a.experts_per_token <= 0 || a.experts_per_token > a.num_experts)) {
    *error = fmt::format("{} experts per token of {} experts: {}", a.experts_per_token,
                         a.num_experts, where);
    return false;
  }
  // A model whose every layer routes to experts (Qwen3.5 MoE) has no dense MLP to size.
  if (intermediate_absent &&
      !(a.is_moe() && std::all_of(a.moe_layer.begin(), a.moe_layer.end(), [](bool moe) { return moe; })))
    e.uncertain_fields.push_back("intermediate_size absent: 4 x hidden_size assumed");
  // A layout guessed for an unknown model_type is no better than low confidence, which makes
  // every estimate of it print the guess among its assumptions.
  if (!ApplyTraits(flat, a, e.uncertain_fields)) e.confidence = "low";
  ReadAttentionWindows(flat, a);
  if (HasMamba2(flat)) {
    if (!ReadMamba2(flat, a, error)) {
      *error += ": " + where;
      return false;
    }
  } else if (TypeTrait(flat, "mamba1")) {
    if (!ReadMamba1(flat, a, error)) {
      *error += ": " + where;
      return false;
    }
  } else if (HasShortConv(flat)) {
    ReadShortConv(flat, a);
  } else if (auto kda = flat.find("linear_attn_config"); kda != flat.end() && !kda->is_null()) {
    if (!ReadKda(flat, a, error)) {
      *error += ": " + where;
      return false;
    }
  } else {
    ReadLinearAttention(flat, a);
  }
  if (!pattern.empty()) {
    a.linear_attention_layer = hybrid.mamba;
    a.mlp_absent_layer = hybrid.mlp_absent;
    if (a.is_moe()) a.moe_layer = hybrid.moe;
    if (Int(flat, "moe_latent_size") > 0)
      e.uncertain_fields.push_back(
          "moe_latent_size: the experts' latent projections are not modelled (experts priced at "
          "hidden_size)");
  }
  ReadVision(flat, a);
  ReadAudio(flat, a);
  ReadLayerSharing(flat, a);
  // As for num_key_value_heads above; and shared K/V has to come from a layer that keeps it
  // (modeling_gemma4.py 1186 at transformers e8c4f0b7: first_kv_shared_layer_idx = layers - shared).
  if (a.full_attention.kv_heads > a.num_attention_heads) {
    *error = fmt::format("num_global_key_value_heads {} is more than num_attention_heads {}: {}",
                         a.full_attention.kv_heads, a.num_attention_heads, where);
    return false;
  }
  if (a.kv_shared_layers >= a.num_layers) {
    *error = fmt::format(
        "num_kv_shared_layers {} leaves none of the {} layers to hold the keys and values: {}",
        a.kv_shared_layers, a.num_layers, where);
    return false;
  }
  a.mtp_layers = Int(flat, "mtp_num_hidden_layers");
  ReadQuantization(flat, a, e.uncertain_fields);

  if (std::string confidence = String(flat, "confidence"); !confidence.empty())
    e.confidence = confidence;
  // A table written by `models add` repeats what the loader found uncertain: listed once.
  if (auto list = flat.find("uncertain_fields"); list != flat.end() && list->is_array())
    for (const json& field : *list)
      if (field.is_string() && std::find(e.uncertain_fields.begin(), e.uncertain_fields.end(),
                                         field.get<std::string>()) == e.uncertain_fields.end())
        e.uncertain_fields.push_back(field.get<std::string>());
  if (auto total = flat.find("params_total"); total != flat.end() && total->is_number())
    e.params_total = total->get<double>();
  if (auto active = flat.find("params_active"); active != flat.end() && active->is_number())
    e.params_active = active->get<double>();
  e.params_active_counts_embedding = Bool(flat, "params_active_counts_embedding", true);
  e.source = String(flat, "source");
  if (auto list = flat.find("aliases"); list != flat.end() && list->is_array())
    for (const json& alias : *list)
      if (alias.is_string()) e.aliases.push_back(alias.get<std::string>());
  return true;
}

// The flattened keys FromJson reads (old spellings are mapped by Flatten first). A key missing
// here changes the model a written table describes; ModelTableFromConfigJson's read-back
// comparison refuses that rather than writing it.
constexpr const char* kTableKeys[] = {
    "model_type", "text_model_type", "architectures", "torch_dtype", "hidden_size",
    "num_hidden_layers", "num_attention_heads", "num_key_value_heads", "multi_query", "head_dim",
    "intermediate_size", "intermediate_size_mlp", "vocab_size", "max_position_embeddings",
    "tie_word_embeddings", "q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim",
    "v_head_dim", "num_experts", "num_experts_per_tok", "num_experts_per_token",
    "moe_intermediate_size", "n_shared_experts", "shared_expert_intermediate_size",
    "mlp_only_layers", "first_k_dense_replace", "moe_layer_freq", "interleave_moe_layer_step",
    "decoder_sparse_step", "moe_layer_interval", "moe_layer_start_index",
    "moe_layer_end_index", "attention_bias", "attention_out_bias", "use_qk_norm", "use_qkv_bias",
    "bias", "mlp_bias", "sliding_window", "use_sliding_window", "layer_types",
    "sliding_window_pattern", "quantization_config", "attn_output_gate",
    "linear_num_key_heads", "linear_num_value_heads", "linear_key_head_dim",
    "linear_value_head_dim", "linear_conv_kernel_dim", "full_attention_interval",
    "mtp_num_hidden_layers", "mamba_n_heads", "mamba_n_groups", "mamba_d_state", "mamba_d_head",
    "mamba_d_conv", "mamba_expand", "mamba_conv_bias", "mamba_proj_bias", "mamba_d_ssm",
    "mamba_rms_norm", "projectors_bias", "mamba_dt_rank", "attn_layer_period", "attn_layer_offset",
    "expert_layer_period", "expert_layer_offset", "shared_intermediate_size",
    "hybrid_override_pattern", "moe_latent_size", "conv_L_cache", "conv_bias", "full_attn_idxs",
    "block_auto_adjust_ff_dim", "block_ffn_dim_multiplier", "block_multiple_of",
    "vision_model_type", "vision_depth", "vision_num_heads", "vision_hidden_size",
    "vision_intermediate_size", "vision_patch_size", "vision_temporal_patch_size",
    "vision_spatial_merge_size", "vision_out_hidden_size", "vision_projector_dim",
    "vision_deepstack_visual_indexes", "vision_image_size", "vision_position_embedding_size",
    "vision_num_patches", "vision_projector_hidden_size", "scale_factor", "downsample_factor",
    "projector_hidden_size",
    "audio_depth", "audio_hidden_size", "audio_num_heads", "audio_conv_kernel",
    "audio_intermediate_size", "audio_num_mel_bins", "audio_max_source_positions",
    "audio_subsampling_conv_channels", "audio_output_size", "global_head_dim",
    "num_global_key_value_heads", "attention_k_eq_v", "num_kv_shared_layers",
    "use_double_wide_mlp", "hidden_size_per_layer_input", "vocab_size_per_layer_input",
    "top_k_experts", "enable_moe_block", "linear_attn_config",
};

// Whether two readings describe the same model for every estimate gpulint makes.
bool SameModel(const est::ModelArch& a, const est::ModelArch& b) {
  est::ParamBreakdown pa = est::CountParams(a), pb = est::CountParams(b);
  return pa.Total() == pb.Total() && pa.TextActive(a) == pb.TextActive(b) &&
         a.model_type == b.model_type && a.dtype == b.dtype && a.num_layers == b.num_layers &&
         a.hidden_size == b.hidden_size && a.num_kv_heads == b.num_kv_heads &&
         a.head_dim == b.head_dim && a.vocab_size == b.vocab_size &&
         a.max_position_embeddings == b.max_position_embeddings &&
         a.kv_lora_rank == b.kv_lora_rank && a.qk_rope_head_dim == b.qk_rope_head_dim &&
         a.moe_layer == b.moe_layer && a.attention_window == b.attention_window &&
         a.linear_attention_layer == b.linear_attention_layer &&
         a.attention_beside_linear == b.attention_beside_linear &&
         a.linear.value_heads == b.linear.value_heads &&
         a.linear.key_head_dim == b.linear.key_head_dim &&
         a.linear.value_head_dim == b.linear.value_head_dim &&
         a.linear.conv_kernel == b.linear.conv_kernel && a.linear.kind == b.linear.kind &&
         a.mlp_absent_layer == b.mlp_absent_layer &&
         a.checkpoint_quant.format == b.checkpoint_quant.format &&
         a.checkpoint_quant.group_size == b.checkpoint_quant.group_size &&
         a.checkpoint_quant.exclusions.attention == b.checkpoint_quant.exclusions.attention;
}

// Python's json module writes the floats JSON lacks as Infinity, -Infinity and NaN, and
// transformers saves configs with it (Nemotron-H's "time_step_limit": [0.0, Infinity]). Outside
// strings they become null, which no key gpulint reads can hold.
std::string WithoutPythonFloats(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (in_string) {
      out += ch;
      if (ch == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (ch == '"') {
        in_string = false;
      }
      continue;
    }
    if (ch == '"') in_string = true;
    const std::string_view rest = text.substr(i);
    bool replaced = false;
    for (std::string_view word : {"-Infinity", "Infinity", "NaN"}) {
      if (rest.substr(0, word.size()) == word) {
        out += "null";
        i += word.size() - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += ch;
  }
  return out;
}

}  // namespace

bool ModelTableFromConfigJson(std::string_view json_text, const std::string& where,
                              const std::vector<TableHeaderValue>& header,
                              const std::string& array_name, std::string* table,
                              std::string* error) {
  ModelEntry from_config;
  if (!ParseModelConfigJson(json_text, where, &from_config, error)) return false;
  json flat = Flatten(json::parse(WithoutPythonFloats(json_text)));
  json kept = json::object();
  for (const char* key : kTableKeys)
    if (auto it = flat.find(key); it != flat.end() && !it->is_null()) kept[key] = *it;
  toml::table model = JsonObjectToToml(kept);
  for (const auto& [key, value] : header)
    std::visit([&, &key = key](const auto& v) { model.insert_or_assign(key, v); }, value);
  // What the reader could not read from the config stays with the table, and a guessed layout
  // lowers the confidence the caller asked for.
  if (!from_config.uncertain_fields.empty()) {
    toml::array uncertain;
    for (const std::string& field : from_config.uncertain_fields) uncertain.push_back(field);
    model.insert_or_assign("uncertain_fields", std::move(uncertain));
  }
  if (from_config.confidence != "high") model.insert_or_assign("confidence", from_config.confidence);
  // The root that holds the table array at `array_name` ("tool.gpulint.model").
  std::vector<std::string> path = SplitAny(array_name, ".");
  toml::table root;
  toml::table* parent = &root;
  for (size_t i = 0; i + 1 < path.size(); ++i)
    parent = parent->insert_or_assign(path[i], toml::table{}).first->second.as_table();
  parent->insert_or_assign(path.back(), toml::array{std::move(model)});
  // Basic strings only: toml++ 3.3.0 writes a text holding ''' as a multi-line literal string,
  // which no reader accepts (a config.json from a pull request chooses its own text).
  const auto flags = toml::toml_formatter::default_flags & ~toml::format_flags::indentation &
                     ~toml::format_flags::allow_literal_strings &
                     ~toml::format_flags::allow_multi_line_strings;
  std::ostringstream formatted;
  formatted << toml::toml_formatter(root, flags);
  // The formatter sorts keys; the header lines move up under the [[...]] line, where a reader
  // looks for the name and the source. Each is the table's own top-level key, written before
  // any sub-table, so its first occurrence is the one to move.
  std::string text = formatted.str();
  size_t first_line_end = text.find('\n');
  for (auto it = header.rbegin(); it != header.rend(); ++it) {
    std::ostringstream line;
    toml::table one;
    std::visit([&](const auto& v) { one.insert_or_assign(it->first, v); }, it->second);
    line << toml::toml_formatter(one, flags);
    std::string needle = "\n" + line.str() + "\n";
    if (size_t at = text.find(needle); at != std::string::npos) {
      text.erase(at, needle.size() - 1);
      text.insert(first_line_end + 1, line.str() + "\n");
    }
  }
  if (text.empty() || text.back() != '\n') text += '\n';
  *table = std::move(text);

  std::vector<ModelEntry> back;
  if (!ParseModelTables(*table, where, &back, error, array_name)) return false;
  if (back.size() != 1 || !SameModel(back[0].arch, from_config.arch)) {
    *error = fmt::format("the model of {} cannot be written as a [[model]] table (a key the "
                         "table would lose changes it)",
                         where);
    return false;
  }
  return true;
}

bool ParseModelConfigJson(std::string_view json_text, const std::string& where, ModelEntry* entry,
                          std::string* error) {
  // Nesting is counted before parsing: a config.json nested 150,000 deep is not a model
  // description, and copying or freeing such a tree recurses once per level.
  if (JsonNestingDepth(json_text) > kMaxJsonDepth) {
    *error = fmt::format("config.json is nested deeper than {} levels: {}", kMaxJsonDepth, where);
    return false;
  }
  json config = json::parse(WithoutPythonFloats(json_text), nullptr, /*allow_exceptions=*/false);
  if (config.is_discarded() || !config.is_object()) {
    *error = fmt::format("config.json is not a JSON object: {}", where);
    return false;
  }
  return FromJson(config, where, entry, error);
}

bool ParseModelTables(std::string_view toml_text, const std::string& where,
                      std::vector<ModelEntry>* entries, std::string* error,
                      std::string_view array_name) {
  toml::table parsed;
  if (!ParseToml(toml_text, where, &parsed, error)) return false;
  const toml::array* models = parsed.at_path(array_name).as_array();
  if (!models) return true;
  for (const toml::node& node : *models) {
    const toml::table* table = node.as_table();
    if (!table) continue;
    ModelEntry entry;
    std::string table_where = fmt::format("{}:{}", where, table->source().begin.line);
    if (!FromJson(TomlTableToJson(*table), table_where, &entry, error)) return false;
    if (entry.hf_id.empty()) {
      *error = fmt::format("[[model]] without hf_id or name: {}", table_where);
      return false;
    }
    entries->push_back(std::move(entry));
  }
  return true;
}

}  // namespace gpulint
