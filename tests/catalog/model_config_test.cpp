// model_config: config.json and [[model]] tables, and the table written for a config.json.
#include "lint/catalog/model_config.h"

#include <catch2/catch.hpp>

#include <algorithm>

#include "estimator/kv_cache.h"
#include "estimator/param_count.h"

namespace {

using gpulint::ModelEntry;

ModelEntry FromJson(const std::string& json) {
  ModelEntry entry;
  std::string error;
  bool parsed = gpulint::ParseModelConfigJson(json, "config.json", &entry, &error);
  INFO(error);
  REQUIRE(parsed);
  return entry;
}

ModelEntry FromWrittenTable(const std::string& json, const std::string& array_name = "model") {
  std::string table, error;
  bool written = gpulint::ModelTableFromConfigJson(
      json, "config.json", {{"hf_id", "team/m"}, {"source", "config.json: /m"}}, array_name, &table,
      &error);
  INFO(error);
  REQUIRE(written);
  INFO(table);
  CHECK(table.rfind("[[" + array_name + "]]\nhf_id = \"team/m\"\nsource = ", 0) == 0);
  std::vector<ModelEntry> entries;
  REQUIRE(gpulint::ParseModelTables(table, "t.toml", &entries, &error, array_name));
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].hf_id == "team/m");
  CHECK(entries[0].source == "config.json: /m");
  return entries[0];
}

}  // namespace

TEST_CASE("a written table describes the model its config.json does", "[catalog][model_config]") {
  struct Case {
    const char* what;
    const char* json;
  };
  const Case cases[] = {
      {"MoE, Qwen3 style",
       R"({"model_type":"qwen3_moe","hidden_size":2048,"num_hidden_layers":4,
           "num_attention_heads":32,"num_key_value_heads":4,"head_dim":128,
           "intermediate_size":6144,"moe_intermediate_size":768,"num_experts":128,
           "num_experts_per_tok":8,"decoder_sparse_step":2,"mlp_only_layers":[0],
           "vocab_size":151936,"tie_word_embeddings":false,"rope_scaling":null,
           "id2label":{"0":"a"},"torch_dtype":"bfloat16"})"},
      {"MLA with leading dense layers and FP8 blocks, DeepSeek style",
       R"({"model_type":"deepseek_v3","hidden_size":7168,"num_hidden_layers":5,
           "num_attention_heads":128,"num_key_value_heads":128,"intermediate_size":18432,
           "moe_intermediate_size":2048,"n_routed_experts":256,"n_shared_experts":1,
           "num_experts_per_tok":8,"first_k_dense_replace":3,"moe_layer_freq":1,
           "q_lora_rank":1536,"kv_lora_rank":512,"qk_nope_head_dim":128,"qk_rope_head_dim":64,
           "v_head_dim":128,"vocab_size":129280,"tie_word_embeddings":false,
           "quantization_config":{"quant_method":"fp8","weight_block_size":[128,128]}})"},
      {"a VLM with nested text and vision configs",
       R"({"model_type":"qwen2_5_vl","text_config":{"model_type":"qwen2_5_vl_text",
           "hidden_size":2048,"num_hidden_layers":3,"num_attention_heads":16,
           "num_key_value_heads":2,"intermediate_size":11008,"vocab_size":151936},
           "vision_config":{"depth":4,"hidden_size":1280,"intermediate_size":3420,
           "num_heads":16,"patch_size":14,"spatial_merge_size":2,"out_hidden_size":2048},
           "tie_word_embeddings":true})"},
      {"old key spellings and sliding layers",
       R"({"model_type":"gpt_oss","n_embd":2880,"n_layer":4,"n_head":64,"num_key_value_heads":8,
           "head_dim":64,"intermediate_size":2880,"num_local_experts":32,"num_experts_per_tok":4,
           "sliding_window":128,"layer_types":["sliding_attention","full_attention",
           "sliding_attention","full_attention"],"vocab_size":201088,"tie_word_embeddings":false,
           "quantization_config":{"quant_method":"mxfp4","modules_to_not_convert":
           ["model.layers.*.self_attn"]}})"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    ModelEntry config = FromJson(c.json);
    ModelEntry table = FromWrittenTable(c.json);
    gpulint::est::ParamBreakdown a = gpulint::est::CountParams(config.arch);
    gpulint::est::ParamBreakdown b = gpulint::est::CountParams(table.arch);
    CHECK(a.Total() == b.Total());
    CHECK(a.vision == b.vision);
    CHECK(a.TextActive(config.arch) == b.TextActive(table.arch));
    CHECK(table.arch.moe_layer == config.arch.moe_layer);
    CHECK(table.arch.attention_window == config.arch.attention_window);
    CHECK(table.arch.checkpoint_quant.format == config.arch.checkpoint_quant.format);
    CHECK(table.arch.kv_lora_rank == config.arch.kv_lora_rank);
    CHECK(table.arch.model_type == config.arch.model_type);
  }
  // The cases exercise what they say: a dense first layer, MLA, a vision tower, sliding layers.
  CHECK_FALSE(FromJson(cases[0].json).arch.moe_layer[0]);
  CHECK(FromJson(cases[1].json).arch.kv_lora_rank == 512);
  CHECK(gpulint::est::CountParams(FromJson(cases[2].json).arch).vision > 0);
  CHECK(FromJson(cases[3].json).arch.attention_window[0] == 128);
}

TEST_CASE("a written table nests under tool.gpulint for a pyproject.toml",
          "[catalog][model_config]") {
  ModelEntry entry = FromWrittenTable(
      R"({"model_type":"llama","hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,
          "num_key_value_heads":4,"intermediate_size":128,"vocab_size":100,
          "tie_word_embeddings":true,"quantization_config":{"quant_method":"awq","bits":4}})",
      "tool.gpulint.model");
  CHECK(entry.arch.checkpoint_quant.format == gpulint::est::WeightFormat::kAwqInt4);
}

TEST_CASE("text from a stranger's config.json stays a string in the written table",
          "[catalog][model_config]") {
  const std::string json =
      R"({"model_type":"x'''\n[[model]]\nhf_id = \"evil\"\n","hidden_size":64,
          "num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":4,
          "intermediate_size":128,"vocab_size":100,"tie_word_embeddings":true})";
  ModelEntry entry = FromWrittenTable(json);  // exactly one table, named team/m
  CHECK(entry.arch.model_type == "x'''\n[[model]]\nhf_id = \"evil\"\n");
}

TEST_CASE("a config.json that is not a model description gets no table",
          "[catalog][model_config]") {
  std::string table, error;
  CHECK_FALSE(gpulint::ModelTableFromConfigJson(R"({"model_type":"llama"})", "/m/config.json",
                                                {{"hf_id", "m"}}, "model", &table, &error));
  CHECK(error == "model description has no positive 'hidden_size': /m/config.json");
}

TEST_CASE("config keys that switch structure: Cohere's q/k norms, Seed-OSS's o_proj bias",
          "[catalog][model_config]") {
  const std::string shape =
      R"("hidden_size":128,"num_hidden_layers":2,"num_attention_heads":8,"num_key_value_heads":2,
         "head_dim":16,"intermediate_size":256,"vocab_size":100,"tie_word_embeddings":true)";
  auto count = [&](const std::string& keys) {
    return gpulint::est::CountParams(FromJson("{" + keys + "," + shape + "}").arch);
  };
  // CohereLayerNorm((heads, head_dim)) and ((kv_heads, head_dim)), weights only: (8 + 2) x 16
  // per layer, only with use_qk_norm (modeling_cohere.py).
  CHECK(count(R"("model_type":"cohere","use_qk_norm":true)").attention_other -
            count(R"("model_type":"cohere","use_qk_norm":false)").attention_other ==
        2 * (8 + 2) * 16);
  CHECK(count(R"("model_type":"cohere")").attention_other == 0);
  // attention_bias alone: q/k/v and o biases (Llama); with attention_out_bias false: q/k/v only.
  ModelEntry llama = FromJson(R"({"model_type":"llama","attention_bias":true,)" + shape + "}");
  ModelEntry seed = FromJson(
      R"({"model_type":"seed_oss","attention_bias":true,"attention_out_bias":false,)" + shape + "}");
  CHECK(llama.arch.o_bias);
  CHECK(seed.arch.qkv_bias);
  CHECK_FALSE(seed.arch.o_bias);
}

TEST_CASE("ERNIE 4.5's MoE keys: experts from moe_num_experts, layers from the moe_layer span",
          "[catalog][model_config]") {
  // configuration_ernie4_5_moe.py / modular_ernie4_5_moe.py: a layer routes when
  // (i + 1) % moe_layer_interval == 0 and moe_layer_start_index <= i <= moe_layer_end_index.
  const std::string shape =
      R"("model_type":"ernie4_5_moe","hidden_size":128,"num_hidden_layers":6,
         "num_attention_heads":4,"num_key_value_heads":2,"intermediate_size":512,
         "vocab_size":100,"tie_word_embeddings":true,"moe_num_experts":8,"moe_k":2,
         "moe_intermediate_size":64,"moe_num_shared_experts":2)";
  ModelEntry span = FromJson("{" + shape + R"(,"moe_layer_interval":1,"moe_layer_start_index":1,"moe_layer_end_index":4})");
  CHECK(span.arch.num_experts == 8);
  CHECK(span.arch.experts_per_token == 2);
  CHECK(span.arch.shared_expert_intermediate_size == 2 * 64);
  CHECK(span.arch.moe_layer == std::vector<bool>{false, true, true, true, true, false});
  ModelEntry to_last =
      FromJson("{" + shape + R"(,"moe_layer_interval":1,"moe_layer_start_index":[2,3],"moe_layer_end_index":-1})");
  CHECK(to_last.arch.moe_layer == std::vector<bool>{false, false, true, true, true, true});
  ModelEntry every_other = FromJson("{" + shape + R"(,"moe_layer_interval":2})");
  CHECK(every_other.arch.moe_layer == std::vector<bool>{false, true, false, true, false, true});
}

TEST_CASE("a quantizer's exclusion of attention norms keeps the projections quantized",
          "[catalog][model_config]") {
  auto excludes_attention = [](const std::string& excluded) {
    return FromJson(R"({"model_type":"qwen3_next","hidden_size":64,"num_hidden_layers":2,
        "num_attention_heads":4,"num_key_value_heads":2,"intermediate_size":128,"vocab_size":100,
        "quantization_config":{"quant_method":"fp8","weight_block_size":[128,128],
        "modules_to_not_convert":[)" + excluded + "]}}")
        .arch.checkpoint_quant.exclusions.attention;
  };
  // Qwen3-Next-80B-A3B-Instruct-FP8 lists every layer's q_norm and k_norm, and no projection.
  CHECK_FALSE(excludes_attention(R"("lm_head", "model.layers.0.self_attn.q_norm",
                                    "model.layers.0.self_attn.k_norm", "model.layers.0.input_layernorm")"));
  CHECK_FALSE(excludes_attention(R"("model.layers.0.self_attn.q_a_layernorm")"));
  // gpt-oss keeps the attention module whole; a projection or a pattern counts as well.
  CHECK(excludes_attention(R"("model.layers.*.self_attn")"));
  CHECK(excludes_attention(R"("model.layers.3.self_attn.o_proj")"));
  CHECK(excludes_attention(R"("re:.*self_attn.*")"));
}

TEST_CASE("Granite 4.0 H: Mamba-2 layers where layer_types says mamba, its MLP from its own key",
          "[catalog][model_config]") {
  const std::string shape =
      R"("model_type":"granitemoehybrid","hidden_size":64,"num_hidden_layers":4,
         "num_attention_heads":4,"num_key_value_heads":2,"intermediate_size":32,
         "shared_intermediate_size":96,"num_local_experts":0,"num_experts_per_tok":0,
         "vocab_size":100,"tie_word_embeddings":true,"mamba_n_heads":8,"mamba_d_head":16,
         "mamba_d_state":32,"mamba_n_groups":1,"mamba_d_conv":4,"mamba_expand":2)";
  ModelEntry e =
      FromJson(R"({"layer_types":["mamba","attention","mamba","mamba"],)" + shape + "}");
  CHECK(e.arch.linear.kind == gpulint::est::ModelArch::LinearAttention::Kind::kMamba2);
  CHECK(e.arch.linear_attention_layer == std::vector<bool>{true, false, true, true});
  CHECK(e.arch.linear.value_heads == 8);
  CHECK(e.arch.linear.key_head_dim == 32);  // d_state
  CHECK(e.arch.linear.conv_bias);           // the configuration class's default
  CHECK_FALSE(e.arch.linear.proj_bias);
  // Dense: every layer's MLP is shared_mlp, shared_intermediate_size wide, not intermediate_size.
  CHECK_FALSE(e.arch.is_moe());
  CHECK(e.arch.intermediate_size == 96);
  // Without layer_types every layer is Mamba-2 (configuration_granitemoehybrid.py 110-111).
  CHECK(FromJson("{" + shape + "}").arch.linear_attention_layer ==
        std::vector<bool>(4, true));
  // With experts, shared_intermediate_size is the shared expert beside them.
  ModelEntry moe = FromJson(
      R"({"model_type":"granitemoehybrid","hidden_size":64,"num_hidden_layers":2,
          "num_attention_heads":4,"num_key_value_heads":2,"intermediate_size":32,
          "shared_intermediate_size":96,"num_local_experts":8,"num_experts_per_tok":2,
          "vocab_size":100,"mamba_n_heads":8,"mamba_d_head":16})");
  CHECK(moe.arch.num_experts == 8);
  CHECK(moe.arch.expert_intermediate_size == 32);
  CHECK(moe.arch.shared_expert_intermediate_size == 96);
}

TEST_CASE("Mamba-2 heads that do not make the inner width are refused, as transformers does",
          "[catalog][model_config]") {
  ModelEntry entry;
  std::string error;
  CHECK_FALSE(gpulint::ParseModelConfigJson(
      R"({"model_type":"granitemoehybrid","hidden_size":64,"num_hidden_layers":2,
          "num_attention_heads":4,"num_key_value_heads":2,"intermediate_size":32,
          "vocab_size":100,"mamba_n_heads":8,"mamba_d_head":12})",
      "config.json", &entry, &error));
  CHECK(error.find("mamba_n_heads 8 x mamba_d_head 12 is not the mixer's width 128 (mamba_expand 2 "
                   "x hidden_size 64)") != std::string::npos);
  CHECK(error.find("config.json") != std::string::npos);
}

TEST_CASE("Falcon-H1: attention beside a Mamba-2 mixer of mamba_d_ssm width in every layer",
          "[catalog][model_config]") {
  // layer_types is the config class's all-"hybrid" property (configuration_falcon_h1.py 57,
  // 134 at transformers e8c4f0b7), not a choice between the two.
  const std::string shape =
      R"("model_type":"falcon_h1","hidden_size":64,"num_hidden_layers":2,
         "num_attention_heads":4,"num_key_value_heads":2,"head_dim":16,"intermediate_size":96,
         "vocab_size":100,"tie_word_embeddings":false,"mamba_d_ssm":128,"mamba_n_heads":8,
         "mamba_d_head":16,"mamba_n_groups":1,"mamba_d_state":32,"mamba_d_conv":4,
         "mamba_expand":2,"mamba_conv_bias":true,"mamba_proj_bias":false,
         "projectors_bias":false)";
  ModelEntry e = FromJson(R"({"layer_types":["hybrid","hybrid"],)" + shape + "}");
  CHECK(e.arch.linear_attention_layer == std::vector<bool>{true, true});
  CHECK(e.arch.attention_beside_linear);
  CHECK(e.arch.HasAttention(0));
  CHECK(e.arch.linear.ValueWidth() == 128);  // mamba_d_ssm, not mamba_expand x hidden_size
  CHECK_FALSE(e.arch.linear.gated_norm);     // mamba_rms_norm's class default is False
  // By hand, per layer: attention q 64x64 + k, v 64x32 + o 64x64 = 12288; the mixer's in_proj
  // 64 x (z 128 + x 128 + B, C 2x32 + dt 8) = 20992, out_proj 128x64 = 8192, conv 192x4 + bias
  // 192 = 960, dt_bias, A_log, D 3x8 = 24; MLP 3 x 64x96 = 18432; two norms 128: 61016. Two
  // layers, embedding and head 2 x 6400, final norm 64: 134896.
  CHECK(gpulint::est::CountParams(e.arch).Total() == 134896);
  // mamba_rms_norm adds the gated norm over the mixer's width; projectors_bias out_proj's bias.
  std::string with_norm = shape;
  with_norm.replace(with_norm.find(R"("projectors_bias":false)"), 23, R"("projectors_bias":true)");
  ModelEntry normed = FromJson("{" + with_norm + R"(,"mamba_rms_norm":true})");
  CHECK(gpulint::est::CountParams(normed.arch).Total() == 134896 + 2 * (128 + 64));
  // Heads that do not make mamba_d_ssm are refused, as transformers does (configuration 126-131).
  ModelEntry refused;
  std::string error;
  CHECK_FALSE(gpulint::ParseModelConfigJson(
      R"({"model_type":"falcon_h1","hidden_size":64,"num_hidden_layers":2,
          "num_attention_heads":4,"num_key_value_heads":2,"intermediate_size":96,
          "vocab_size":100,"mamba_d_ssm":128,"mamba_n_heads":8,"mamba_d_head":12})",
      "config.json", &refused, &error));
  CHECK(error.find("is not the mixer's width 128 (mamba_d_ssm)") != std::string::npos);
}

TEST_CASE("attention_bias switches what the type's modules read it for",
          "[catalog][model_config]") {
  // GLM-4.1V's text layers: q/k/v with bias=True and o_proj without, whatever attention_bias
  // says (modeling_glm4v.py:523-526 at transformers e8c4f0b7); GLM-4's own type reads the key
  // for q/k/v only (modeling_glm4.py:210-219), Llama's for q/k/v and o.
  const std::string shape =
      R"("hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,
         "intermediate_size":96,"vocab_size":100,"attention_bias":true)";
  ModelEntry glm4v = FromJson(R"({"model_type":"glm4v_text",)" + shape + "}");
  CHECK(glm4v.arch.qkv_bias);
  CHECK_FALSE(glm4v.arch.o_bias);
  ModelEntry glm = FromJson(R"({"model_type":"glm4",)" + shape + "}");
  CHECK(glm.arch.qkv_bias);
  CHECK_FALSE(glm.arch.o_bias);
  ModelEntry llama = FromJson(R"({"model_type":"llama",)" + shape + "}");
  CHECK(llama.arch.qkv_bias);
  CHECK(llama.arch.o_bias);
}

TEST_CASE("Jamba: Mamba-1 layers, attention and experts by period and offset",
          "[catalog][model_config]") {
  // Without the period keys, the configuration class's own defaults (configuration_jamba.py
  // 79-82 at transformers e8c4f0b7): attention at 4 of every 8, experts at 1 of every 2.
  ModelEntry e = FromJson(
      R"({"model_type":"jamba","hidden_size":64,"num_hidden_layers":16,"num_attention_heads":4,
          "num_key_value_heads":2,"intermediate_size":96,"vocab_size":100,"num_experts":4,
          "num_experts_per_tok":2})");
  REQUIRE(e.arch.num_layers == 16);
  for (int64_t layer = 0; layer < 16; ++layer) {
    INFO(layer);
    CHECK(e.arch.IsLinearAttentionLayer(layer) == (layer % 8 != 4));
    CHECK(e.arch.IsMoeLayer(layer) == (layer % 2 == 1));
  }
  CHECK(e.arch.linear.kind == gpulint::est::ModelArch::LinearAttention::Kind::kMamba1);
  CHECK(e.arch.linear.ValueWidth() == 128);  // mamba_expand 2 x hidden 64
  CHECK(e.arch.linear.key_head_dim == 16);   // mamba_d_state
  CHECK(e.arch.linear.dt_rank == 4);         // "auto": ceil(64 / 16)
  CHECK(e.arch.linear.inner_norms);
  CHECK_FALSE(e.arch.tied_embeddings);
  // Stated periods win; an offset not below its period is refused, as transformers does.
  ModelEntry stated = FromJson(
      R"({"model_type":"jamba","hidden_size":64,"num_hidden_layers":4,"num_attention_heads":4,
          "num_key_value_heads":2,"intermediate_size":96,"vocab_size":100,"num_experts":4,
          "num_experts_per_tok":2,"attn_layer_period":2,"attn_layer_offset":0,
          "expert_layer_period":4,"expert_layer_offset":3,"mamba_dt_rank":8})");
  CHECK(stated.arch.linear_attention_layer == std::vector<bool>{false, true, false, true});
  CHECK(stated.arch.moe_layer == std::vector<bool>{false, false, false, true});
  CHECK(stated.arch.linear.dt_rank == 8);
  ModelEntry refused;
  std::string error;
  CHECK_FALSE(gpulint::ParseModelConfigJson(
      R"({"model_type":"jamba","hidden_size":64,"num_hidden_layers":4,"num_attention_heads":4,
          "num_key_value_heads":2,"intermediate_size":96,"vocab_size":100,
          "attn_layer_period":4,"attn_layer_offset":4})",
      "config.json", &refused, &error));
  CHECK(error.find("attn_layer_offset 4 is not below attn_layer_period 4") != std::string::npos);
}

TEST_CASE("Nemotron-H: each mixer and the feed-forward block after it make one layer",
          "[catalog][model_config]") {
  // Its own key names (ssm_state_size, mamba_num_heads, ...) and Python's Infinity, as
  // transformers saves it.
  const std::string config = R"({"model_type":"nemotron_h","hidden_size":64,
      "num_hidden_layers":7,"hybrid_override_pattern":"ME*EM-M","num_attention_heads":4,
      "num_key_value_heads":2,"head_dim":16,"intermediate_size":96,"moe_intermediate_size":32,
      "moe_shared_expert_intermediate_size":48,"n_routed_experts":8,"n_shared_experts":1,
      "num_experts_per_tok":2,"mamba_num_heads":4,"mamba_head_dim":32,"ssm_state_size":16,
      "n_groups":2,"conv_kernel":4,"expand":2,"use_conv_bias":true,"use_bias":false,
      "vocab_size":100,"tie_word_embeddings":false,"time_step_limit":[0.0, Infinity]})";
  ModelEntry e = FromJson(config);
  // M+E, *+E, M+-, M alone.
  CHECK(e.arch.num_layers == 4);
  CHECK(e.arch.linear_attention_layer == std::vector<bool>{true, false, true, true});
  CHECK(e.arch.moe_layer == std::vector<bool>{true, true, false, false});
  CHECK(e.arch.mlp_absent_layer == std::vector<bool>{false, false, false, true});
  CHECK(e.arch.linear.kind == gpulint::est::ModelArch::LinearAttention::Kind::kMamba2);
  CHECK(e.arch.linear.key_heads == 2);       // n_groups
  CHECK(e.arch.linear.key_head_dim == 16);   // ssm_state_size
  CHECK(e.arch.linear.value_head_dim == 32); // mamba_head_dim, 4 x 32 = 128 wide, not expand x h
  CHECK(e.arch.shared_expert_intermediate_size == 48);
  CHECK_FALSE(e.arch.gated_mlp);  // relu2
  CHECK(e.arch.fused_experts);
}

TEST_CASE("a hybrid_override_pattern gpulint cannot lay out is refused with its block",
          "[catalog][model_config]") {
  auto refusal = [](const std::string& pattern, int blocks) {
    ModelEntry entry;
    std::string error;
    const bool parsed = gpulint::ParseModelConfigJson(
        R"({"model_type":"nemotron_h","hidden_size":64,"num_hidden_layers":)" +
            std::to_string(blocks) + R"(,"hybrid_override_pattern":")" + pattern +
            R"(","num_attention_heads":4,"num_key_value_heads":2,"vocab_size":100,
            "mamba_num_heads":4,"mamba_head_dim":32})",
        "config.json", &entry, &error);
    CHECK_FALSE(parsed);
    return error;
  };
  CHECK(refusal("M-X", 3).find("block 2 is 'X'") != std::string::npos);
  CHECK(refusal("-M", 2).find("block 0 ('-') follows no attention or Mamba block") !=
        std::string::npos);
  CHECK(refusal("M--", 3).find("block 2 ('-')") != std::string::npos);
  CHECK(refusal("M-", 3).find("has 2 blocks, num_hidden_layers 3") != std::string::npos);
}

TEST_CASE("LFM2: conv layers from layer_types or full_attn_idxs, its MLP two thirds and rounded",
          "[catalog][model_config]") {
  const std::string shape = R"("model_type":"lfm2","hidden_size":64,"num_hidden_layers":4,
      "num_attention_heads":4,"num_key_value_heads":2,"block_ff_dim":6656,"vocab_size":100,
      "tie_embedding":true,"conv_L_cache":3,"conv_bias":false)";
  ModelEntry listed =
      FromJson(R"({"layer_types":["conv","full_attention","conv","conv"],)" + shape + "}");
  CHECK(listed.arch.linear.kind == gpulint::est::ModelArch::LinearAttention::Kind::kShortConv);
  CHECK(listed.arch.linear_attention_layer == std::vector<bool>{true, false, true, true});
  CHECK(listed.arch.linear.value_head_dim == 64);
  CHECK(listed.arch.linear.conv_kernel == 3);
  CHECK(listed.arch.tied_embeddings);  // tie_embedding
  // 2 x 6656 / 3 = 4437, times 1.0, up to a multiple of 256: 4608 (configuration_lfm2.py).
  CHECK(listed.arch.intermediate_size == 4608);
  ModelEntry indexed = FromJson(R"({"full_attn_idxs":[1],)" + shape + "}");
  CHECK(indexed.arch.linear_attention_layer == listed.arch.linear_attention_layer);
  // With neither, every layer is attention; with no multiplier, no rounding.
  ModelEntry plain = FromJson(R"({"block_ffn_dim_multiplier":null,)" + shape + "}");
  CHECK(plain.arch.linear_attention_layer == std::vector<bool>(4, false));
  CHECK(plain.arch.intermediate_size == 4437);
  CHECK(FromJson(R"({"block_auto_adjust_ff_dim":false,)" + shape + "}").arch.intermediate_size ==
        6656);
  // A stranger's factor of 1e300 is not cast into an integer (undefined behaviour): unscaled.
  ModelEntry huge = FromJson(R"({"block_ffn_dim_multiplier":1e300,)" + shape + "}");
  CHECK(huge.arch.intermediate_size == 4437);
  CHECK_FALSE(huge.uncertain_fields.empty());
}

TEST_CASE("a model_type the architecture table lacks is a guess, and says so",
          "[catalog][model_config]") {
  const std::string config = R"({"model_type":"gemma9","text_config":{"model_type":"gemma9_text",
      "hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,
      "head_dim":16,"intermediate_size":128,"vocab_size":100}})";
  ModelEntry entry = FromJson(config);
  CHECK(entry.confidence == "low");
  auto guessed = [](const std::vector<std::string>& fields) {
    return std::count_if(fields.begin(), fields.end(), [](const std::string& field) {
      return field.find("'gemma9' is not in catalog/architectures.toml") != std::string::npos;
    });
  };
  CHECK(guessed(entry.uncertain_fields) == 1);
  // `models add` writes the guess into the table, whatever confidence it was asked for, and
  // reading the table back lists it once.
  std::string table, error;
  REQUIRE(gpulint::ModelTableFromConfigJson(config, "config.json",
                                            {{"hf_id", "team/m"}, {"confidence", "high"}}, "model",
                                            &table, &error));
  CHECK(table.find("confidence = \"low\"") != std::string::npos);
  CHECK(table.find("confidence = \"high\"") == std::string::npos);
  std::vector<ModelEntry> back;
  REQUIRE(gpulint::ParseModelTables(table, "gpulint.toml", &back, &error));
  REQUIRE(back.size() == 1);
  CHECK(back[0].confidence == "low");
  CHECK(back[0].uncertain_fields == entry.uncertain_fields);
  CHECK(guessed(back[0].uncertain_fields) == 1);
  // A known type stays as sure as its config.
  CHECK(FromJson(R"({"model_type":"llama","hidden_size":64,"num_hidden_layers":2,
      "num_attention_heads":4,"intermediate_size":128,"vocab_size":100})").confidence == "high");
}

TEST_CASE("Jamba's layer_types in either spelling place the attention layers",
          "[catalog][model_config]") {
  // Its layer_types property says "full_attention" (configuration_jamba.py 107-110 at
  // transformers e8c4f0b7), layers_block_type "attention" (101-105).
  for (const char* attention : {"full_attention", "attention"}) {
    INFO(attention);
    ModelEntry e = FromJson(
        std::string(R"({"model_type":"jamba","hidden_size":64,"num_hidden_layers":2,)"
                    R"("num_attention_heads":4,"num_key_value_heads":2,"intermediate_size":96,)"
                    R"("vocab_size":100,"num_experts":4,"num_experts_per_tok":2,"layer_types":[")") +
        attention + R"(","mamba"]})");
    CHECK(e.arch.linear_attention_layer == std::vector<bool>{false, true});
  }
}

TEST_CASE("Gemma 4: full-attention layers of their own width, values from the keys' projection",
          "[catalog][model_config]") {
  // configuration_gemma4.py 210-223 at transformers e8c4f0b7: full layers take global_head_dim,
  // and num_global_key_value_heads where attention_k_eq_v, which drops their v_proj.
  ModelEntry e = FromJson(R"({"model_type":"gemma4","text_config":{"model_type":"gemma4_text",
      "hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,
      "head_dim":16,"global_head_dim":32,"num_global_key_value_heads":1,
      "attention_k_eq_v":true,"layer_types":["sliding_attention","full_attention"],
      "sliding_window":8,"intermediate_size":96,"vocab_size":100,"tie_word_embeddings":true}})");
  CHECK(e.arch.AttentionOf(0).head_dim == 16);
  CHECK(e.arch.AttentionOf(1).head_dim == 32);
  CHECK(e.arch.AttentionOf(1).kv_heads == 1);
  CHECK_FALSE(e.arch.AttentionOf(1).value_projection);
  // By hand. Sliding layer: q 64x64 + k, v 64x32 + o 64x64 = 12288, q/k norms 2 x 16, MLP
  // 3 x 64x96 = 18432, four norms 256: 31008. Full layer: q 64x128 + k 64x32 + o 128x64 = 18432,
  // q/k norms 2 x 32, MLP 18432, norms 256: 37184. Tied embedding 6400, final norm 64: 74656.
  CHECK(gpulint::est::CountParams(e.arch).Total() == 74656);
  // Both layers cache K and V: 2 x 2 heads x 16 and 2 x 1 head x 32, 2 bytes each.
  CHECK(gpulint::est::KvBytesPerToken(e.arch, 1, 1, 2, true) == 128 + 128);
}

TEST_CASE("Gemma 4: KV-shared layers keep no k/v projections or cache, per-layer inputs count",
          "[catalog][model_config]") {
  // modeling_gemma4.py at transformers e8c4f0b7: the last num_kv_shared_layers build no k_proj,
  // v_proj or k_norm (1198-1212) and cache nothing (cache_utils.py 1733-1736); with
  // use_double_wide_mlp their MLP is twice as wide (1068-1073); per-layer inputs add a table,
  // a projection and a norm to the model and a gate, a projection and a norm to each layer.
  ModelEntry e = FromJson(R"({"model_type":"gemma4","text_config":{"model_type":"gemma4_text",
      "hidden_size":64,"num_hidden_layers":4,"num_attention_heads":4,"num_key_value_heads":2,
      "head_dim":16,"global_head_dim":32,"attention_k_eq_v":false,"num_kv_shared_layers":2,
      "use_double_wide_mlp":true,"hidden_size_per_layer_input":8,
      "vocab_size_per_layer_input":100,"layer_types":["sliding_attention","full_attention",
      "sliding_attention","full_attention"],"sliding_window":8,"intermediate_size":96,
      "vocab_size":100,"tie_word_embeddings":true}})");
  CHECK(e.arch.AttentionOf(1).kv_heads == 2);  // no global KV heads without attention_k_eq_v
  CHECK(e.arch.AttentionOf(2).caches_kv == false);
  CHECK(e.arch.MlpWidthOf(1) == 96);
  CHECK(e.arch.MlpWidthOf(3) == 192);
  // By hand, each layer with its per-layer gate and projection 2 x 64x8 and norm 64 (1088) and
  // four norms (256): layer 0 (sliding) 12288 + 32 + 18432; layer 1 (full) q 8192 + k, v 2 x
  // 4096 + o 8192 + norms 64 + MLP 18432; layer 2 (sliding, shared) q and o 8192 + q_norm 16 +
  // MLP 3 x 64x192 = 36864; layer 3 (full, shared) 16384 + 32 + 36864. Model: embedding 6400,
  // per-layer table 100 x 4 x 8 = 3200, its projection 32 x 64 = 2048 and norm 8, final norm 64.
  const double layers = (12288 + 32 + 18432) + (24576 + 64 + 18432) + (8192 + 16 + 36864) +
                        (16384 + 32 + 36864) + 4 * (1088 + 256);
  CHECK(gpulint::est::CountParams(e.arch).Total() == layers + 6400 + 3200 + 2048 + 8 + 64);
  // Only the first two layers cache: 2 x 2 heads x 16 and 2 x 2 heads x 32, 2 bytes each.
  CHECK(gpulint::est::KvBytesPerToken(e.arch, 1, 1, 2, true) == 128 + 256);
  // A description no model can have is refused: every layer sharing K/V that no layer keeps,
  // or more KV heads than query heads on the full-attention layers.
  ModelEntry refused;
  std::string error;
  CHECK_FALSE(gpulint::ParseModelConfigJson(
      R"({"model_type":"gemma4_text","hidden_size":64,"num_hidden_layers":4,
          "num_attention_heads":4,"num_key_value_heads":2,"vocab_size":100,
          "num_kv_shared_layers":4})",
      "config.json", &refused, &error));
  CHECK(error.find("num_kv_shared_layers 4 leaves none of the 4 layers") != std::string::npos);
  CHECK_FALSE(gpulint::ParseModelConfigJson(
      R"({"model_type":"gemma4_text","hidden_size":64,"num_hidden_layers":4,
          "num_attention_heads":4,"num_key_value_heads":2,"vocab_size":100,
          "attention_k_eq_v":true,"num_global_key_value_heads":8})",
      "config.json", &refused, &error));
  CHECK(error.find("num_global_key_value_heads 8 is more than num_attention_heads 4") !=
        std::string::npos);
}

TEST_CASE("VLM projectors as each type builds them: SmolVLM's one linear, LFM2-VL's MLP",
          "[catalog][model_config]") {
  // A SigLIP tower of 2 blocks, 8 wide (MLP 16), patches of 4 over a 16-pixel image: by hand,
  // the patch conv 3 x 4 x 4 x 8 = 384, 2 blocks of q/k/v/o 4 x (64 + 8), fc1/fc2 (128 + 16) +
  // (128 + 8) and two LayerNorms 32 (= 600 each), the post-LayerNorm 16; 16 positions of 8 = 128.
  const std::string tower =
      R"("vision_config":{"hidden_size":8,"intermediate_size":16,"num_hidden_layers":2,
         "num_attention_heads":2,"patch_size":4,"image_size":16,"num_patches":16},)";
  const std::string text =
      R"("text_config":{"model_type":"llama","hidden_size":32,"num_hidden_layers":1,
         "num_attention_heads":4,"num_key_value_heads":4,"intermediate_size":64,
         "vocab_size":100,"tie_word_embeddings":true})";
  const double blocks = 384 + 2 * 600 + 16 + 128;
  // SmolVLM: 2 x 2 shuffled patches of 8 = 32 features, one bias-free layer to the text's 32.
  ModelEntry smolvlm =
      FromJson(R"({"model_type":"smolvlm","scale_factor":2,)" + tower + text + "}");
  CHECK(gpulint::est::CountParams(smolvlm.arch).vision == blocks + 32 * 32);
  // LFM2-VL: a LayerNorm over the 32 features (64), 32 -> 48 and 48 -> 32 with biases.
  ModelEntry lfm2_vl = FromJson(
      R"({"model_type":"lfm2_vl","downsample_factor":2,"projector_hidden_size":48,)" + tower +
      text + "}");
  CHECK(gpulint::est::CountParams(lfm2_vl.arch).vision ==
        blocks + 64 + (32 * 48 + 48) + (48 * 32 + 32));
}

TEST_CASE("Kimi Linear: KDA layers from linear_attn_config, counted from 1, MLA elsewhere",
          "[catalog][model_config]") {
  // configuration_kimi.py's is_kda_layer: (layer_idx + 1) in kda_layers.
  const std::string config =
      R"({"model_type":"kimi_linear","hidden_size":64,"num_hidden_layers":4,
          "num_attention_heads":4,"num_key_value_heads":4,"head_dim":16,"intermediate_size":96,
          "vocab_size":100,"kv_lora_rank":32,"q_lora_rank":null,"qk_nope_head_dim":16,
          "qk_rope_head_dim":8,"v_head_dim":16,"num_experts":8,"num_experts_per_token":2,
          "moe_intermediate_size":24,"num_shared_experts":1,"first_k_dense_replace":1,
          "linear_attn_config":{"full_attn_layers":[2,4],"kda_layers":[1,3],"head_dim":16,
                                "num_heads":4,"short_conv_kernel_size":4}})";
  ModelEntry e = FromJson(config);
  CHECK(e.arch.linear_attention_layer == std::vector<bool>{true, false, true, false});
  CHECK(e.arch.linear.kind == gpulint::est::ModelArch::LinearAttention::Kind::kKda);
  CHECK(e.arch.linear.ValueWidth() == 64);
  CHECK(e.arch.linear.gate_rank == 16);
  CHECK(e.arch.kv_lora_rank == 32);
  CHECK(e.arch.shared_expert_intermediate_size == 24);  // num_shared_experts x 24
  CHECK(e.arch.moe_layer == std::vector<bool>{false, true, true, true});
  // The routed experts' modules are w1, w2, w3 (catalog/architectures.toml).
  CHECK(e.arch.expert_linear_names == std::vector<std::string>{"w1", "w2", "w3"});
  // The layers keep a state per sequence, not a KV cache: two MLA layers cache per token.
  CHECK(gpulint::est::LinearStateBytesPerSequence(e.arch, 1, 1, 2, 4) ==
        2 * (3 * 64 * 3 * 2 + 4 * 16 * 16 * 4.0));
  // KDA layers without their shape are refused, not counted as nothing.
  for (const char* shapeless : {R"("linear_attn_config":{"kda_layers":[1,3]})",
                                R"("linear_attn_config":{"num_heads":4,"head_dim":16})",
                                R"("linear_attn_config":[1,3])"}) {
    INFO(shapeless);
    ModelEntry refused;
    std::string error;
    CHECK_FALSE(gpulint::ParseModelConfigJson(
        R"({"model_type":"kimi_linear","hidden_size":64,"num_hidden_layers":4,
            "num_attention_heads":4,"num_key_value_heads":4,"intermediate_size":96,
            "vocab_size":100,)" + std::string(shapeless) + "}",
        "config.json", &refused, &error));
    CHECK(error.find("linear_attn_config") == 0);
  }
  // `gpulint models add` writes the nested config back as the same model.
  ModelEntry written = FromWrittenTable(config);
  CHECK(written.arch.linear_attention_layer == e.arch.linear_attention_layer);
  CHECK(gpulint::est::CountParams(written.arch).Total() ==
        gpulint::est::CountParams(e.arch).Total());
}
