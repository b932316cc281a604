// checkpoint_size: safetensors headers and index totals, and what they say about a config.
#include "lint/catalog/checkpoint_size.h"

#include <catch2/catch.hpp>

#include <filesystem>

#include "estimator/param_count.h"
#include "lint/catalog/model_config.h"
#include "tests/support/process.h"

namespace {

// A safetensors file as the format lays it out: the header's length (8 bytes, little-endian),
// the header, then the data (left out here: only the header is ever read).
std::string SafetensorsFile(const std::string& header) {
  std::string file(8, '\0');
  uint64_t length = header.size();
  for (int i = 0; i < 8; ++i) file[i] = static_cast<char>((length >> (8 * i)) & 0xff);
  return file + header;
}

// A tensor entry of `elements` values of `dtype` (2 bytes each) starting at byte `at`.
std::string Tensor(const std::string& name, int64_t elements, int64_t at,
                   const std::string& dtype = "BF16", int bytes_each = 2) {
  return "\"" + name + "\":{\"dtype\":\"" + dtype + "\",\"shape\":[" + std::to_string(elements) +
         "],\"data_offsets\":[" + std::to_string(at) + "," +
         std::to_string(at + elements * bytes_each) + "]}";
}

// A two-layer Llama: embedding 100 x 64 (tied), per layer q/k/v/o 4 x 64 x 64 = 16,384, MLP
// 3 x 64 x 128 = 24,576 and two norms of 64: 41,088; a final norm of 64. 88,640 in all.
constexpr const char* kToyConfig =
    R"({"model_type":"llama","hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,
        "num_key_value_heads":4,"intermediate_size":128,"vocab_size":100,
        "tie_word_embeddings":true,"torch_dtype":"bfloat16"})";

gpulint::est::ModelArch ToyArch() {
  gpulint::ModelEntry entry;
  std::string error;
  REQUIRE(gpulint::ParseModelConfigJson(kToyConfig, "config.json", &entry, &error));
  REQUIRE(gpulint::est::CountParams(entry.arch).Total() == 88640);
  return entry.arch;
}

// The toy model sharded in two files, with `extra` more values in the second.
void WriteShards(const gpulint::testing::TempDir& dir, int64_t extra = 0) {
  dir.Write("m/config.json", kToyConfig);
  dir.Write("m/model-00001-of-00002.safetensors",
            SafetensorsFile("{\"__metadata__\":{\"format\":\"pt\"}," +
                            Tensor("model.embed_tokens.weight", 6400, 0) + "," +
                            Tensor("model.layers.0", 41088, 12800) + "}"));
  std::string second = "{" + Tensor("model.layers.1", 41088, 0) + "," +
                       Tensor("model.norm.weight", 64, 82176);
  if (extra > 0) second += "," + Tensor("model.mtp", extra, 82304);
  dir.Write("m/model-00002-of-00002.safetensors", SafetensorsFile(second + "}"));
  dir.Write("m/model.safetensors.index.json",
            R"({"metadata":{"total_size":177280},"weight_map":{
                "model.embed_tokens.weight":"model-00001-of-00002.safetensors",
                "model.layers.0":"model-00001-of-00002.safetensors",
                "model.layers.1":"model-00002-of-00002.safetensors",
                "model.norm.weight":"model-00002-of-00002.safetensors"}})");
}

}  // namespace

TEST_CASE("the headers of a sharded checkpoint count what config.json implies",
          "[catalog][checkpoint]") {
  gpulint::testing::TempDir dir;
  WriteShards(dir);
  std::string problem;
  auto size = gpulint::ReadCheckpointSize(dir.path() + "/m", &problem);
  INFO(problem);
  REQUIRE(size);
  CHECK(size->files == 2);
  CHECK(size->elements == 88640);
  CHECK(size->bytes == 2 * 88640);
  CHECK(size->bytes_by_dtype.at("BF16") == 2 * 88640);
  CHECK(size->Unquantized());
  CHECK(gpulint::CompareCheckpoint(*size, ToyArch()).empty());
}

TEST_CASE("a checkpoint holding more than the config says is noted, not priced",
          "[catalog][checkpoint]") {
  gpulint::testing::TempDir dir;
  WriteShards(dir, /*extra=*/20000);  // an MTP layer: 22.6% more
  std::string problem;
  auto size = gpulint::ReadCheckpointSize(dir.path() + "/m", &problem);
  REQUIRE(size);
  CHECK(size->elements == 108640);
  std::string note = gpulint::CompareCheckpoint(*size, ToyArch());
  CHECK(note.find("the safetensors headers of 2 files") == 0);
  CHECK(note.find("the files hold more") != std::string::npos);
}

TEST_CASE("without every shard the index's total_size is what is known",
          "[catalog][checkpoint]") {
  gpulint::testing::TempDir dir;
  WriteShards(dir);
  std::filesystem::remove(dir.path() + "/m/model-00002-of-00002.safetensors");
  std::string problem;
  auto size = gpulint::ReadCheckpointSize(dir.path() + "/m", &problem);
  REQUIRE(size);
  CHECK(size->bytes == 177280);
  CHECK(size->elements == 0);
  CHECK_FALSE(size->Unquantized());
  CHECK(size->source.find("total_size") != std::string::npos);
}

TEST_CASE("a hostile index or header is refused with a reason", "[catalog][checkpoint]") {
  gpulint::testing::TempDir dir;
  std::string problem;
  SECTION("a weight_map naming a file outside the folder") {
    dir.Write("m/model.safetensors.index.json",
              R"({"weight_map":{"w":"../../etc/passwd"}})");
    CHECK_FALSE(gpulint::ReadCheckpointSize(dir.path() + "/m", &problem));
    CHECK(problem.find("names a file outside its folder") != std::string::npos);
  }
  SECTION("a header length of 2^63") {
    dir.Write("m/model.safetensors", std::string(7, '\xff') + "\x7f" + "{}");
    CHECK_FALSE(gpulint::ReadCheckpointSize(dir.path() + "/m", &problem));
    CHECK(problem.find("header") != std::string::npos);
  }
  SECTION("a tensor ending before it begins") {
    dir.Write("m/model.safetensors",
              SafetensorsFile(R"({"w":{"dtype":"BF16","shape":[2],"data_offsets":[8,4]}})"));
    CHECK_FALSE(gpulint::ReadCheckpointSize(dir.path() + "/m", &problem));
    CHECK(problem.find("ends before it begins") != std::string::npos);
  }
  SECTION("no checkpoint at all is not a problem") {
    dir.Write("m/config.json", kToyConfig);
    CHECK_FALSE(gpulint::ReadCheckpointSize(dir.path() + "/m", &problem));
    CHECK(problem.empty());
  }
}

TEST_CASE("packed formats do not count parameters by elements", "[catalog][checkpoint]") {
  gpulint::CheckpointSize size;
  std::string problem;
  REQUIRE(gpulint::AddSafetensorsHeader(
      "{" + Tensor("qweight", 1000, 0, "I32", 4) + "," + Tensor("scales", 10, 4000, "F16") + "}",
      "x.safetensors", &size, &problem));
  CHECK(size.bytes == 4020);
  CHECK(size.elements == 1010);
  CHECK_FALSE(size.Unquantized());
}

TEST_CASE("a forged shape of 10^380 values is refused, not counted as infinity",
          "[catalog][checkpoint]") {
  gpulint::CheckpointSize size;
  std::string problem;
  std::string shape;
  for (int i = 0; i < 20; ++i) shape += std::string(i ? "," : "") + "10000000000000000000";
  CHECK_FALSE(gpulint::AddSafetensorsHeader(
      R"({"w":{"dtype":"BF16","shape":[)" + shape + R"(],"data_offsets":[0,2]}})", "x", &size,
      &problem));
  CHECK(problem.find("values") != std::string::npos);
  CHECK(size.elements == 0);
}
