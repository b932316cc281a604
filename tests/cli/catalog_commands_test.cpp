// `gpulint models` and `gpulint gpus` end to end.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "tests/support/process.h"

using gpulint::testing::RunGpulint;

TEST_CASE("models --search filters and shows computed counts", "[cli][catalog]") {
  auto result = RunGpulint({"models", "--search", "qwen3-30b"});
  CHECK(result.exit_code == 0);
  CHECK(result.out.find("Qwen/Qwen3-30B-A3B ") != std::string::npos);
  CHECK(result.out.find("30.53B") != std::string::npos);  // total, every expert
  CHECK(result.out.find("3.35B") != std::string::npos);   // active
  CHECK(result.out.find("Llama") == std::string::npos);
}

TEST_CASE("models --format json lists ids with bf16 weight sizes", "[cli][catalog]") {
  auto result = RunGpulint({"models", "--search", "Qwen/Qwen3-8B", "--format", "json"});
  REQUIRE(result.exit_code == 0);
  auto json = nlohmann::json::parse(result.out);
  REQUIRE(json["models"].size() == 2);  // Qwen3-8B and Qwen3-8B-Base
  CHECK(json["models"][0]["id"] == "Qwen/Qwen3-8B");
  // 8.19B parameters x 2 bytes = 15.26 GiB.
  CHECK(json["models"][0]["weights_bf16_gib"].get<double>() == Approx(15.26).epsilon(0.005));
}

TEST_CASE("gpus lists canonical names and nvidia-smi memory", "[cli][catalog]") {
  auto result = RunGpulint({"gpus"});
  CHECK(result.exit_code == 0);
  CHECK(result.out.find("H100-80GB") != std::string::npos);
  CHECK(result.out.find("81559") != std::string::npos);
}

TEST_CASE("models --config adds the team's own model", "[cli][catalog]") {
  gpulint::testing::TempDir dir;
  std::string config = dir.Write("gpulint.toml", R"(
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
)");
  auto result = RunGpulint({"models", "--config", config, "--search", "acme"});
  CHECK(result.exit_code == 0);
  CHECK(result.out.find("acme/coder-13b") != std::string::npos);
}

TEST_CASE("a broken --config is exit 2 with file and line", "[cli][catalog]") {
  gpulint::testing::TempDir dir;
  std::string config = dir.Write("gpulint.toml", "gpu = [\n");
  auto result = RunGpulint({"models", "--config", config});
  CHECK(result.exit_code == 2);
  CHECK(result.err.rfind("gpulint: error: invalid TOML", 0) == 0);
  CHECK(result.err.find("gpulint.toml:") != std::string::npos);
}

namespace {

// Qwen/Qwen3-30B-A3B's config.json (the catalog's entry; 30.53B parameters, 3.35B active).
constexpr const char* kQwen3MoeConfig =
    R"({"architectures":["Qwen3MoeForCausalLM"],"attention_bias":false,"decoder_sparse_step":1,
        "head_dim":128,"hidden_size":2048,"intermediate_size":6144,
        "max_position_embeddings":40960,"mlp_only_layers":[],"model_type":"qwen3_moe",
        "moe_intermediate_size":768,"num_attention_heads":32,"num_experts":128,
        "num_experts_per_tok":8,"num_hidden_layers":48,"num_key_value_heads":4,
        "rope_scaling":null,"sliding_window":null,"tie_word_embeddings":false,
        "torch_dtype":"bfloat16","use_sliding_window":false,"vocab_size":151936})";

}  // namespace

TEST_CASE("models add declares a model folder in a new gpulint.toml", "[cli][catalog]") {
  gpulint::testing::TempDir dir;
  dir.Write("ckpt/qwen3-moe-sft/config.json", kQwen3MoeConfig);
  auto added = RunGpulint({"models", "add", "ckpt/qwen3-moe-sft"}, "", dir.path());
  INFO(added.err);
  REQUIRE(added.exit_code == 0);
  CHECK(added.out.find("declared 'qwen3-moe-sft' (qwen3_moe, 30.53B parameters)") !=
        std::string::npos);
  std::string written = gpulint::testing::ReadWholeFile(dir.path() + "/gpulint.toml");
  CHECK(written.rfind("[[model]]\nhf_id = \"qwen3-moe-sft\"\nsource = \"config.json: ", 0) == 0);

  // A script naming the folder on the cluster resolves without the folder (CI has no checkpoint).
  std::filesystem::remove_all(dir.path() + "/ckpt");
  dir.Write("serve.sh", "vllm serve /models/qwen3-moe-sft --tensor-parallel-size 1\n");
  auto estimate = RunGpulint({"estimate", "serve.sh", "--gpu", "H100-80GB"}, "", dir.path());
  INFO(estimate.out);
  CHECK(estimate.exit_code == 0);
  CHECK(estimate.out.find("qwen3-moe-sft") != std::string::npos);
  CHECK(estimate.out.find("unknown model") == std::string::npos);
  auto listed = RunGpulint({"models", "--config", dir.path() + "/gpulint.toml", "--search",
                            "qwen3-moe-sft"});
  CHECK(listed.out.find("30.53B") != std::string::npos);
  CHECK(listed.out.find("3.35B") != std::string::npos);
}

TEST_CASE("models add appends to the team's file and never declares a name twice",
          "[cli][catalog]") {
  gpulint::testing::TempDir dir;
  const std::string before = "# the team's settings\ngpu = \"H100-80GB\"  # the cluster\n";
  std::string config = dir.Write("gpulint.toml", before);
  std::string json = dir.Write("m/config.json", kQwen3MoeConfig);
  auto added = RunGpulint({"models", "add", json, "--id", "acme/moe"}, "", dir.path());
  REQUIRE(added.exit_code == 0);
  std::string after = gpulint::testing::ReadWholeFile(config);
  CHECK(after.rfind(before + "\n[[model]]\nhf_id = \"acme/moe\"\n", 0) == 0);

  auto again = RunGpulint({"models", "add", json, "--id", "acme/moe"}, "", dir.path());
  CHECK(again.exit_code == 2);
  CHECK(again.err.find("a model 'acme/moe' is already declared") != std::string::npos);
  CHECK(gpulint::testing::ReadWholeFile(config) == after);
}

TEST_CASE("models add writes [[tool.gpulint.model]] into a pyproject.toml", "[cli][catalog]") {
  gpulint::testing::TempDir dir;
  std::string pyproject =
      dir.Write("pyproject.toml", "[project]\nname = \"trainer\"\n\n[tool.gpulint]\ngpu = \"A100-80GB\"\n");
  dir.Write("m/config.json", kQwen3MoeConfig);
  auto added = RunGpulint({"models", "add", "m", "--id", "acme/moe"}, "", dir.path());
  INFO(added.err);
  REQUIRE(added.exit_code == 0);
  CHECK(gpulint::testing::ReadWholeFile(pyproject).find("[[tool.gpulint.model]]\nhf_id = \"acme/moe\"") !=
        std::string::npos);
  auto listed = RunGpulint({"models", "--config", pyproject, "--search", "acme/moe"});
  CHECK(listed.out.find("30.53B") != std::string::npos);
}

TEST_CASE("models add refuses what is not a model and writes nothing", "[cli][catalog]") {
  gpulint::testing::TempDir dir;
  dir.Write("m/config.json", R"({"model_type":"llama","hidden_size":4096})");
  auto result = RunGpulint({"models", "add", "m"}, "", dir.path());
  CHECK(result.exit_code == 2);
  CHECK(result.err.rfind("gpulint: error: model description has no positive 'num_hidden_layers'", 0) == 0);
  CHECK_FALSE(std::filesystem::exists(dir.path() + "/gpulint.toml"));
  auto missing = RunGpulint({"models", "add", "nowhere"}, "", dir.path());
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.rfind("gpulint: error: nowhere", 0) == 0);
}

TEST_CASE("models add counts the parameters from the weights' headers and says when they differ",
          "[cli][catalog]") {
  // A two-layer Llama of 88,640 parameters (tests/catalog/checkpoint_size_test.cpp works it out)
  // in one model.safetensors; the second folder's file holds 20,000 values more (an MTP layer).
  auto safetensors = [](int64_t elements) {
    std::string header = R"({"w":{"dtype":"BF16","shape":[)" + std::to_string(elements) +
                         R"(],"data_offsets":[0,)" + std::to_string(2 * elements) + "]}}";
    std::string file(8, '\0');
    for (int i = 0; i < 8; ++i) file[i] = static_cast<char>((header.size() >> (8 * i)) & 0xff);
    return file + header;
  };
  const std::string config =
      R"({"model_type":"llama","hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,
          "num_key_value_heads":4,"intermediate_size":128,"vocab_size":100,
          "tie_word_embeddings":true,"torch_dtype":"bfloat16"})";
  gpulint::testing::TempDir dir;
  dir.Write("exact/config.json", config);
  dir.Write("exact/model.safetensors", safetensors(88640));
  dir.Write("more/config.json", config);
  dir.Write("more/model.safetensors", safetensors(108640));

  auto exact = RunGpulint({"models", "add", "exact", "--print"}, "", dir.path());
  INFO(exact.err);
  REQUIRE(exact.exit_code == 0);
  CHECK(exact.out.find("params_total = 88640\n") != std::string::npos);
  CHECK(exact.out.find("params_total_source = \"the safetensors header of ") != std::string::npos);
  CHECK(exact.err.empty());

  auto more = RunGpulint({"models", "add", "more", "--print"}, "", dir.path());
  CHECK(more.exit_code == 0);
  CHECK(more.err.find("gpulint: warning: the safetensors header of ") == 0);
  CHECK(more.err.find("the files hold more") != std::string::npos);

  // A script that serves the folder gets the same note among the estimate's assumptions.
  dir.Write("serve.sh", "vllm serve ./more\n");
  auto estimate = RunGpulint({"estimate", "serve.sh", "--gpu", "H100-80GB"}, "", dir.path());
  INFO(estimate.out);
  CHECK(estimate.out.find("the files hold more") != std::string::npos);
}
