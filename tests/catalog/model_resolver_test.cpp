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

TEST_CASE("name keys drop organization, variant words, dates and quantization suffixes",
          "[catalog][resolve]") {
  using gpulint::ModelResolver;
  gpulint::est::Quantization quant;
  CHECK(ModelResolver::NameKey("Qwen/Qwen3-VL-30B-A3B-Thinking", &quant, nullptr) ==
        "qwen3-vl-30b-a3b");
  CHECK(ModelResolver::NameKey("mistralai/Mistral-Small-3.2-24B-Instruct-2506", nullptr,
                               nullptr) == "mistral-small-3.2-24b");
  CHECK(ModelResolver::NameKey("meta-llama/Meta-Llama-3.1-8B-Instruct", nullptr, nullptr) ==
        "llama-3.1-8b");
  CHECK(ModelResolver::NameKey("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4", &quant, nullptr) ==
        "qwen2.5-7b");
  CHECK(quant.format == WeightFormat::kGptqInt4);
}

TEST_CASE("table of references and what they resolve to", "[catalog][resolve]") {
  Catalog catalog;
  struct Row {
    const char* reference;
    const char* resolved_id;
    WeightFormat quant;
    bool exact;
  };
  const Row rows[] = {
      {"Qwen/Qwen3-8B", "Qwen/Qwen3-8B", WeightFormat::kDefault, true},
      {"qwen/qwen3-8b", "Qwen/Qwen3-8B", WeightFormat::kDefault, true},  // any case
      {"/data/ckpt/Qwen3-VL-30B-A3B-Thinking", "Qwen/Qwen3-VL-30B-A3B-Instruct",
       WeightFormat::kDefault, false},
      {"$HOME/models/qwen2.5-7b-instruct-awq", "Qwen/Qwen2.5-7B-Instruct",
       WeightFormat::kAwqInt4, false},
      {"Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4", "Qwen/Qwen2.5-7B-Instruct", WeightFormat::kGptqInt4,
       false},
      {"Qwen/Qwen-7B-Chat-Int8", "Qwen/Qwen-7B-Chat", WeightFormat::kGptqInt8, false},
      {"Qwen/Qwen3-32B-FP8", "Qwen/Qwen3-32B", WeightFormat::kFp8, false},
      {"RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic", "meta-llama/Llama-3.3-70B-Instruct",
       WeightFormat::kFp8, false},
      {"neuralmagic/Meta-Llama-3.1-8B-Instruct-quantized.w4a16", "meta-llama/Llama-3.1-8B",
       WeightFormat::kGptqInt4, false},
      {"unsloth/Llama-3.2-3B-Instruct", "meta-llama/Llama-3.2-3B", WeightFormat::kDefault, false},
      {"unsloth/qwen2.5-0.5b-instruct-unsloth-bnb-4bit", "Qwen/Qwen2.5-0.5B-Instruct",
       WeightFormat::kNf4, false},
      {"TheBloke/Llama-2-7B-Chat-AWQ", "meta-llama/Llama-2-7b-hf", WeightFormat::kAwqInt4, false},
      {"casperhansen/mixtral-instruct-awq", "", WeightFormat::kAwqInt4, false},  // no size: unknown
      {"google/gemma-3-27b-it", "google/gemma-3-27b-it", WeightFormat::kDefault, true},
      {"meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-8B", WeightFormat::kDefault,
       false},
      {"Qwen/Qwen2.5-Coder-7B-Instruct-AutoRound-GPTQ-4bit", "Qwen/Qwen2.5-Coder-7B-Instruct",
       WeightFormat::kGptqInt4, false},
  };
  for (const Row& row : rows) {
    INFO(row.reference);
    auto result = catalog.ResolveModel(row.reference, CatalogOnly());
    if (std::string(row.resolved_id).empty()) {
      CHECK(result.status == ResolveStatus::kUnknown);
      continue;
    }
    REQUIRE(result.status == ResolveStatus::kResolved);
    CHECK(result.entry->hf_id == row.resolved_id);
    CHECK(result.quant_from_name.format == row.quant);
    CHECK(result.assumptions.empty() == row.exact);
  }
}

TEST_CASE("a fine-tuned checkpoint folder resolves to its base and says so", "[catalog][resolve]") {
  Catalog catalog;
  auto result =
      catalog.ResolveModel("/scratch/runs/qwen2.5-7b-instruct-sft-math-epoch3", CatalogOnly());
  REQUIRE(result.status == ResolveStatus::kResolved);
  CHECK(result.entry->hf_id == "Qwen/Qwen2.5-7B-Instruct");
  REQUIRE(result.assumptions.size() == 1);
  CHECK(result.assumptions[0].find("fine-tune") != std::string::npos);
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
