// `gpulint models` and `gpulint gpus` end to end.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

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
