// Model references as scripts write them, resolved to catalog architectures.
#include "lint/catalog/model_resolver.h"

#include <catch2/catch.hpp>

#include "lint/catalog/catalog.h"
#include "lint/config/project_config.h"
#include "tests/support/process.h"

using gpulint::Catalog;
using gpulint::ResolveContext;
using gpulint::ResolveStatus;
using gpulint::est::WeightFormat;

namespace {

ResolveContext CatalogOnly() {
  ResolveContext context;
  context.use_filesystem = false;
  return context;
}

}  // namespace

TEST_CASE("a quantization suffix is cut at the end of the name only", "[catalog][resolve]") {
  using gpulint::ModelResolver;
  gpulint::est::Quantization quant;
  CHECK(ModelResolver::StripQuantSuffix("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4", &quant, nullptr) ==
        "Qwen/Qwen2.5-7B-Instruct");
  CHECK(quant.format == WeightFormat::kGptqInt4);
  gpulint::est::Quantization none;
  CHECK(ModelResolver::StripQuantSuffix("Qwen/Qwen3-8B", &none, nullptr) == "Qwen/Qwen3-8B");
  CHECK(none.format == WeightFormat::kDefault);
  // "fp8" inside a name is not a suffix.
  CHECK(ModelResolver::StripQuantSuffix("acme/fp8-trainer-7b", nullptr, nullptr) ==
        "acme/fp8-trainer-7b");
}

TEST_CASE("a name that only starts like a catalog model is not that model", "[catalog][resolve]") {
  Catalog catalog;
  // Once read as DeepSeek-R1 (671B) by its first words, or as the base of a fine-tune.
  for (const char* reference : {"deepseek-ai/DeepSeek-R1-Zero-Distill-Fake-1.5B",
                                "/scratch/runs/qwen2.5-7b-instruct-sft-math-epoch3",
                                "Qwen/Qwen3-8B-Instruct", "acme/llama-3.1-8b-grpo-step100"}) {
    INFO(reference);
    auto result = catalog.ResolveModel(reference, CatalogOnly());
    CHECK(result.status == ResolveStatus::kUnknown);
    CHECK_FALSE(result.suggestions.empty());
  }
}

TEST_CASE("GGUF is reported as out of scope, not guessed", "[catalog][resolve]") {
  Catalog catalog;
  auto result = catalog.ResolveModel("bartowski/Qwen2.5-7B-Instruct-GGUF", CatalogOnly());
  CHECK(result.status == ResolveStatus::kUnsupported);
  CHECK(result.message.find("GGUF") != std::string::npos);
}

TEST_CASE("an unknown model gets the closest catalog names", "[catalog][resolve]") {
  Catalog catalog;
  auto result = catalog.ResolveModel("Qwen/Qwen3-8", CatalogOnly());
  CHECK(result.status == ResolveStatus::kUnknown);
  CHECK(result.message == "unknown model 'Qwen/Qwen3-8'");
  REQUIRE_FALSE(result.suggestions.empty());
  CHECK(result.suggestions[0] == "Qwen/Qwen3-8B");
}

TEST_CASE("a folder with config.json wins over the catalog", "[catalog][resolve]") {
  gpulint::testing::TempDir dir;
  dir.Write("ckpt/Qwen3-8B/config.json", R"({
    "model_type": "qwen3", "hidden_size": 64, "num_hidden_layers": 2,
    "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
    "intermediate_size": 128, "vocab_size": 1000, "tie_word_embeddings": true,
    "max_position_embeddings": 4096, "torch_dtype": "bfloat16"})");
  Catalog catalog;
  ResolveContext context;
  context.base_dir = dir.path();
  auto result = catalog.ResolveModel("ckpt/Qwen3-8B", context);
  REQUIRE(result.status == ResolveStatus::kResolved);
  CHECK(result.entry->arch.hidden_size == 64);  // not the catalog's 4096
  CHECK(result.entry->arch.qk_norm == gpulint::est::ModelArch::QkNorm::kPerHead);  // qwen3 traits
  CHECK(result.entry->origin.find("config.json") != std::string::npos);
}

TEST_CASE("a model in the Hugging Face cache is read from there", "[catalog][resolve]") {
  gpulint::testing::TempDir dir;
  dir.Write("hub/models--acme--tiny-7b/snapshots/0123abcd/config.json", R"({
    "model_type": "llama", "hidden_size": 32, "num_hidden_layers": 3,
    "num_attention_heads": 4, "num_key_value_heads": 4, "intermediate_size": 64,
    "vocab_size": 100, "tie_word_embeddings": false})");
  Catalog catalog;
  ResolveContext context;
  context.hf_cache_dirs = {dir.path() + "/hub"};
  auto result = catalog.ResolveModel("acme/tiny-7b", context);
  REQUIRE(result.status == ResolveStatus::kResolved);
  CHECK(result.entry->arch.num_layers == 3);
  CHECK(result.entry->origin.find("Hugging Face cache") != std::string::npos);
}

TEST_CASE("a malformed config.json is an input error naming the file and the reason",
          "[catalog][resolve]") {
  gpulint::testing::TempDir dir;
  dir.Write("bad/config.json", R"({"model_type": "llama", "hidden_size": 32,)");
  dir.Write("incomplete/config.json", R"({"model_type": "llama", "hidden_size": 32})");
  Catalog catalog;
  ResolveContext context;
  context.base_dir = dir.path();
  auto bad = catalog.ResolveModel("bad", context);
  CHECK(bad.status == ResolveStatus::kInvalid);
  CHECK(bad.message.find("not a JSON object") != std::string::npos);
  CHECK(bad.message.find("bad/config.json") != std::string::npos);
  auto incomplete = catalog.ResolveModel("incomplete", context);
  CHECK(incomplete.status == ResolveStatus::kInvalid);
  CHECK(incomplete.message.find("num_hidden_layers") != std::string::npos);
}

TEST_CASE("a VLM config.json with nested text and vision configs", "[catalog][resolve]") {
  gpulint::testing::TempDir dir;
  dir.Write("vlm/config.json", R"({
    "model_type": "qwen3_vl", "tie_word_embeddings": true,
    "text_config": {"model_type": "qwen3_vl_text", "hidden_size": 64, "num_hidden_layers": 2,
      "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
      "intermediate_size": 128, "vocab_size": 1000},
    "vision_config": {"depth": 2, "hidden_size": 32, "intermediate_size": 64, "num_heads": 2,
      "patch_size": 16, "temporal_patch_size": 2, "spatial_merge_size": 2,
      "out_hidden_size": 64, "deepstack_visual_indexes": [0]}})");
  Catalog catalog;
  ResolveContext context;
  context.base_dir = dir.path();
  auto result = catalog.ResolveModel("vlm", context);
  REQUIRE(result.status == ResolveStatus::kResolved);
  CHECK(result.entry->arch.model_type == "qwen3_vl_text");
  CHECK(result.entry->arch.vision.depth == 2);
  CHECK(result.entry->arch.vision.deepstack_mergers == 1);
}

TEST_CASE("a user model from gpulint.toml resolves and shadows nothing else", "[catalog][resolve]") {
  gpulint::testing::TempDir dir;
  std::string path = dir.Write("gpulint.toml", R"(
gpu = "A100-80GB"
[[model]]
name = "acme/coder-13b"
model_type = "llama"
hidden_size = 5120
num_hidden_layers = 40
num_attention_heads = 40
num_key_value_heads = 8
intermediate_size = 13824
vocab_size = 32000
tie_word_embeddings = false
max_position_embeddings = 16384
)");
  gpulint::ProjectConfig config;
  std::string error;
  REQUIRE(gpulint::LoadProjectConfig(path, &config, &error));
  Catalog catalog;
  // Asked before the project's entries arrive: unknown. The answers a run remembers must not
  // outlive the entries they were given without.
  CHECK(catalog.ResolveModel("acme/coder-13b", CatalogOnly()).status == ResolveStatus::kUnknown);
  REQUIRE(catalog.AddUserEntries(config, &error));
  auto result = catalog.ResolveModel("acme/coder-13b", CatalogOnly());
  REQUIRE(result.status == ResolveStatus::kResolved);
  CHECK(result.entry->arch.num_kv_heads == 8);
  CHECK(result.entry->origin.find("gpulint.toml") != std::string::npos);
  CHECK(catalog.ResolveModel("Qwen/Qwen3-8B", CatalogOnly()).status == ResolveStatus::kResolved);
  // Asked again: the same answer, from memory.
  auto again = catalog.ResolveModel("acme/coder-13b", CatalogOnly());
  CHECK(again.entry == result.entry);
}
